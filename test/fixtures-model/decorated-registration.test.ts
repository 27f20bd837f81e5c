import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python agent whose tools register through a decorator that names them
 * (`@register_tool('run_code')` over a class or a function): the decorated class's run method, or
 * the decorated function, is the tool's handler, and what it reaches is the tool's reach.
 */
const dir = () =>
  writeTree('pydecorated', {
    'pyproject.toml': '[project]\nname = "pydecorated"\n',
    'pydecorated/registry.py': `TOOL_REGISTRY = {}


def register_tool(name):
    def wrap(cls):
        TOOL_REGISTRY[name] = cls
        return cls
    return wrap
`,
    'pydecorated/tools.py': `import subprocess
import urllib.request

from pydecorated.registry import register_tool


class BaseTool:
    description = ""


@register_tool('run_code')
class RunCode(BaseTool):
    description = "Run a shell command"

    def _quote(self, text):
        return text

    def call(self, params):
        return subprocess.run(self._quote(params), shell=True, capture_output=True, text=True).stdout


@register_tool('fetch_page')
def fetch_page(url):
    return urllib.request.urlopen(url).read().decode()
`,
    'pydecorated/agent.py': `from openai import OpenAI

from pydecorated.registry import TOOL_REGISTRY
from pydecorated import tools  # noqa: F401 (registers the tools)


def main():
    client = OpenAI()
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    for call in reply.choices[0].message.tool_calls or []:
        print(TOOL_REGISTRY[call.function.name]().call(call.function.arguments))


if __name__ == "__main__":
    main()
`,
  });

describe('a tool registered by a decorator that names it', () => {
  it('has the decorated class run method, or the decorated function, as its handler', async () => {
    const report = await audit(dir(), { rubricDir: RUBRIC, factsCache: false });
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t]));
    expect(tools.run_code).toMatchObject({ construct: 'registration-call', status: expect.not.stringMatching(/unresolved/), reaches: ['exec'] });
    expect(tools.run_code!.handler).toMatchObject({ path: 'pydecorated/tools.py', line: 18 });
    expect(tools.fetch_page).toMatchObject({ reaches: ['net'] });
  });
});
