import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Tool definitions whose code sits under `logic`, wrapped in adapters that take other settings
 * beside it (`logic: withToolAuth(['tool:repo:write'], createToolHandler(repoCommitLogic))`), and
 * registered in a loop by their fields. Each is a tool, and its handler is the function the
 * adapters are given. A handler that reaches its work only through a method of an injected
 * provider that several classes define (`provider.commit(…)`) reaches what the model cannot tell:
 * the tool is unresolved (not "reaches nothing"), and the Limitations say so.
 */
const files = (logic: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'repo-mcp', version: '1.0.0', bin: { 'repo-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { allTools } from './tools.js';

const server = new McpServer({ name: 'repo-mcp', version: '1.0.0' });
for (const tool of allTools) {
  server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, tool.logic);
}

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
  'src/wrappers.ts': `export function withToolAuth<T>(scopes: string[], fn: T): T {
  if (!scopes.length) throw new Error('no scope');
  return fn;
}
export function createToolHandler<T>(fn: T): T {
  return fn;
}
`,
  'src/providers/cli/provider.ts': `import { execFile } from 'node:child_process';

export class CliRepoProvider {
  commit(message: string): void {
    execFile('git', ['commit', '-m', message]);
  }
}
`,
  'src/providers/memory/provider.ts': `export class MemoryRepoProvider {
  commits: string[] = [];
  commit(message: string): void {
    this.commits.push(message);
  }
}
`,
  'src/audit/log.ts': `export class AuditLog {
  entries: string[] = [];
  commit(entry: string): void {
    this.entries.push(entry);
  }
}
`,
  'src/batch/batch.ts': `export class Batch {
  items: string[] = [];
  commit(item: string): void {
    this.items.push(item);
  }
}
`,
  'src/tools.ts': `import { z } from 'zod';
import { execFile } from 'node:child_process';
import { withToolAuth, createToolHandler } from './wrappers.js';

interface Deps { provider: { commit(message: string): void } }

${logic}

export const repoCommitTool = {
  name: 'repo_commit',
  description: 'Commit the staged changes',
  inputSchema: { message: z.string() },
  logic: withToolAuth(['tool:repo:write'], createToolHandler(repoCommitLogic)),
};

export const allTools = [repoCommitTool];
`,
});

const direct = `async function repoCommitLogic({ message }: { message: string }) {
  execFile('git', ['commit', '-m', message]);
  return { ok: true };
}`;

const injected = `async function repoCommitLogic({ message }: { message: string }, { provider }: Deps) {
  provider.commit(message);
  return { ok: true };
}`;

describe('tool definitions whose code sits under logic, wrapped in adapters', () => {
  it('is a tool whose handler is the function the adapters are given, and reaches what it runs', async () => {
    const report = await audit(writeTree('repo-mcp-logic', files(direct)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => ({ name: t.name, construct: t.construct, handler: t.handler?.name, reaches: t.reaches }))).toEqual([
      { name: 'repo_commit', construct: 'object-with-handler', handler: 'repoCommitLogic', reaches: ['spawn'] },
    ]);
  });

  it('a handler that works only through an injected provider many classes could be: unresolved, and said so', async () => {
    const report = await audit(writeTree('repo-mcp-injected', files(injected)), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'repo_commit')!;
    expect(tool.handler?.name).toBe('repoCommitLogic');
    expect(tool.status).toBe('unresolved');
    expect(tool.reaches).toEqual([]);
    expect(report.limitations.join('\n')).toMatch(/could not resolve what 1 tool or code runner reaches[^\n]*repo_commit/);
  });
});
