import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A browser the model drives clicks and types on the user's sessions: with nobody asked, an
 * irreversible action (a purchase, a sent message) runs as a host command would, so C2 B is L0
 * even where no command runs. A browser extension acts by injecting a script into the page. Asked
 * first, the same tool leaves C2 B above L0.
 */
const agent = (ask: boolean, act: string): Record<string, string> => ({
  'package.json': '{"name":"clicker","version":"1.0.0","bin":{"clicker":"dist/index.js"},"dependencies":{"ai":"4.0.0","playwright":"1.50.0"}}',
  'src/index.ts': `import { createInterface } from 'node:readline/promises';
import { generateText, tool } from 'ai';
import { chromium, type Page } from 'playwright';
import { z } from 'zod';

async function approved(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(question + ' [y/N] ');
  rl.close();
  return answer.trim().toLowerCase() === 'y';
}

export function tools(page: Page, tabId: number) {
  return {
    click: tool({
      description: 'click an element',
      parameters: z.object({ selector: z.string() }),
      execute: async ({ selector }) => {
        ${ask ? "if (!(await approved(`Click ${selector}?`))) return 'declined';" : ''}
        ${act}
        return 'done';
      },
    }),
  };
}

export async function main(prompt: string) {
  const browser = await chromium.launch();
  const page = await browser.newPage();
  return generateText({ model: 'openai/gpt-4o', prompt, tools: tools(page, 1), maxSteps: 5 });
}
`,
});

async function outcome(name: string, ask: boolean, act: string) {
  const run = await auditDetailed(writeTree(name, agent(ask, act)), { rubricDir: RUBRIC, factsCache: false });
  return {
    B: run.report.criteria.find((c) => c.id === 'C2')!.levels.B,
    ungated: run.results.get('model.browse-ungated')!.findings.map((f) => `${f.path}:${f.startLine}`),
    dispatches: run.model!.dispatches.length,
  };
}

describe('a browser the model drives', () => {
  it('clicks with nobody asked: C2 B L0, cited at the click', async () => {
    const o = await outcome('browse-unasked', false, 'await page.click(selector);');
    expect(o.ungated).toEqual(['src/index.ts:20']);
    expect(o.B).toBe(0);
    // The AI SDK's `tool({…})`, imported, defines the tool: it dispatches nothing.
    expect(o.dispatches).toBe(0);
  });

  it('injects a script into the tab with nobody asked (a browser extension): the same', async () => {
    const o = await outcome('browse-extension', false, 'await chrome.scripting.executeScript({ target: { tabId }, func: (s: string) => (document.querySelector(s) as HTMLElement).click(), args: [selector] });');
    expect(o.ungated).toEqual(['src/index.ts:20']);
    expect(o.B).toBe(0);
  });

  it('asks first: nothing the browser does runs unasked, and C2 B is above L0', async () => {
    const o = await outcome('browse-asked', true, 'await page.click(selector);');
    expect(o.ungated).toEqual([]);
    expect(o.B).toBeGreaterThan(0);
  });
});
