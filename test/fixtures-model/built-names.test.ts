import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Report } from '../../src/report/schema.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A desktop chat app whose main process answers RPC commands by method name (`handle_${command}`),
 * one of which encrypts the provider key with the OS keyring before the backend writes the result
 * to disk; and whose backend exposes database functions (`mutation({ args, handler })`) that its
 * own client calls. The keyring handler is live code (called by the name the dispatcher builds),
 * the encrypted file is no plain-text store, and the database functions are no model tools.
 */
const files = (dispatchByName: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'deskchat', version: '1.0.0', type: 'module', dependencies: { electron: '33.0.0', openai: '4.80.0', convex: '1.17.0' } }),
  'emain/rpc.ts': `import { safeStorage } from 'electron';

export class MainRpc {
  async handle_encrypt(data: { plaintext: string }): Promise<string> {
    return safeStorage.encryptString(data.plaintext).toString('base64');
  }
}

export async function answer(rpc: MainRpc, msg: { command: string; data: any }): Promise<unknown> {
${dispatchByName ? '  const method = `handle_${msg.command}`;\n  return (rpc as any)[method](msg.data);' : "  return msg.command;"}
}
`,
  'emain/main.ts': `import { writeFileSync } from 'node:fs';
import { answer, MainRpc } from './rpc.js';

const rpc = new MainRpc();

export async function saveSecrets(secretsPath: string, apiKey: string): Promise<void> {
  const encrypted = (await answer(rpc, { command: 'encrypt', data: { plaintext: apiKey } })) as string;
  writeFileSync(secretsPath, encrypted);
}
`,
  'convex/messages.ts': `import { mutation } from './_generated/server';
import { v } from 'convex/values';

export const setTitle = mutation({
  args: { chatId: v.id('chats'), title: v.string() },
  handler: async (ctx, args) => {
    await ctx.db.patch(args.chatId, { title: args.title });
  },
});
`,
  'src/chat.ts': `import OpenAI from 'openai';
import { saveSecrets } from '../emain/main.js';

const client = new OpenAI();

export async function chat(prompt: string): Promise<string> {
  await saveSecrets('secrets.enc', process.env.OPENAI_API_KEY ?? '');
  const res = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }] });
  return res.choices[0]?.message.content ?? '';
}

chat(process.argv[2] ?? '').then(console.log);
`,
});

const found = (report: Report, probe: string): boolean => report.criteria.some((c) => Object.values(c.dimensions).some((d) => d.evidence.some((e) => e.kind === 'lines' && e.probe === probe)));

describe('names the code builds, and what is no model tool', () => {
  it('counts a keyring call in a handler called by the name the dispatcher builds, and an encrypted file as no plain-text store', async () => {
    const report = await audit(writeTree('deskchat', files(true)), { rubricDir: RUBRIC, factsCache: false });
    expect(found(report, 'secrets.keyring')).toBe(true);
    expect(found(report, 'secrets.plaintext-store')).toBe(false);
    expect(report.criteria.find((c) => c.id === 'C8')!.levels.S).toBe(2);
  });

  it('does not count the keyring call where nothing calls its handler', async () => {
    const report = await audit(writeTree('deskchat', files(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(found(report, 'secrets.keyring')).toBe(false);
  });

  it('lists no database function of the app backend as a tool', async () => {
    const report = await audit(writeTree('deskchat', files(true)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => t.name)).not.toContain('setTitle');
  });
});
