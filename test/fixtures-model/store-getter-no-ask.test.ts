import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A record read from a store (`approvalStore.getApproval(id)`) is no ask: nobody is waiting to
 * answer it, whatever the record is called. A function of the harness that requests the user's
 * approval (`requestApproval(…)`) is one.
 */
const server = (check: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'notes-mcp', version: '1.0.0', bin: { 'notes-mcp': 'dist/index.js' } }),
  'src/index.ts': `import { writeFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { approvalStore, requestApproval } from './approvals.js';

const server = new McpServer({ name: 'notes-mcp', version: '1.0.0' });

server.registerTool('save_note', { description: 'Save a note', inputSchema: { id: z.string(), path: z.string(), text: z.string() } }, async ({ id, path, text }) => {
  ${check}
  await writeFile(path, text);
  return { content: [{ type: 'text', text: 'saved' }] };
});
`,
  'src/approvals.ts': `import { readFileSync } from 'node:fs';
import * as readline from 'node:readline/promises';

export const approvalStore = {
  getApproval(id: string): { status: string } | undefined {
    return JSON.parse(readFileSync('approvals.json', 'utf8'))[id];
  },
};

export async function requestApproval(message: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question(message + ' [y/N] ');
  rl.close();
  return answer.trim().toLowerCase() === 'y';
}
`,
});

const status = async (name: string, check: string) =>
  (await audit(writeTree(name, server(check)), { rubricDir: RUBRIC, factsCache: false })).agent!.tools.find((t) => t.name === 'save_note')?.status;

describe('a check before a tool writes', () => {
  it('reading an approval record from a store asks no one: the write is ungated', async () => {
    expect(await status('store-getter', "if (approvalStore.getApproval(id)?.status !== 'approved') throw new Error('not approved');")).toBe('ungated');
  });

  it('requesting the user\'s approval is an ask: the write is gated', async () => {
    expect(await status('request-approval', "if (!(await requestApproval('Write ' + path + '?'))) throw new Error('denied');")).toBe('gated');
  });
});
