import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A desktop agent whose actions are offered to the model through an action registry's decorator
 * (`@self.registry.action('…', param_model=…)`), one of which hands the model's script to
 * `osascript`. The model picks actions by name from the registry; nothing asks.
 */
const agent = (decorator: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "deskpilot"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'deskpilot/__init__.py': '',
  'deskpilot/registry.py': `class Registry:
    def __init__(self):
        self.actions = {}

    def action(self, description: str, **kwargs):
        def wrap(func):
            self.actions[func.__name__] = (description, func)
            return func
        return wrap

    async def execute(self, name: str, params: dict):
        description, func = self.actions[name]
        return await func(**params)
`,
  'deskpilot/controller.py': `import subprocess

from deskpilot.registry import Registry


class Controller:
    def __init__(self):
        self.registry = Registry()
        self._register()

    def _register(self):
        ${decorator}('Run an AppleScript and return its output')
        async def run_script(script: str):
            result = subprocess.run(['osascript', '-e', script], capture_output=True, text=True)
            return result.stdout

        ${decorator}('Say that the task is done')
        async def done(text: str):
            return text
`,
  'deskpilot/agent.py': `import json

from openai import OpenAI

from deskpilot.controller import Controller


def run(task: str):
    client = OpenAI()
    controller = Controller()
    messages = [{"role": "user", "content": task}]
    for _ in range(20):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages)
        step = json.loads(reply.choices[0].message.content)
        if step["action"] == "done":
            return step["params"]["text"]
        out = controller.registry.execute(step["action"], step["params"])
        messages.append({"role": "user", "content": str(out)})


if __name__ == "__main__":
    import sys

    print(run(sys.argv[1]))
`,
});

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });

describe("an action registry's decorator offers the function to the model", () => {
  it('lists each registered action as a tool; the script action runs commands unasked and the caps fire', async () => {
    const report = await score('action-registry', agent('@self.registry.action'));
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, { reaches: t.reaches, status: t.status }]));
    expect(tools).toMatchObject({ run_script: { reaches: ['exec'], status: 'ungated' }, done: { reaches: [] } });
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('an unrelated decorator named action (a web route, a CLI command) offers nothing', async () => {
    const report = await score('action-route', agent('@self.router.action'));
    expect(report.agent!.tools.map((t) => t.name)).not.toContain('run_script');
  });
});
