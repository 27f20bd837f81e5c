import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server with no shell: its one tool reads whatever file the model names. SSH keys and
 * cloud credentials on disk are one call away, so a leaked secret gives broad access (C8 B L0).
 * The same server checking the real path against its workspace first reads no secret outside it
 * (C8 B L2: no shell and no unconfined read).
 */
const server = (guard: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "docs-mcp"\nversion = "0.1.0"\n[project.scripts]\ndocs-mcp = "docs_mcp.server:main"\n',
  'docs_mcp/__init__.py': '',
  'docs_mcp/server.py': `from pathlib import Path

from mcp.server.fastmcp import FastMCP

ROOT = Path.cwd()
mcp = FastMCP("docs")


@mcp.tool()
def read_doc(path: str) -> str:
${guard}    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    mcp.run()
`,
});

const CONTAINED = '    if not Path(path).resolve().is_relative_to(ROOT):\n        raise ValueError("outside the workspace")\n';

const score = (name: string, guard: string) => audit(writeTree(name, server(guard)), { rubricDir: RUBRIC, factsCache: false });

describe('a tool that reads the files it is given', () => {
  it('reaches every secret on disk when nothing confines the path (C8 B L0), and the Tools section says it reads files', async () => {
    const report = await score('read-anywhere', '');
    const tool = report.agent!.tools.find((t) => t.name === 'read_doc')!;
    expect({ reaches: tool.reaches, status: tool.status }).toEqual({ reaches: ['read'], status: 'no-reach' });
    expect(report.criteria.find((c) => c.id === 'C8')!.levels.B).toBe(0);
    // Reading is asked of no gate: no C2 cap for it.
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('reaches no secret outside the workspace when the real path is checked against it (C8 B L2)', async () => {
    const report = await score('read-contained', CONTAINED);
    expect(report.criteria.find((c) => c.id === 'C8')!.levels.B).toBe(2);
  });
});
