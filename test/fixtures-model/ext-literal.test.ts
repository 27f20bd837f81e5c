import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A call of an extension's tool is the model's only where the model picks the tool: a call that
 * names its tool with a literal (a status panel asking one server tool for its state) is the
 * harness's own, and no tool path of the model.
 */
describe('calls of extension tools', () => {
  it('counts the call whose tool the model picks, not one named by a literal', async () => {
    const dir = writeTree('mcp-client', {
      'package.json': '{ "name": "mcp-client", "type": "module", "dependencies": { "openai": "4.0.0", "@modelcontextprotocol/sdk": "1.17.0" } }\n',
      'src/agent.ts': [
        "import OpenAI from 'openai';",
        "import type { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        'const openai = new OpenAI();',
        'export async function turn(client: Client, messages: any[], tools: any[]) {',
        "  const res = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });",
        '  for (const call of res.choices[0].message.tool_calls ?? []) {',
        '    const result = await client.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) });',
        "    messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/status.ts': [
        "import type { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        'export async function refreshStatus(client: Client) {',
        "  return client.callTool({ name: 'server_status', arguments: {} });",
        '}',
        'export async function openFolder(client: Client, dir: string) {',
        "  await client.callTool('open_folder', { dir });",
        '}',
        '',
      ].join('\n'),
      'src/main.ts': [
        "import { turn } from './agent.js';",
        "import { openFolder, refreshStatus } from './status.js';",
        'export async function main(client: any) {',
        '  await refreshStatus(client);',
        "  await openFolder(client, '.');",
        '  await turn(client, [], []);',
        '}',
        'main(undefined);',
        '',
      ].join('\n'),
    });
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const calls = report.agent!.tools.filter((t) => t.reaches.includes('ext'));
    expect(calls.map((t) => [t.name, t.site.path])).toEqual([['turn', 'src/agent.ts']]);
  });
});
