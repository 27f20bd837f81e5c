import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A browser extension agent whose tools act through a DevTools-protocol wrapper of its own: a
 * click is `sendCommand('Input.dispatchMouseEvent', {…})`, typing `sendCommand('Input.insertText',
 * …)`, and the wrapper hands the method on to `chrome.debugger.sendCommand`. Those tools drive the
 * browser (a click or keystroke the model chooses, unasked); the one that only reads the page does not.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tab-pilot', version: '1.0.0', dependencies: { '@anthropic-ai/sdk': '0.30.0' } }),
  'manifest.json': JSON.stringify({ manifest_version: 3, name: 'Tab Pilot', version: '1.0.0', permissions: ['debugger', 'tabs'], background: { service_worker: 'dist/background.js' } }),
  'src/cdp.ts': `let attached: number | null = null;

export async function attach(tabId: number): Promise<void> {
  if (attached === tabId) return;
  await chrome.debugger.attach({ tabId }, '1.3');
  attached = tabId;
}

export async function sendCommand<T>(method: string, params?: object): Promise<T> {
  return (await chrome.debugger.sendCommand({ tabId: attached! }, method, params)) as T;
}
`,
  'src/tools.ts': `import { attach, sendCommand } from './cdp';

export async function executeTool(tabId: number, name: string, input: Record<string, unknown>): Promise<string> {
  await attach(tabId);
  switch (name) {
    case 'click': {
      const x = input.x as number;
      const y = input.y as number;
      await sendCommand('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
      await sendCommand('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
      return 'clicked';
    }
    case 'type_text': {
      await sendCommand('Input.insertText', { text: input.text as string });
      return 'typed';
    }
    case 'read_title': {
      const tab = await chrome.tabs.get(tabId);
      return tab.title ?? '';
    }
    default:
      return 'unknown tool';
  }
}
`,
  'src/background.ts': `import Anthropic from '@anthropic-ai/sdk';
import { executeTool } from './tools';

const client = new Anthropic({ apiKey: 'set-in-options', dangerouslyAllowBrowser: true });
const tools = [
  { name: 'click', description: 'Click at a point', input_schema: { type: 'object' as const, properties: { x: { type: 'number' }, y: { type: 'number' } } } },
  { name: 'type_text', description: 'Type text', input_schema: { type: 'object' as const, properties: { text: { type: 'string' } } } },
  { name: 'read_title', description: 'Read the tab title', input_schema: { type: 'object' as const, properties: {} } },
];

chrome.runtime.onMessage.addListener(async (message: { tabId: number; task: string }) => {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: message.task }];
  for (let step = 0; step < 30; step++) {
    const reply = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, tools, messages });
    const calls = reply.content.filter((c): c is Anthropic.ToolUseBlock => c.type === 'tool_use');
    if (!calls.length) break;
    messages.push({ role: 'assistant', content: reply.content });
    const results = [];
    for (const call of calls) results.push({ type: 'tool_result' as const, tool_use_id: call.id, content: await executeTool(message.tabId, call.name, call.input as Record<string, unknown>) });
    messages.push({ role: 'user', content: results });
  }
});
`,
};

describe("a browser agent's tools acting through a DevTools-protocol wrapper", () => {
  it('drive the browser with nobody asked where they send input events', async () => {
    const report = await audit(writeTree('tab-pilot', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t]));
    expect(tools.click?.reaches).toContain('browse');
    expect(tools.type_text?.reaches).toContain('browse');
    expect(tools.click?.status).toBe('ungated');
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.B).toBe(0);
  });
});
