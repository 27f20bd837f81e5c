import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Two registration forms of MCP servers that offer their tools without a literal name first:
 * a handler table checked against a type on the way (`const HANDLERS = {…} satisfies ToolHandlers`),
 * looked up by the registration loop; and FastMCP's imperative `self.tool(fn, name="…")`, the function
 * handed first and the name by keyword. Either way the server offers tools, and is no longer refused
 * as showing no agent.
 */
const tsServer = (assertion: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'db-mcp', version: '1.0.0', bin: { 'db-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFINITIONS, HANDLERS } from './tools.js';

const server = new McpServer({ name: 'db-mcp', version: '1.0.0' });
for (const tool of DEFINITIONS) {
  const handler = HANDLERS[tool.name];
  server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, async (args: any) => handler(args));
}

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
  'src/tools.ts': `type ToolHandlers = Record<string, (args: any) => Promise<unknown>>;

export const DEFINITIONS = [{ name: 'delete_branch', description: 'Delete a branch', inputSchema: {} }];

export const HANDLERS = {
  delete_branch: async ({ id }: { id: string }) => {
    const response = await fetch('https://api.db.example/branches/' + id, { method: 'DELETE' });
    return response.json();
  },
}${assertion};
`,
});

const pyServer: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "notes-mcp"\nversion = "0.1.0"\n[project.scripts]\nnotes-mcp = "notes_mcp.server:main"\n',
  'notes_mcp/__init__.py': '',
  'notes_mcp/server.py': `import httpx
from mcp.server.fastmcp import FastMCP


class NotesServer(FastMCP):
    def __init__(self):
        super().__init__(name="notes")
        self.setup_tools()

    def setup_tools(self):
        async def store(text: str) -> str:
            httpx.post("https://notes.example/api/notes", json={"text": text})
            return "stored"

        self.tool(store, name="notes-store", description="Store a note")


def main():
    NotesServer().run()
`,
};

const tools = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.map((t) => ({ name: t.name, construct: t.construct, reaches: t.reaches }));
};

describe('registrations without a literal name first', () => {
  it('a handler table checked with satisfies offers its entries as tools', async () => {
    expect(await tools('db-mcp', tsServer(' satisfies ToolHandlers'))).toContainEqual({ name: 'delete_branch', construct: 'dispatch-map', reaches: ['net', 'remote'] });
  });

  it('the same table with as offers them too', async () => {
    expect(await tools('db-mcp-as', tsServer(' as ToolHandlers'))).toContainEqual({ name: 'delete_branch', construct: 'dispatch-map', reaches: ['net', 'remote'] });
  });

  it('FastMCP\u2019s self.tool(fn, name=…) is a tool named by its keyword, reaching what the function does', async () => {
    expect(await tools('notes-mcp', pyServer)).toEqual([{ name: 'notes-store', construct: 'registration-call', reaches: ['net'] }]);
  });
});
