import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * asyncio's `create_subprocess_exec` takes the program and its arguments spread out, so a command
 * line split from the model's text is handed over as `*cmd_args`: the model picks the program, as
 * `subprocess.run(cmd_args)` lets it. An argument list the function binds to a fixed program
 * (`["git", "status", path]`) starts only that program.
 */
const files = {
  'pyproject.toml': '[project]\nname = "kube"\nversion = "0.1.0"\ndependencies = ["mcp"]\n',
  'kube/__init__.py': '',
  'kube/server.py': `import asyncio
import shlex

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kube")


@mcp.tool()
async def execute_command(command: str) -> str:
    """Run a kubectl command."""
    if not command.startswith("kubectl"):
        return "only kubectl"
    cmd_args = shlex.split(command)
    process = await asyncio.create_subprocess_exec(*cmd_args, stdout=asyncio.subprocess.PIPE)
    out, _ = await process.communicate()
    return out.decode()


@mcp.tool()
async def repo_status(path: str) -> str:
    """Show the repository's status."""
    cmd_args = ["git", "-C", path, "status"]
    process = await asyncio.create_subprocess_exec(*cmd_args, stdout=asyncio.subprocess.PIPE)
    out, _ = await process.communicate()
    return out.decode()


if __name__ == "__main__":
    mcp.run()
`,
};

describe('a command line spread into create_subprocess_exec', () => {
  it('runs the program the model names; a fixed argument list starts its own program', async () => {
    const report = await audit(writeTree('kube', files), { rubricDir: RUBRIC, factsCache: false });
    const reaches = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.reaches]));
    expect(reaches).toEqual({ execute_command: ['exec'], repo_status: ['spawn'] });
    expect(report.criteria.find((c) => c.id === 'C4')!.cap).not.toBeNull();
  });
});
