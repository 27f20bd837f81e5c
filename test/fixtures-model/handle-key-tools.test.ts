import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server whose tools are objects holding their schema and a `handle` function (the shape
 * Playwright-style servers use), registered in a loop under each schema's name: each object is a
 * tool, run by its `handle`.
 */
describe('a tool object whose code is under `handle`', () => {
  it('is a tool, named by its spec, that reaches what its handle does', async () => {
    const dir = writeTree('handle-mcp', {
      'package.json': JSON.stringify({ name: 'handle-mcp', version: '1.0.0', bin: { 'handle-mcp': 'dist/index.js' } }),
      'src/tools/save.ts': `import { writeFile } from 'node:fs/promises';
import { z } from 'zod';

const SaveInput = z.object({ path: z.string(), text: z.string() });

export const saveTool = {
  capability: 'core',
  schema: { name: 'save_note', description: 'Saves a note to a file', inputSchema: SaveInput },
  handle: async (_context: unknown, params: z.infer<typeof SaveInput>) => {
    await writeFile(params.path, params.text);
    return { content: [{ type: 'text', text: 'saved' }] };
  },
};
`,
      'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { saveTool } from './tools/save.js';

const server = new McpServer({ name: 'handle-mcp', version: '1.0.0' });
for (const tool of [saveTool]) {
  server.tool(tool.schema.name, tool.schema.description, tool.schema.inputSchema.shape, async (params) => tool.handle(undefined, params));
}
await server.connect(new StdioServerTransport());
`,
    });
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.construct === 'object-with-handler');
    expect(tool && { name: tool.name, reaches: tool.reaches, gated: tool.gated }).toEqual({ name: 'save_note', reaches: ['write'], gated: false });
  });
});
