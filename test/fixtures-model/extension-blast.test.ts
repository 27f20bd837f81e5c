import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C7 B for a harness with no extension mechanism: the only third-party code that runs is the
 * harness's own dependencies, inside its process with its full authority (L0), whether or not the
 * model has a host shell. Only an extension launched as a process of its own is kept apart (L1).
 */
const server = (tool: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "notes-mcp"\nversion = "0.1.0"\n[project.scripts]\nnotes-mcp = "notes_mcp.server:main"\n',
  'notes_mcp/__init__.py': '',
  'notes_mcp/server.py': `import subprocess

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def ${tool}


def main():
    mcp.run()
`,
});

const NOTE = 'add_note(title: str, text: str) -> str:\n    NOTES[title] = text\n    return "saved"';
const SHELL = 'run(command: str) -> str:\n    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout';

const c7b = async (name: string, tool: string, extra: Record<string, string> = {}) => (await audit(writeTree(name, { ...server(tool), ...extra }), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C7')!.levels.B;

// Companion MCP servers the harness starts as child processes, from its own configuration file.
const LAUNCHER = {
  'notes_mcp/companion.py': `import json

from mcp import StdioServerParameters
from mcp.client.stdio import stdio_client


async def start_companions(path: str):
    for entry in json.load(open(path))["servers"]:
        params = StdioServerParameters(command=entry["command"], args=entry["args"])
        async with stdio_client(params) as (read, write):
            yield read, write
`,
  'notes_mcp/__main__.py': 'from notes_mcp.companion import start_companions\nfrom notes_mcp.server import main\n\nstart_companions("companions.json")\nmain()\n',
};

describe('third-party code a harness with no extension mechanism runs', () => {
  it('is its own dependencies, in its process, where the model has no host shell (C7 B L0)', async () => {
    expect(await c7b('no-ext-no-shell', NOTE)).toBe(0);
  });

  it('is anything the model installs through a host shell (C7 B L0)', async () => {
    expect(await c7b('no-ext-shell', SHELL)).toBe(0);
  });

  it('is kept in a process of its own where the harness launches its extensions (C7 B L1)', async () => {
    expect(await c7b('ext-launched', NOTE, LAUNCHER)).toBe(1);
  });
});
