import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A coding agent's loop asks through a callback the UI hands it (`set_approval_callback`): the
 * loop's own helper awaits it, turns the answer into a verdict in a `match`, and returns the
 * verdict in a statement of several lines; the step that runs the call skips it on a refusal, then reaches the tool through two
 * helpers of its own (`_invoke_tool` → `tool.invoke` → `self.run`). The ask stands in front of
 * every tool. A helper that throws the answer away and always says "execute" stands in front of
 * none.
 */
const agent = (verdictReturned: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "coder"\nversion = "0.1.0"\n[project.scripts]\ncoder = "coder.cli:main"\n',
  'coder/__init__.py': '',
  'coder/tools.py': `import asyncio
from pathlib import Path


class BaseTool:
    name = ""
    description = ""

    async def invoke(self, **kwargs):
        async for item in self.run(**kwargs):
            yield item


class ShellTool(BaseTool):
    name = "shell"
    description = "Run a shell command in the project"

    async def run(self, command: str):
        proc = await asyncio.create_subprocess_shell(command, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        yield out.decode()


class WriteTool(BaseTool):
    name = "write_file"
    description = "Write a file"

    async def run(self, path: str, content: str):
        Path(path).write_text(content)
        yield "written"
`,
  'coder/loop.py': `import json

from openai import AsyncOpenAI

from coder.tools import ShellTool, WriteTool

client = AsyncOpenAI()


class AgentLoop:
    def __init__(self):
        self.tools = {t.name: t for t in (ShellTool(), WriteTool())}
        self.approval_callback = None
        self.messages = []

    def set_approval_callback(self, callback):
        self.approval_callback = callback

    async def _decide(self, name, args):
        if not self.approval_callback:
            return "skip"
        response = await self.approval_callback(name, args)
        match response:
            case "yes":
                verdict = "execute"
            case _:
                verdict = "skip"
        return dict(
            verdict=${verdictReturned},
            asked=True,
        )

    async def _should_execute_tool(self, tool, args):
        return await self._decide(tool.name, args)

    async def _invoke_tool(self, tool, args):
        out = []
        async for item in tool.invoke(**args):
            out.append(item)
        return "".join(out)

    async def _execute_tool_call(self, call):
        tool = self.tools[call.function.name]
        args = json.loads(call.function.arguments)
        decision = await self._should_execute_tool(tool, args)
        if decision["verdict"] == "skip":
            return "The user declined."
        return await self._invoke_tool(tool, args)

    async def chat(self, prompt):
        self.messages.append({"role": "user", "content": prompt})
        for _ in range(20):
            reply = await client.chat.completions.create(model="gpt-4o", messages=self.messages)
            message = reply.choices[0].message
            if not message.tool_calls:
                return message.content
            for call in message.tool_calls:
                result = await self._execute_tool_call(call)
                self.messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
`,
  'coder/cli.py': `import asyncio

from coder.loop import AgentLoop


async def ask_user(name, args):
    answer = input(f"Run {name} with {args}? [y/N] ")
    return "yes" if answer.strip().lower() == "y" else "no"


def main():
    loop = AgentLoop()
    loop.set_approval_callback(ask_user)
    while True:
        print(asyncio.run(loop.chat(input("> "))))
`,
});

const toolsOf = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const status = (tool: string) => report.agent!.tools.find((t) => t.name === tool)?.status;
  return { report, shell: status('shell'), write: status('write_file') };
};

describe('an approval callback the UI hands the loop', () => {
  it('gates every tool when the verdict it sets is what the helper returns', async () => {
    const { report, shell, write } = await toolsOf('approval-callback', agent('verdict'));
    expect(shell).toBe('gated');
    expect(write).toBe('gated');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('gates nothing when the helper always says execute, whatever the answer', async () => {
    const { report, shell, write } = await toolsOf('approval-callback-ignored', agent('"execute"'));
    expect(shell).toBe('ungated');
    expect(write).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
