import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A coding agent on Bun whose tools are JSON function schemas named by an enum's members
 * (`name: ToolName.RUN_COMMAND`) and dispatched by a switch on the requested name in a function
 * named for tool calls (`case ToolName.RUN_COMMAND:`). Its command tool splits the model's command
 * and starts its first word as the program through Bun's object form (`spawnSync({ cmd: [cmd,
 * ...args] })`): any program the model names runs on the host.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny-bun-agent', version: '0.1.0', module: 'src/index.ts', dependencies: { openai: '4.0.0' } }),
  'src/types.ts': `export enum ToolName {
  READ_FILE = 'read_file',
  WRITE_FILE = 'write_file',
  RUN_COMMAND = 'run_command',
}
`,
  'src/tools.ts': `import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'bun';
import { ToolName } from './types';

export const tools = [
  { type: 'function' as const, function: { name: ToolName.READ_FILE, description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  { type: 'function' as const, function: { name: ToolName.WRITE_FILE, description: 'Write a file', parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } } } },
  { type: 'function' as const, function: { name: ToolName.RUN_COMMAND, description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } },
];

function runCommand(command: string): string {
  const parts = command.trim().split(/\\s+/);
  const cmd = parts[0];
  const args = parts.slice(1);
  const result = spawnSync({ cmd: [cmd, ...args], stdout: 'pipe', stderr: 'pipe' });
  return result.stdout.toString();
}

export function executeTool(name: string, input: Record<string, string>): string {
  switch (name) {
    case ToolName.READ_FILE:
      return readFileSync(input.path, 'utf8');
    case ToolName.WRITE_FILE:
      writeFileSync(input.path, input.text);
      return 'ok';
    case ToolName.RUN_COMMAND:
      return runCommand(input.command);
    default:
      return 'unknown tool';
  }
}
`,
  'src/index.ts': `import OpenAI from 'openai';
import { executeTool, tools } from './tools';

const client = new OpenAI();
const messages: any[] = [{ role: 'user', content: process.argv[2] ?? '' }];
while (true) {
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
  const message = reply.choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) break;
  for (const call of message.tool_calls) {
    const output = executeTool(call.function.name, JSON.parse(call.function.arguments));
    messages.push({ role: 'tool', tool_call_id: call.id, content: output });
  }
}
`,
};

describe("tools named by an enum and a command started through Bun's object form", () => {
  it('offers each switch case as the tool its enum member names, and the command tool runs commands', async () => {
    const { tools, caps } = await auditTools('tiny-bun-agent', files);
    expect(tools.run_command!.reaches).toContain('exec');
    expect(tools.write_file!.reaches).toContain('write');
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
