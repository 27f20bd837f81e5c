import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server on the SDK's low-level API: its tools are built at start-up from an API
 * description, listed through `ListToolsRequestSchema`, and every call goes through one
 * `CallToolRequestSchema` handler that runs the operation, whatever its name.
 */
const server = (handler: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'spec-mcp', version: '1.0.0', bin: { 'spec-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadOperations, type Operation } from './spec.js';

const operations: Operation[] = loadOperations();
const server = new Server({ name: 'spec-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: operations.map((op) => ({ name: op.id, description: op.summary, inputSchema: op.schema })),
}));

${handler}

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
  'src/spec.ts': `export interface Operation { id: string; summary: string; method: string; path: string; schema: object }

export function loadOperations(): Operation[] {
  return [{ id: 'delete_page', summary: 'Deletes a page', method: 'DELETE', path: '/pages/{id}', schema: { type: 'object' } }];
}

export async function execute(op: Operation, args: Record<string, unknown>): Promise<unknown> {
  const url = 'https://api.example.com' + op.path.replace('{id}', String(args.id));
  const response = await fetch(url, { method: op.method, headers: { Authorization: 'Bearer ' + process.env.API_TOKEN } });
  return response.json();
}
`,
});

const generic = `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const op = operations.find((o) => o.id === request.params.name);
  if (!op) throw new Error('unknown tool');
  const result = await execute(op, request.params.arguments ?? {});
  return { content: [{ type: 'text', text: JSON.stringify(result) }] };
});`;

describe("an MCP server's low-level call-tool handler", () => {
  it('is the tool when it serves every listed tool alike, and reaches what the operation sends', async () => {
    const files = server(generic);
    files['src/index.ts'] = files['src/index.ts']!.replace('import { loadOperations', 'import { execute, loadOperations');
    const report = await audit(writeTree('spec-mcp', files), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.construct === 'call-tool-handler');
    expect(tool && { name: tool.name, reaches: tool.reaches, link: tool.site.link }).toEqual({ name: 'CallToolRequestSchema', reaches: ['net'], link: 'src/index.ts#L13-L18' });
  });

  it('is no tool of its own when it tells the tools apart by name (each case is one)', async () => {
    const handler = `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'delete_page': {
      const res = await fetch('https://api.example.com/pages/' + String(request.params.arguments?.id), { method: 'DELETE' });
      return { content: [{ type: 'text', text: await res.text() }] };
    }
    default:
      throw new Error('unknown tool');
  }
});`;
    const report = await audit(writeTree('spec-mcp-switch', server(handler)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => [t.name, t.construct])).toEqual([['delete_page', 'dispatch-branch']]);
  });

  it('is no tool of its own beside tools registered by name, to which it hands the calls on', async () => {
    const handler = `const mcp = new McpServer({ name: 'spec-mcp', version: '1.0.0' });
mcp.registerTool('delete_page', { description: 'Deletes a page' }, async (args: { id: string }) => {
  const res = await fetch('https://api.example.com/pages/' + args.id, { method: 'DELETE' });
  return { content: [{ type: 'text', text: await res.text() }] };
});
const existing = mcp.server.getHandler(CallToolRequestSchema);
server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
  const tool = operations.find((o) => o.id === request.params.name);
  request.params.arguments = tool ? { ...request.params.arguments, normalized: true } : request.params.arguments;
  return existing(request, extra);
});`;
    const files = server(handler);
    files['src/index.ts'] = "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n" + files['src/index.ts'];
    const report = await audit(writeTree('spec-mcp-wrap', files), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => [t.name, t.construct])).toEqual([['delete_page', 'registration-call']]);
  });
});
