import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A TypeScript harness whose dispatcher calls each tool through a namespace import
 * (`import * as Bash from './bash.ts'`, `Bash.execute(…)`), where another module of the same name
 * renders the tool's output; the tool runs its command through a field holding a shell
 * (`context.shell.execute(…)`), one of two shell classes side by side in one folder.
 */
const files = (shellFolders: [string, string]): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'nsagent', version: '1.0.0', dependencies: { openai: '^4.0.0' } }),
  'src/agent.ts': `import OpenAI from 'openai';
import { dispatch } from './tools/dispatch.ts';
import { LocalShell } from '${shellFolders[0].replace(/^src/, '.')}/local-shell.ts';

const client = new OpenAI();

export async function turn(messages: OpenAI.ChatCompletionMessageParam[]): Promise<void> {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages });
  for (const call of reply.choices[0]!.message.tool_calls ?? []) {
    const out = await dispatch({ toolName: call.function.name, input: JSON.parse(call.function.arguments) }, { shell: new LocalShell() });
    messages.push({ role: 'tool', tool_call_id: call.id, content: out });
  }
}
`,
  'src/tools/dispatch.ts': `import * as Bash from './bash.ts';

export interface Shell { execute(command: string): Promise<string> }

export async function dispatch(request: { toolName: string; input: { command: string } }, context: { shell: Shell }): Promise<string> {
  switch (request.toolName) {
    case 'bash_command': {
      return Bash.execute(request.input, context);
    }
    default:
      throw new Error('unknown tool');
  }
}
`,
  'src/tools/bash.ts': `export async function execute(input: { command: string }, context: { shell: { execute(c: string): Promise<string> } }): Promise<string> {
  return context.shell.execute(input.command);
}
`,
  'src/render/bash.ts': `export function execute(text: string): string {
  return text.trim();
}
`,
  [`${shellFolders[0]}/local-shell.ts`]: `import { spawnSync } from 'node:child_process';

export class LocalShell {
  async execute(command: string): Promise<string> {
    return spawnSync('bash', ['-c', command], { encoding: 'utf8' }).stdout;
  }
}
`,
  [`${shellFolders[1]}/login-shell.ts`]: `import { spawnSync } from 'node:child_process';

export class LoginShell {
  async execute(command: string): Promise<string> {
    return spawnSync('sh', ['-lc', command], { encoding: 'utf8' }).stdout;
  }
}
`,
});

describe('a tool called through a namespace import and an interface field', () => {
  it('reaches the command the shell classes run, followed through the imported module and both implementations', async () => {
    const report = await audit(writeTree('nsagent', files(['src/capabilities', 'src/capabilities'])), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'bash_command');
    expect(tool && { reaches: tool.reaches, via: [...new Set(tool.paths.map((p) => p.via.join('>')))] }).toEqual({
      reaches: ['exec'],
      via: ['bash_command>execute>execute'],
    });
    expect(tool!.paths.map((p) => p.sink.path).sort()).toEqual(['src/capabilities/local-shell.ts', 'src/capabilities/login-shell.ts']);
  });

  it('is not followed into classes of that name that sit in different folders (no one interface)', async () => {
    const report = await audit(writeTree('nsagent-apart', files(['src/local', 'src/remote'])), { rubricDir: RUBRIC, factsCache: false, force: true });
    expect(report.agent!.tools.find((t) => t.name === 'bash_command')).toBeUndefined();
  });
});

/**
 * The same in Python: `self.command_runner.run(…)` runs the `run` of the classes named for the field
 * (`LocalCommandRunner`, `SshCommandRunner`), not the `run` of another class in the caller's folder.
 */
describe('a Python tool calling through a snake_case field named for its classes', () => {
  it('reaches the commands both runner classes run', async () => {
    const dir = writeTree('pyfield', {
      'pyproject.toml': '[project]\nname = "pyfield"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
      'pyfield/runners/local.py': 'import subprocess\n\n\nclass LocalCommandRunner:\n    def run(self, command):\n        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout\n',
      'pyfield/runners/ssh.py': 'import subprocess\n\n\nclass SshCommandRunner:\n    def run(self, command):\n        return subprocess.run(f"ssh box {command}", shell=True, capture_output=True, text=True).stdout\n',
      'pyfield/runners/__init__.py': 'from pyfield.runners.local import LocalCommandRunner\nfrom pyfield.runners.ssh import SshCommandRunner\n\n\ndef make_runner(remote):\n    return SshCommandRunner() if remote else LocalCommandRunner()\n',
      'pyfield/jobs.py': 'class Job:\n    def run(self, command):\n        return command\n',
      'pyfield/agent.py': `from openai import OpenAI
from langchain_core.tools import tool


class Agent:
    def __init__(self, command_runner):
        self.client = OpenAI()
        self.command_runner = command_runner

    def shell(self, command: str) -> str:
        return self.command_runner.run(command)


def build_tools(agent):
    @tool
    def run_shell(command: str) -> str:
        """Runs a shell command."""
        return agent.shell(command)

    return [run_shell]
`,
      'pyfield/main.py': `from pyfield.agent import Agent, build_tools
from pyfield.jobs import Job
from pyfield.runners import make_runner


def main():
    tools = build_tools(Agent(make_runner(False)))
    print(Job().run(tools))
`,
    });
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'run_shell');
    expect(tool!.paths.filter((p) => p.kind === 'exec').map((p) => p.sink.path).sort()).toEqual(['pyfield/runners/local.py', 'pyfield/runners/ssh.py']);
  });
});
