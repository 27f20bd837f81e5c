import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A browser agent's actions declared by their type as action definitions (`const Save:
 * ActionDefinition = { type, actionParams, run }`) are tools. What a handler's context parameter
 * holds (`ctx.debugDir`) is the harness's, not the model's: a write under it is the tool's own
 * write. A model call inside a tool (`client.chat.completions.create(…)`) creates nothing in a
 * remote service. A field of the parameters named `name` is an argument, not the tool's name.
 */
const files = (savePath: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'actions-agent', version: '0.1.0', main: 'src/agent.ts', dependencies: { openai: '^4.0.0', playwright: '^1.40.0' } }),
  'src/types.ts': `import type { Page } from 'playwright';

export interface ActionContext {
  page: Page;
  debugDir?: string;
}

export interface ActionDefinition<P = any> {
  type: string;
  actionParams: unknown;
  run(ctx: ActionContext, params: P): Promise<string>;
}
`,
  'src/actions.ts': `import fs from 'node:fs';
import OpenAI from 'openai';
import type { ActionContext, ActionDefinition } from './types';

const client = new OpenAI();

type SummarizeParams = { focus: string };
type SaveParams = { name: string; content: string };

export const SummarizeActionDefinition: ActionDefinition<SummarizeParams> = {
  type: 'summarize',
  actionParams: { focus: 'string' },
  run: async function (ctx: ActionContext, params: SummarizeParams): Promise<string> {
    const text = await ctx.page.innerText('body');
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: params.focus + text }] });
    return reply.choices[0]!.message.content ?? '';
  },
};

export const SaveActionDefinition: ActionDefinition<SaveParams> = {
  type: 'save',
  actionParams: { name: 'string', content: 'string' },
  run: async function (ctx: ActionContext, params: SaveParams): Promise<string> {
    fs.writeFileSync(${savePath}, await ctx.page.content());
    return 'saved';
  },
};

export const ACTIONS = [SummarizeActionDefinition, SaveActionDefinition];
`,
  'src/agent.ts': `import OpenAI from 'openai';
import { chromium } from 'playwright';
import { ACTIONS } from './actions';

export async function main(task: string): Promise<void> {
  const client = new OpenAI();

type SummarizeParams = { focus: string };
type SaveParams = { name: string; content: string };
  const page = await (await chromium.launch()).newPage();
  const ctx = { page, debugDir: process.env.DEBUG_DIR };
  for (let step = 0; step < 20; step++) {
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: task }] });
    const call = JSON.parse(reply.choices[0]!.message.content ?? '{}');
    const action = ACTIONS.find((a) => a.type === call.type);
    if (!action) return;
    await action.run(ctx, call.params);
  }
}
`,
});

async function tools(name: string, savePath: string) {
  const run = await auditDetailed(writeTree(name, files(savePath)), { rubricDir: RUBRIC, factsCache: false });
  return Object.fromEntries((run.report.agent?.tools ?? []).map((t) => [t.name, t.reaches]));
}

describe('action definitions declared by their type', () => {
  it('are tools; a model call in one reaches no remote state; a write under the context is the tool\'s own', async () => {
    expect(await tools('actions-ctx', '`${ctx.debugDir}/saved.txt`')).toEqual({ SummarizeActionDefinition: [], SaveActionDefinition: ['own-write'] });
  });

  it('a write to a path the model names is a write', async () => {
    expect((await tools('actions-param', 'params.name')).SaveActionDefinition).toEqual(['write']);
  });
});
