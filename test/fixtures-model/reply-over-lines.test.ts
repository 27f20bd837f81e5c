import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A runner agent with no tool construct: the loop takes the model's reply, parses it in a call
 * whose argument is written on the line below (`const { command } = parseReply(⏎ reply,⏎ )`), and
 * hands the command to a function that runs it. The reply reaches the command: a code runner,
 * unasked. Parsed from a fixed string instead, nothing the model wrote runs.
 */
const files = (fromReply: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'pilot', version: '0.1.0', dependencies: { '@anthropic-ai/sdk': '^0.30.0' } }),
  'src/model.ts': `import Anthropic from '@anthropic-ai/sdk';

const anthropic = new Anthropic();

export async function nextStep(history: Anthropic.MessageParam[]) {
  const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: history });
  return message.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
`,
  'src/act.ts': `import { execSync } from 'node:child_process';

export function perform(command: string): string {
  return execSync(command, { encoding: 'utf8' });
}

export function parseReply(reply: string): { command: string } {
  return { command: reply.split('\\n')[0] ?? '' };
}
`,
  'src/main.ts': `import { nextStep } from './model.js';
import { parseReply, perform } from './act.js';

export async function run(goal: string) {
  const history = [{ role: 'user' as const, content: goal }];
  for (let step = 0; step < 20; step++) {
    const reply = await nextStep(history);
    const { command } = parseReply(
      ${fromReply ? 'reply' : "'echo done'"},
    );
    const output = perform(command);
    history.push({ role: 'user' as const, content: output });
  }
}
`,
});

const runners = async (name: string, fromReply: boolean) => {
  const report = await audit(writeTree(name, files(fromReply)), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.map((t) => [t.name, t.status, t.reaches]);
};

describe('a reply parsed in a call whose arguments are on the lines below', () => {
  it('still reaches the command it is handed to: a code runner, unasked', async () => {
    expect(await runners('pilot-reply', true)).toEqual([['perform', 'ungated', ['exec']]]);
  });

  it('is no runner where the parsed text is a literal of the code', async () => {
    expect(await runners('pilot-literal', false)).toEqual([]);
  });
});
