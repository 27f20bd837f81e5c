import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A LangChain agent with a file-writing tool and, where asked for, a shell tool, each behind an
 * ask of its own or not. What runs unasked beside what asks decides C2 B (some default path, or
 * actions that run with nobody asked) and whether the stores the shell sees are exposed (C6 C/D).
 * An MCP client-config snippet shipped where nothing launches servers enables nothing (C7 D).
 */
const ASK = (what: string) => `    if input(f"Allow {${what}}? [y/N] ").strip().lower() != "y":
        return "denied"
`;

const agent = (opts: { shell: boolean; askShell?: boolean; askWrite?: boolean }): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "jotter"\nversion = "0.1.0"\ndependencies = ["langchain-openai"]\n',
  'jotter/__init__.py': '',
  'jotter/main.py': `import subprocess

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI


@tool
def write_note(path: str, text: str) -> str:
    """Write text to a file."""
${opts.askWrite ? ASK('path') : ''}    with open(path, "w") as f:
        f.write(text)
    return "written"
${
  opts.shell
    ? `

@tool
def run_shell(command: str) -> str:
    """Run a shell command."""
${opts.askShell ? ASK('command') : ''}    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
`
    : ''
}

llm = ChatOpenAI(model="gpt-4o").bind_tools([write_note${opts.shell ? ', run_shell' : ''}])


def main():
    print(llm.invoke(input("> ")).content)


if __name__ == "__main__":
    main()
`,
});

const scored = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  return (id: string) => report.criteria.find((c) => c.id === id)!;
};

describe('what runs unasked beside what asks', () => {
  it('a file write the model makes with nothing asked anywhere is an irreversible action run by nobody asked (C2 B L0)', async () => {
    const c = await scored('unasked-write-only', agent({ shell: false }));
    expect(c('C2').levels.B).toBe(0);
  });

  it('the same write beside a shell that asks first is one default path that reaches one (C2 B L1)', async () => {
    const c = await scored('unasked-write-asked-shell', agent({ shell: true, askShell: true }));
    expect(c('C2').levels.B).toBe(1);
  });

});

describe('a shipped MCP client-config snippet', () => {
  const snippet = { 'mcp-config.json': '{"mcpServers": {"jotter": {"command": "uvx", "args": ["jotter"]}}}\n' };

  it('enables nothing where nothing launches, loads or installs third-party code (C7 D L2)', async () => {
    const c = await scored('catalog-no-launcher', { ...agent({ shell: false }), ...snippet });
    expect(c('C7').levels.D).toBe(2);
  });

  it('is still read as the catalog of a harness that launches MCP servers, with nothing saying its entries are off (C7 D L0)', async () => {
    const launcher = {
      'jotter/servers.py': `import json

from mcp import StdioServerParameters
from mcp.client.stdio import stdio_client


async def start_servers():
    with open("mcp-config.json") as f:
        servers = json.load(f)["mcpServers"]
    for name, spec in servers.items():
        params = StdioServerParameters(command=spec["command"], args=spec.get("args", []))
        async with stdio_client(params) as (read, write):
            yield name, read, write
`,
      'jotter/main.py': agent({ shell: false })['jotter/main.py']!.replace('import subprocess\n', 'import subprocess\n\nfrom jotter.servers import start_servers\n').replace('    print(llm.invoke(input("> ")).content)', '    servers = start_servers()\n    print(llm.invoke(input("> ")).content, servers)'),
    };
    const c = await scored('catalog-with-launcher', { ...agent({ shell: false }), ...snippet, ...launcher });
    expect(c('C7').levels.D).toBe(0);
  });
});
