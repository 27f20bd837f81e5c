import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A tool whose description is spread in from a table of definitions and whose handler is written
 * beside it, given to a helper named for tools (`run_sql: wrapTool({ ...defs.run_sql, execute })`),
 * is a tool named by the key it is bound to. The same object given to any other call is not. A
 * typed HTTP client's mutating verb (`await client.POST(…)`) changes the remote service's state;
 * its GET reads.
 */
const server = (wrapper: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'spread-tools', version: '1.0.0', main: 'src/server.ts', dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' } }),
  'src/defs.ts': `export const toolDefs = {\n  run_sql: { description: 'Run SQL against the project database', parameters: {} },\n  list_tables: { description: 'List the tables', parameters: {} },\n};\n`,
  'src/api.ts': `import createClient from 'openapi-fetch';

const client = createClient({ baseUrl: 'https://api.example.com' });

export const api = {
  async runSql(project: string, query: string) {
    const res = await client.POST('/v1/projects/{ref}/sql', { params: { path: { ref: project } }, body: { query } });
    return res.data;
  },
  async listTables(project: string) {
    const res = await client.GET('/v1/projects/{ref}/tables', { params: { path: { ref: project } } });
    return res.data;
  },
};
`,
  'src/tools.ts': `import { api } from './api';
import { toolDefs } from './defs';

export function ${wrapper}<T>(definition: T): T {
  return definition;
}

export function projectTools(project: string) {
  return {
    run_sql: ${wrapper}({
      ...toolDefs.run_sql,
      execute: async ({ query }: { query: string }) => api.runSql(project, query),
    }),
    list_tables: ${wrapper}({
      ...toolDefs.list_tables,
      execute: async () => api.listTables(project),
    }),
  };
}
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { projectTools } from './tools';

const server = new McpServer({ name: 'spread-tools', version: '1.0.0' });
for (const [name, tool] of Object.entries(projectTools(process.env.PROJECT_REF ?? ''))) {
  server.registerTool(name, { description: tool.description }, tool.execute as never);
}
`,
});

async function toolsOf(name: string, wrapper: string) {
  const run = await auditDetailed(writeTree(name, server(wrapper)), { rubricDir: RUBRIC, factsCache: false, force: true });
  const tools = Object.fromEntries((run.report.agent?.tools ?? []).filter((t) => t.construct === 'object-with-handler').map((t) => [t.name, t.reaches]));
  return { tools, cap: run.report.criteria.find((c) => c.id === 'C2')!.cap };
}

describe('tools whose definitions are spread in', () => {
  it('are found by the key they are bound to, with what their handlers reach', async () => {
    const o = await toolsOf('spread-tools', 'injectableTool');
    expect(o.tools).toEqual({ run_sql: ['remote'], list_tables: [] });
    // run_sql changes the service's state with nobody asked.
    expect(o.cap).toBe(0.25);
  });

  it('given to a helper not named for tools, the objects are no tools', async () => {
    expect((await toolsOf('spread-memo', 'memoize')).tools).toEqual({});
  });
});
