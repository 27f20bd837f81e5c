import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * LangChain JS's tool helper takes the function first and the settings that name it after:
 * `tool(async ({ command }) => …, { name: 'command_execute', description, schema })`. Each is a
 * tool of that name, run by that function: here a shell that runs unasked, and a note tool named
 * by a constant (read through to its value). A wrapper that renames tools it is handed at run time
 * (`name: sanitized`) names no tool of its own.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'wing', version: '0.1.0', dependencies: { '@langchain/core': '^0.3.0', '@langchain/openai': '^0.5.0', zod: '^3.23.0' } }),
  'src/tools/shell.ts': `import { spawn } from 'node:child_process';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

export const createShellTool = (workspace: string) =>
  tool(
    async ({ command }: { command: string }) =>
      new Promise<string>((resolve) => {
        const child = spawn(command, [], { cwd: workspace, shell: true });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      }),
    { name: 'command_execute', description: 'Run a shell command', schema: z.object({ command: z.string() }) },
  );
`,
  'src/tools/notes.ts': `import { tool } from '@langchain/core/tools';
import { z } from 'zod';

export const TOOL_NAMES = { NOTE: 'take_note' };
const notes: string[] = [];

export const noteTool = tool(async ({ text }: { text: string }) => {
  notes.push(text);
  return 'noted';
}, { name: TOOL_NAMES.NOTE, description: 'Keep a note', schema: z.object({ text: z.string() }) });

export function renamed(original: { name: string; invoke: (x: unknown) => Promise<string> }, taken: Set<string>) {
  const sanitized = taken.has(original.name) ? original.name + '_2' : original.name;
  return tool(async (input) => original.invoke(input), { name: sanitized, description: original.name, schema: z.object({}) });
}
`,
  'src/agent.ts': `import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createShellTool } from './tools/shell.js';
import { noteTool } from './tools/notes.js';

export async function main(prompt: string) {
  const llm = new ChatOpenAI({ model: 'gpt-4o' });
  const agent = createReactAgent({ llm, tools: [createShellTool(process.cwd()), noteTool] });
  return agent.invoke({ messages: [{ role: 'user', content: prompt }] });
}
`,
};

describe('a tool helper handed the function first and its named settings after', () => {
  it('offers a tool of that name, run by that function', async () => {
    const report = await audit(writeTree('wing-settings-named', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['command_execute', 'take_note']);
    const shell = tools.find((t) => t.name === 'command_execute')!;
    expect(shell.handler?.path).toBe('src/tools/shell.ts');
    expect(shell.paths.filter((p) => p.kind === 'exec').map((p) => p.gated)).toEqual([false]);
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
