import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server that registers each tool under a name constant imported from the tool's module
 * (`server.tool(runCommandToolName, runCommandToolDescription, schema, runCommandTool)`), or an
 * entry of a table of names (`TOOL_NAMES.FETCH`), as many servers do. Each is a tool, called by the
 * constant's value; the shell one runs the model's command with nobody asked (C2 cap). A
 * registration helper handed the name by its callers names no tool of its own.
 */
const files = (register: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'ops-mcp', version: '1.0.0', bin: { 'ops-mcp': 'dist/server.js' } }),
  'src/tools/run-command.ts': `import { execSync } from 'node:child_process';

export const runCommandToolName = 'run_command';
export const runCommandToolDescription = 'Run a shell command';

export async function runCommandTool(params: { command: string }) {
  return { content: [{ type: 'text', text: execSync(params.command).toString() }] };
}
`,
  'src/tools/names.ts': `export const TOOL_NAMES = {
  FETCH: 'fetch_page',
};
`,
  'src/tools/fetch-page.ts': `export async function fetchPageTool(params: { url: string }) {
  const response = await fetch(params.url);
  return { content: [{ type: 'text', text: await response.text() }] };
}
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { runCommandTool, runCommandToolDescription, runCommandToolName } from './tools/run-command.js';
import { fetchPageTool } from './tools/fetch-page.js';
import { TOOL_NAMES } from './tools/names.js';

const server = new McpServer({ name: 'ops-mcp', version: '1.0.0' });
${register}

async function main() {
  await server.connect(new StdioServerTransport());
}
main();
`,
});

const direct = `server.tool(runCommandToolName, runCommandToolDescription, { command: z.string() }, runCommandTool);
server.tool(TOOL_NAMES.FETCH, 'Fetch a page', { url: z.string() }, fetchPageTool);`;

const helper = `const register = (name: string, description: string, handler: (p: any) => Promise<unknown>) => {
  server.tool(name, description, {}, handler);
};
register(runCommandToolName, runCommandToolDescription, runCommandTool);`;

describe('a registration named by a constant', () => {
  it('offers each tool under the constant value; the shell runs unasked (C2 cap)', async () => {
    const report = await audit(writeTree('ops-mcp', files(direct)), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.map((t) => ({ name: t.name, construct: t.construct, status: t.status }));
    expect(tools).toContainEqual({ name: 'run_command', construct: 'registration-call', status: 'ungated' });
    expect(tools.map((t) => t.name)).toContain('fetch_page');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('reads a name from a table itself named as a constant, whatever its keys (`WORK_TOOLS.run_command`)', async () => {
    const tree = files(`server.tool(WORK_TOOLS.run_command, runCommandToolDescription, { command: z.string() }, runCommandTool);`);
    tree['src/server.ts'] = tree['src/server.ts']!.replace("const server = new McpServer", "const WORK_TOOLS = {\n  run_command: 'run_command',\n  fetch_page: 'fetch_page',\n};\n\nconst server = new McpServer");
    const report = await audit(writeTree('ops-mcp-table', tree), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => ({ name: t.name, status: t.status }))).toContainEqual({ name: 'run_command', status: 'ungated' });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('a helper that is handed the name registers no tool called by its parameter', async () => {
    const report = await audit(writeTree('ops-mcp-helper', files(helper)), { rubricDir: RUBRIC, factsCache: false, force: true });
    expect((report.agent?.tools ?? []).filter((t) => t.construct === 'registration-call').map((t) => t.name)).toEqual([]);
  });
});
