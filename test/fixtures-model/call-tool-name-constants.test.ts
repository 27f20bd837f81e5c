import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * An MCP server on the SDK's low-level API whose call-tool handler switches on the requested name
 * and names each case by a constant of its tool definitions (`case shellToolNames.runCommand:`), as
 * the listed definitions do (`name: shellToolNames.runCommand`): each case is a tool, named by the
 * string the constant holds.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'ops-mcp', version: '1.0.0', bin: { 'ops-mcp': 'dist/index.js' }, dependencies: { '@modelcontextprotocol/sdk': '1.17.0' } }),
  'src/tools/shell-tool-definitions.ts': `export const shellToolNames = {
  runCommand: "run_command",
  writeNote: "write_note",
};

export const shellToolDefinitions = [
  { name: shellToolNames.runCommand, description: "Run a shell command", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
  { name: shellToolNames.writeNote, description: "Write a note", inputSchema: { type: "object", properties: { path: { type: "string" }, text: { type: "string" } } } },
];
`,
  'src/index.ts': `import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { shellToolDefinitions, shellToolNames } from './tools/shell-tool-definitions.js';

const server = new Server({ name: 'ops-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: shellToolDefinitions }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = (request.params.arguments ?? {}) as Record<string, string>;
  switch (request.params.name) {
    case shellToolNames.runCommand:
      return { content: [{ type: 'text', text: execSync(args.command).toString() }] };
    case shellToolNames.writeNote:
      writeFileSync(args.path, args.text);
      return { content: [{ type: 'text', text: 'written' }] };
    default:
      throw new Error('unknown tool');
  }
});

await server.connect(new StdioServerTransport());
`,
};

describe('an MCP call-tool switch whose cases name tools by constants', () => {
  it('offers each case as the tool the constant names', async () => {
    const { tools, caps } = await auditTools('ops-mcp', files);
    expect(tools.run_command!.reaches).toContain('exec');
    expect(tools.write_note!.reaches).toContain('write');
    expect(caps).toContain('C2');
  });
});
