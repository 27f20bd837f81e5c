import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A harness with a tool type of its own, built with its name, its spec and its function by keyword
 * (`AgentTool(name="bash", description=…, parameters=…, execute=execute_bash)`). The loop asks the
 * user before it calls `tool.execute(…)`; the write tool hands its file work to a thread
 * (`asyncio.to_thread(_write_file, path, content)`), which is where the file is written. Without
 * the ask, both run with nobody asked (C2 cap). Each tool declares a tier (`approval_tier="exec"`);
 * an ask taken only for some tiers (`if tool.approval_tier in ("write", "exec")`) leaves a tool of
 * another tier unasked: the write tool, declared "read" (C2 cap).
 */
const files = (ask: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "tbot"\nversion = "0.1.0"\ndependencies = ["openai", "pydantic"]\n\n[project.scripts]\ntbot = "tbot.main:main"\n',
  'tbot/__init__.py': '',
  'tbot/types.py': `from typing import Any, Callable

from pydantic import BaseModel


class AgentTool(BaseModel):
    name: str
    description: str = ""
    parameters: dict[str, Any] = {}
    approval_tier: str = "exec"
    execute: Callable[..., Any]
`,
  'tbot/tools.py': `import asyncio
import subprocess
from pathlib import Path

from tbot.types import AgentTool


async def execute_bash(args: dict) -> str:
    return subprocess.run(args["command"], shell=True, capture_output=True, text=True).stdout


def _write_file(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")


async def execute_write(args: dict) -> str:
    path = Path(args["path"])
    await asyncio.to_thread(_write_file, path, args["content"])
    return f"wrote {path}"


def build_tools() -> list[AgentTool]:
    return [
        AgentTool(name="bash", description="Run a shell command", parameters={"command": {"type": "string"}}, approval_tier="exec", execute=execute_bash),
        AgentTool(name="write", description="Write a file", parameters={"path": {"type": "string"}, "content": {"type": "string"}}, approval_tier="read", execute=execute_write),
    ]
`,
  'tbot/main.py': `import asyncio
import json
import sys

from openai import AsyncOpenAI

from tbot.tools import build_tools


async def request_approval(name: str, summary: str) -> bool:
    answer = await asyncio.to_thread(input, f"Run {name}: {summary}? [y/N] ")
    return answer.strip().lower() == "y"


async def run_call(tools: dict, call) -> str:
    tool = tools[call.function.name]
    args = json.loads(call.function.arguments)
${ask}
    return await tool.execute(args)


async def loop(prompt: str) -> None:
    client = AsyncOpenAI()
    tools = {t.name: t for t in build_tools()}
    specs = [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": {"type": "object", "properties": t.parameters}}} for t in tools.values()]
    messages = [{"role": "user", "content": prompt}]
    for _ in range(20):
        reply = await client.chat.completions.create(model="gpt-4o", messages=messages, tools=specs)
        message = reply.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            print(message.content)
            return
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": await run_call(tools, call)})


def main() -> None:
    asyncio.run(loop(sys.argv[1]))
`,
});

const ASKS = '    approved = await request_approval(call.function.name, json.dumps(args))\n    if not approved:\n        return "denied by the user"';

const run = (name: string, ask: string) => auditTools(name, files(ask));

describe("a harness's own tool type handed its function by keyword", () => {
  it('is a tool; the ask before `tool.execute(…)` gates it, and a write handed to a thread is reached', async () => {
    const { tools, caps } = await run('tbot', ASKS);
    expect(tools['bash']?.reaches).toEqual(['exec']);
    expect(tools['write']?.reaches).toEqual(['write']);
    expect(tools['bash']?.status).toBe('gated');
    expect(tools['write']?.status).toBe('gated');
    expect(caps).not.toContain('C2');
  });

  it('an ask taken only for some declared tiers leaves a tool of another tier unasked: C2 cap', async () => {
    const { tools, caps } = await run('tbot-tiers', '    if tool.approval_tier in ("write", "exec"):\n        approved = await request_approval(call.function.name, json.dumps(args))\n        if not approved:\n            return "denied by the user"');
    expect(tools['bash']?.status).toBe('gated');
    expect(tools['write']?.status).toBe('ungated');
    expect(caps).toContain('C2');
  });

  it('without the ask, both run with nobody asked: C2 cap', async () => {
    const { tools, caps } = await run('tbot-open', '    pass');
    expect(tools['bash']?.status).toBe('ungated');
    expect(tools['write']?.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});
