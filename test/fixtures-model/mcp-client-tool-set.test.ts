import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A chat app with no tools of its own: it starts the MCP servers of its settings and hands the
 * model every tool they list, calling whichever the model names with nobody asked (through a bridge
 * the page is given, as a desktop app's renderer calls its main process: the call is not traced). No tool of the
 * app's own runs a command, writes a file or fetches, but the servers' tools are whatever they
 * offer: the default tool set is not one that only reads, and what they change, they change with
 * nobody asked (C2 B L0, as a host command run unasked). The servers themselves run on the host
 * as the user: the code the app starts reaches the host (C4 B L0).
 */
const CHAT = `import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';

const openai = new OpenAI();
const settings = JSON.parse(readFileSync('settings.json', 'utf8'));

export async function startServers() {
  const clients = [];
  for (const server of settings.mcpServers) {
    const client = new Client({ name: 'chat', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: server.command, args: server.args });
    await client.connect(transport);
    clients.push(client);
  }
  return clients;
}

export async function chat(prompt: string) {
  const clients = await startServers();
  const listed = await Promise.all(clients.map((c) => c.listTools()));
  const tools = listed.flatMap((l) => l.tools).map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  const messages: any[] = [{ role: 'user', content: prompt }];
  for (let step = 0; step < 10; step++) {
    const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
    const calls = reply.choices[0].message.tool_calls ?? [];
    if (!calls.length) return reply.choices[0].message.content;
    for (const call of calls) {
      const result = await (globalThis as any).bridge.invoke('mcp:call', call.function.name, call.function.arguments);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result.content) });
    }
  }
}

chat(process.argv[2] ?? 'hello');
`;

describe('an MCP client whose only tools are its servers\'', () => {
  it('reads the servers\' tools as actions that run with nobody asked, not as a tool set that only reads', async () => {
    const report = await audit(writeTree('mcp-client-tool-set', { 'package.json': '{"name":"mcp-chat","type":"module"}', 'src/chat.ts': CHAT }), { rubricDir: RUBRIC, factsCache: false });
    const c2 = report.criteria.find((c) => c.id === 'C2')!;
    const c3 = report.criteria.find((c) => c.id === 'C3')!;
    expect(c2.levels.B).toBe(0);
    // (and a hijacked session acts through them with no human: C5 B as C2 B)
    expect(report.criteria.find((c) => c.id === 'C5')!.levels.B).toBe(0);
    expect(c3.levels.D).toBeLessThan(3);
    expect(report.criteria.find((c) => c.id === 'C4')!.levels.B).toBe(0);
  });
});
