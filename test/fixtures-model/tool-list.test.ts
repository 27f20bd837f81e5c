import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * The functions a harness hands the model as a list (`functions = [self.run_command, self.info]`,
 * given to its assistant): each is a tool where the repository defines it, and reaches what that
 * function does. A list of tool objects built elsewhere (`tools=[SearchTool()]`, or names the
 * repository does not define) adds none.
 */
const files = (extra: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "dbgbot"\nversion = "0.1.0"\n[project.scripts]\ndbgbot = "dbgbot.cli:main"\n',
  'dbgbot/__init__.py': '',
  'dbgbot/assistant.py': `import json

from openai import OpenAI


class Assistant:
    def __init__(self, functions):
        self._functions = {f.__name__: f for f in functions}
        self._client = OpenAI()

    def query(self, text):
        reply = self._client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": text}])
        for call in reply.choices[0].message.tool_calls or []:
            self._functions[call.function.name](**json.loads(call.function.arguments))
`,
  'dbgbot/cli.py': `import subprocess

from dbgbot.assistant import Assistant
${extra}

class Session:
    def run_command(self, command):
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout

    def info(self, name):
        return repr(globals().get(name))

    def assistant(self):
        functions = [self.run_command, self.info]
        return Assistant(functions)


def main():
    Session().assistant().query(input("> "))
`,
});

const tools = async (name: string, extra: string) =>
  (await audit(writeTree(name, files(extra)), { rubricDir: RUBRIC, factsCache: false })).agent!.tools.map((t) => ({ name: t.name, construct: t.construct, reaches: t.reaches }));

describe('a list of the functions the model may call', () => {
  it('offers each function the repository defines as a tool', async () => {
    expect(await tools('dbgbot', '')).toEqual([
      { name: 'run_command', construct: 'tool-list', reaches: ['exec'] },
      { name: 'info', construct: 'tool-list', reaches: [] },
    ]);
  });

  it('adds no tool for entries it does not define', async () => {
    const found = await tools('dbgbot-ext', 'from somelib import SearchTool, lookup\n\nEXTRA_TOOLS = [lookup]\n');
    expect(found.map((t) => t.name)).toEqual(['run_command', 'info']);
  });
});
