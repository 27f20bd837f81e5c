import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C7 B for a harness with no extension mechanism: where the model cannot run a command on the host
 * either, the only third-party code that runs is the harness's own dependencies, as the user
 * (L1). Give the model a host shell and it can install and run any package itself (L0).
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

const c7b = async (name: string, tool: string) => (await audit(writeTree(name, server(tool)), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C7')!.levels.B;

describe('third-party code a harness with no extension mechanism runs', () => {
  it('is its own dependencies, as the user, where the model has no host shell (C7 B L1)', async () => {
    expect(await c7b('no-ext-no-shell', NOTE)).toBe(1);
  });

  it('is anything the model installs through a host shell (C7 B L0)', async () => {
    expect(await c7b('no-ext-shell', SHELL)).toBe(0);
  });
});
