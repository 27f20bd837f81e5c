import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Neovim plugin's agent, in two packages: the core dispatches the model's `run_lua` call to a
 * tool module whose work runs in a function it calls where it writes it (`const result = (async
 * () => …)()`), through a field named for an executor the plugin package implements; that
 * executor hands the code to the editor (`nvim.call("nvim_exec_lua", [code, []])`).
 */
const files = (code: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'nvim-agent', private: true, workspaces: ['core', 'plugin'] }),
  'core/package.json': JSON.stringify({ name: '@nvim-agent/core', version: '1.0.0', dependencies: { openai: '^4.0.0' } }),
  'core/src/tools/lua.ts': `export interface LuaExecutor { execLua(code: string): Promise<unknown> }

export function execute(request: { input: { code: string } }, context: { luaExecutor: LuaExecutor }) {
  const result = (async () => {
    const value = await context.luaExecutor.execLua(request.input.code);
    return String(value);
  })();
  return { result };
}
`,
  'core/src/dispatch.ts': `import OpenAI from 'openai';
import * as Lua from './tools/lua.ts';
import type { LuaExecutor } from './tools/lua.ts';

const client = new OpenAI();

export async function turn(messages: OpenAI.ChatCompletionMessageParam[], luaExecutor: LuaExecutor) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages });
  for (const call of reply.choices[0]!.message.tool_calls ?? []) {
    const toolName = call.function.name;
    switch (toolName) {
      case 'run_lua': {
        Lua.execute({ input: JSON.parse(call.function.arguments) }, { luaExecutor });
        break;
      }
    }
  }
}
`,
  'plugin/package.json': JSON.stringify({ name: '@nvim-agent/plugin', version: '1.0.0' }),
  'plugin/src/nvim-lua-executor.ts': `export class NvimLuaExecutor {
  constructor(private nvim: { call(method: string, args: unknown[]): Promise<unknown> }) {}

  async execLua(code: string): Promise<unknown> {
    return this.nvim.call('nvim_exec_lua', [${code}, []]);
  }
}
`,
});

describe("code handed to the editor's interpreter over its RPC", () => {
  it('is a command path of the tool that reaches it, through a called-in-place function and a field naming its class in another package', async () => {
    const report = await audit(writeTree('nvim-agent', files('code')), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'run_lua');
    expect(tool && { reaches: tool.reaches, gated: tool.gated, via: tool.paths[0]!.via }).toEqual({ reaches: ['exec'], gated: false, via: ['run_lua', 'execute', 'execLua'] });
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('is no command where the code is the plugin\'s own constant', async () => {
    const report = await audit(writeTree('nvim-agent-fixed', files('LUA_HELPER')), { rubricDir: RUBRIC, factsCache: false, force: true });
    expect(report.agent!.tools.find((t) => t.name === 'run_lua')).toBeUndefined();
  });
});
