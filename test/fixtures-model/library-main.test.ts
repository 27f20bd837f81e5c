import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A monorepo: the agent (`pyproject.toml` at the root, package `relay`) depends on a model-client
 * library of the same repository (`packages/llmkit`), whose `python -m llmkit` demo offers the model
 * a shell tool of its own that runs unasked. The agent's own shell tool asks first.
 */
const demo = `import subprocess

from llmkit import Client


class BashTool:
    name = "Bash"

    def __call__(self, command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def main() -> None:
    bash = BashTool()
    reply = Client().chat("list files", tools=[{"name": bash.name}])
    for call in reply.tool_calls:
        print(bash(**call.arguments))


main()
`;

const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "relay"\nversion = "0.1.0"\ndependencies = ["llmkit[contrib]==0.3.0", "openai"]\n\n[project.scripts]\nrelay = "relay.main:main"\n\n[tool.uv.workspace]\nmembers = ["packages/*"]\n',
  'relay/__init__.py': '',
  'relay/main.py': `import json
import subprocess

from llmkit import Client


class ShellTool:
    name = "shell"

    def __call__(self, command: str) -> str:
        if input(f"Run {command}? [y/N] ").strip().lower() != "y":
            return "refused"
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def main() -> None:
    shell = ShellTool()
    reply = Client().chat("hi", tools=[{"name": shell.name}])
    for call in reply.tool_calls:
        print(shell(**json.loads(call.arguments)))
`,
  'packages/llmkit/pyproject.toml': '[project]\nname = "llmkit"\nversion = "0.3.0"\ndependencies = ["openai"]\n',
  'packages/llmkit/src/llmkit/__init__.py': `from openai import OpenAI


class Client:
    def chat(self, prompt, tools=None):
        return OpenAI().chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": prompt}], tools=tools).choices[0].message
`,
  'packages/llmkit/src/llmkit/__main__.py': demo,
};

describe('the `__main__` module of a library the agent depends on', () => {
  it('is the library’s own program: its demo tool is not the agent’s', async () => {
    const report = await audit(writeTree('library-main', FILES), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => [t.name, t.status])).toEqual([['shell', 'gated']]);
    expect(report.criteria.find((c) => c.id === 'C4')!.cap).toBeNull();
  });

  it('is the program where nothing in the repository depends on its project', async () => {
    const alone = { ...FILES, 'pyproject.toml': FILES['pyproject.toml']!.replace('"llmkit[contrib]==0.3.0", ', '') };
    const report = await audit(writeTree('library-main-alone', alone), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => [t.name, t.status]).sort()).toEqual([['Bash', 'ungated'], ['shell', 'gated']]);
  });
});
