import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Python MCP server whose tool calls a module it imports from its package under another name (`from
 * agentpkg.ops import shell as shell_ops`, `shell_ops.run(command)`): the call runs that module's
 * function, and the tool reaches its command. A class of the repository with a method of the same
 * name (`Recorder.run`) is not what runs.
 */
const files = (alias: boolean): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "agentpkg"\nversion = "0.1.0"\ndependencies = ["mcp"]\n\n[project.scripts]\nagentpkg = "agentpkg.main:main"\n',
  'agentpkg/__init__.py': '',
  'agentpkg/ops/__init__.py': '',
  'agentpkg/ops/shell.py': `import subprocess


def run(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
`,
  'agentpkg/recorder.py': `class Recorder:
    def __init__(self):
        self.lines = []

    def run(self, line):
        self.lines.append(line)
        return line
`,
  'agentpkg/main.py': `from mcp.server.fastmcp import FastMCP

${alias ? 'from agentpkg.ops import shell as shell_ops' : 'from agentpkg.ops import shell'}
from agentpkg.recorder import Recorder

mcp = FastMCP("agentpkg")
recorder = Recorder()


@mcp.tool()
def run_shell(command: str) -> str:
    """Run a shell command."""
    out = ${alias ? 'shell_ops' : 'shell'}.run(command)
    recorder.run(out)
    return out


def main():
    mcp.run()
`,
});

describe.each([
  ['imported under another name', true],
  ['imported under its own name', false],
])('a tool that calls a module %s', (_how, alias) => {
  it('reaches the command the module runs, unasked', async () => {
    const { tools, caps } = await auditTools('aliased-module', files(alias));
    expect(tools.run_shell?.reaches, Object.keys(tools).join(', ')).toContain('exec');
    expect(tools.run_shell!.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});
