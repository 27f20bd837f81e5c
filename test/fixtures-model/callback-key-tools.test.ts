import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Tool objects whose code sits under `cb` (`{ name, description, paramsSchema, cb }`), registered in
 * a loop by a call whose arguments are the objects' fields (`server.tool(t.name, …, t.cb)`): each
 * object is a tool, and reaches what its callback does.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'docs-mcp', version: '1.0.0', bin: { 'docs-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { getTools } from './tools.js';

const server = new McpServer({ name: 'docs-mcp', version: '1.0.0' });
for (const t of getTools()) {
  server.tool(t.name, t.description, t.paramsSchema, t.cb);
}

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
  'src/tools.ts': `import { z } from 'zod';

export function getTools() {
  return [
    {
      name: 'fetch_docs',
      description: 'Fetch the documentation page at a URL',
      paramsSchema: { url: z.string() },
      cb: async ({ url }: { url: string }) => ({ content: [{ type: 'text', text: await (await fetch(url)).text() }] }),
    },
  ];
}
`,
};

describe('a tool object whose code sits under cb', () => {
  it('is a tool, and reaches what its callback does', async () => {
    const report = await audit(writeTree('docs-mcp', files), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => ({ name: t.name, construct: t.construct, reaches: t.reaches }))).toEqual([{ name: 'fetch_docs', construct: 'object-with-handler', reaches: ['net'] }]);
  });
});
