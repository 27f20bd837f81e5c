import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Python MCP server whose tool sets build records of the harness's own, one per tool, by keyword
 * (`ToolInfo(name="run_command", description=…, input_schema={…}, execute=self._run_command)`), and
 * whose call-tool handler runs the record's `execute` by name: each record is a tool, run by the
 * method its `execute` names.
 */
const files: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "opsbox"\nversion = "0.1.0"\ndependencies = ["mcp"]\n\n[project.scripts]\nopsbox = "opsbox.server:main"\n',
  'opsbox/__init__.py': '',
  'opsbox/base.py': `from dataclasses import dataclass
from typing import Any, Awaitable, Callable


@dataclass
class ToolInfo:
    name: str
    description: str
    input_schema: dict[str, Any]
    execute: Callable[[dict[str, Any]], Awaitable[str]]
`,
  'opsbox/shell_tools.py': `import subprocess
from pathlib import Path

from .base import ToolInfo


class ShellTools:
    def get_tools(self) -> dict[str, ToolInfo]:
        return {
            "run_command": ToolInfo(
                name="run_command",
                description="Run a shell command",
                input_schema={"type": "object", "properties": {"command": {"type": "string"}}},
                execute=self._run_command,
            ),
            "save_note": ToolInfo(
                name="save_note",
                description="Save a note to a file",
                input_schema={"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}},
                execute=self._save_note,
            ),
        }

    async def _run_command(self, args: dict) -> str:
        return subprocess.run(args["command"], shell=True, capture_output=True, text=True).stdout

    async def _save_note(self, args: dict) -> str:
        Path(args["path"]).write_text(args["text"])
        return "saved"
`,
  'opsbox/server.py': `from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.types import TextContent, Tool

from .shell_tools import ShellTools

server = Server("opsbox")
TOOLS = ShellTools().get_tools()


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name=t.name, description=t.description, inputSchema=t.input_schema) for t in TOOLS.values()]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    info = TOOLS[name]
    return [TextContent(type="text", text=await info.execute(arguments))]


async def run():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main():
    import asyncio

    asyncio.run(run())
`,
};

describe('tool records a harness builds by keyword, with the method that runs each', () => {
  it('offers each record as the tool its name says, reaching what its execute method does', async () => {
    const { tools, caps } = await auditTools('opsbox', files);
    expect(tools.run_command!.reaches).toContain('exec');
    expect(tools.save_note!.reaches).toContain('write');
    expect(caps).toContain('C2');
  });
});
