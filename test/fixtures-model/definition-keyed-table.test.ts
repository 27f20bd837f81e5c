import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server whose call handler looks tools up in a table keyed by each definition's own name
 * (`[fetchPageTool.name]: fetchPage`): every entry is a tool. Its name is the definition's `name`
 * where that is written in the same file, else the handler's; the call handler itself, which only
 * hands calls on, is no tool of its own.
 */
const files = (table: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'page-mcp', version: '1.0.0', bin: { 'page-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { tools, toolHandlers } from './tools.js';

const server = new Server({ name: 'page-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = toolHandlers[request.params.name];
  if (!handler) throw new Error('unknown tool');
  return handler(request.params.arguments);
});

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
  'src/fetchPage.ts': `export const fetchPageTool = {
  name: 'fetch_page',
  description: 'Fetch a web page',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
};

export async function fetchPage(args: { url: string }) {
  const response = await fetch(args.url);
  return { content: [{ type: 'text', text: await response.text() }] };
}
`,
  'src/tools.ts': `import { writeFile } from 'node:fs/promises';
import { fetchPageTool, fetchPage } from './fetchPage.js';

const saveNoteTool = {
  name: 'save_note',
  description: 'Save a note to a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } },
};

async function saveNote(args: { path: string; text: string }) {
  await writeFile(args.path, args.text);
  return { content: [{ type: 'text', text: 'saved' }] };
}

export const tools = [fetchPageTool, saveNoteTool];

${table}
`,
});

const tools = async (name: string, table: string) =>
  (await audit(writeTree(name, files(table)), { rubricDir: RUBRIC, factsCache: false })).agent!.tools.map((t) => ({ name: t.name, construct: t.construct, reaches: t.reaches }));

describe('a handler table keyed by tool definitions\' own names', () => {
  it('offers each entry as a tool, named by its definition where the file has it, else by its handler', async () => {
    expect(await tools('page-mcp', 'export const toolHandlers = {\n  [fetchPageTool.name]: fetchPage,\n  [saveNoteTool.name]: saveNote,\n};')).toEqual([
      { name: 'fetchPage', construct: 'dispatch-map', reaches: ['net'] },
      { name: 'save_note', construct: 'dispatch-map', reaches: ['write'] },
    ]);
  });

  it('keys computed otherwise name no tool: the call handler stands alone', async () => {
    const found = await tools('page-mcp-keys', 'const KEYS = { fetch: "fetch_page", save: "save_note" };\nexport const toolHandlers = {\n  [KEYS.fetch]: fetchPage,\n  [KEYS.save]: saveNote,\n};');
    expect(found.map((t) => t.construct)).toEqual(['call-tool-handler']);
  });
});
