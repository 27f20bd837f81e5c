import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * Tools built as objects with their function by keyword (`Tool(function=run_shell,
 * name=ToolName.SHELL)`, pydantic-ai and kin), in factories the agent's setup calls. The shell tool
 * raises for approval (`raise ApprovalRequired(…)`) unless the call was approved: the app asks the
 * user and runs it again, so the command waits for an answer. The write tool declares it needs
 * approval. Without the raise, the shell runs with nobody asked (C2 cap).
 */
const files = (guard: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "kbot"\nversion = "0.1.0"\ndependencies = ["pydantic-ai"]\n\n[project.scripts]\nkbot = "kbot.main:main"\n',
  'kbot/__init__.py': '',
  'kbot/names.py': `from enum import StrEnum


class ToolName(StrEnum):
    SHELL = "run_shell"
    WRITE = "write_file"
`,
  'kbot/tools.py': `import subprocess

from pydantic_ai import ApprovalRequired, RunContext, Tool

from kbot.names import ToolName


def make_shell_tool() -> Tool:
    async def run_shell(ctx: RunContext[None], command: str) -> str:
${guard}
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout

    return Tool(function=run_shell, name=ToolName.SHELL, description="Run a shell command")


def make_write_tool() -> Tool:
    async def write_file(path: str, content: str) -> str:
        with open(path, "w") as f:
            f.write(content)
        return "written"

    return Tool(function=write_file, name=ToolName.WRITE, description="Write a file", requires_approval=True)
`,
  'kbot/main.py': `import sys

from pydantic_ai import Agent, DeferredToolRequests

from kbot.tools import make_shell_tool, make_write_tool


def main():
    agent = Agent("openai:gpt-4o", tools=[make_shell_tool(), make_write_tool()], output_type=[str, DeferredToolRequests])
    print(agent.run_sync(sys.argv[1]).output)
`,
});

const ASKS = '        if not ctx.tool_call_approved:\n            raise ApprovalRequired(metadata={"command": command})';

const run = (name: string, guard: string) => auditTools(name, files(guard));

describe('tool objects built with their function by keyword', () => {
  it('are tools; a raise for approval gates the shell, a declared approval the write: no C2 cap', async () => {
    const { tools, caps } = await run('kbot', ASKS);
    expect(tools['SHELL']?.construct).toBe('registration-call');
    expect(tools['SHELL']?.status).toBe('gated');
    expect(tools['WRITE']?.status).toBe('gated');
    expect(caps).not.toContain('C2');
  });

  it('a raise under a condition written over several lines gates it too', async () => {
    const { tools } = await run('kbot-wrapped', '        if (\n            not ctx.tool_call_approved\n        ):\n            raise ApprovalRequired(metadata={"command": command})');
    expect(tools['SHELL']?.status).toBe('gated');
  });

  it('without the raise, the shell runs with nobody asked: C2 cap', async () => {
    const { tools, caps } = await run('kbot-open', '        pass');
    expect(tools['SHELL']?.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});
