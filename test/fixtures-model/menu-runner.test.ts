import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A TypeScript shell helper: the model's reply comes back through a destructured helper result
 * (`const { script, info } = await complete(…)`), and the script it holds runs through
 * `execaCommand` once the user picks "Yes" in a terminal prompt library's menu (`p.select`, the
 * namespace import of @clack/prompts). The runner is found only through the destructuring (no
 * `shell: true` marks the call as a host shell on its own); the menu is its gate. Without the menu
 * nothing asks, and a `select` on a database handle in a file that imports no prompt library is
 * no ask.
 */
const files = (gate: 'menu' | 'none' | 'db'): Record<string, string> => ({
  'package.json': '{ "name": "suggest", "version": "1.0.0", "bin": { "suggest": "dist/cli.js" } }\n',
  'src/complete.ts': `import OpenAI from 'openai';

const client = new OpenAI();

export async function complete(prompt: string) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] });
  const text = reply.choices[0].message.content ?? '';
  return { script: text, info: '' };
}
`,
  'src/cli.ts': `${gate === 'menu' ? "import * as p from '@clack/prompts';\n" : ''}import { execaCommand } from 'execa';
import { complete } from './complete.js';
${gate === 'db' ? "import { db } from './db.js';\n" : ''}
async function runScript(script: string) {
  await execaCommand(script, { stdio: 'inherit' });
}

async function runOrCancel(script: string) {
${
  gate === 'menu'
    ? `  const answer = await p.select({
    message: 'Run this script?',
    options: [
      { label: 'Yes', value: async () => { await runScript(script); } },
      { label: 'Cancel', value: () => process.exit(0) },
    ],
  });
  if (typeof answer === 'function') await answer();`
    : gate === 'db'
      ? `  const rows = await db.select({ from: 'history' });
  if (rows.length >= 0) await runScript(script);`
      : '  await runScript(script);'
}
}

export async function main(prompt: string) {
  const { script, info } = await complete(prompt);
  console.log(info);
  await runOrCancel(script);
}

main(process.argv[2]);
`,
  ...(gate === 'db' ? { 'src/db.ts': 'export const db = { select: async (q: object) => [q] };\n' } : {}),
});

const run = async (name: string, gate: 'menu' | 'none' | 'db') => {
  const report = await audit(writeTree(name, files(gate)), { rubricDir: RUBRIC, factsCache: false });
  const runner = report.agent!.tools.find((t) => t.name === 'runScript');
  return { runner, caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('a script from a destructured model reply, run after a terminal menu', () => {
  it('is a code runner gated by the menu: no C2 or C4 cap', async () => {
    const { runner, caps } = await run('menu-runner', 'menu');
    expect(runner).toMatchObject({ construct: 'code runner', reaches: ['exec'], gated: true });
    expect(runner!.paths[0]!.gate).toMatchObject({ site: { path: 'src/cli.ts' } });
    expect(caps).not.toContain('C2');
    expect(caps).not.toContain('C4');
  });

  it('runs ungated without the menu: the caps fire', async () => {
    const { runner, caps } = await run('menu-runner-none', 'none');
    expect(runner).toMatchObject({ reaches: ['exec'], gated: false });
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('takes a select on a database handle for no ask', async () => {
    const { runner, caps } = await run('menu-runner-db', 'db');
    expect(runner).toMatchObject({ reaches: ['exec'], gated: false });
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
