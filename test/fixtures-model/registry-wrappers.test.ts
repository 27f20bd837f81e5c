import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A TypeScript coding agent in the shape of many Ink CLIs:
 * - each tool is an AI SDK `tool({…})` wrapped in an export entry (`{ name: 'git_add' as const,
 *   tool: gitAddCore, approval: (args, mode) => mode === 'normal' }`) whose `approval` key the
 *   harness's own policy reads (`target?.approval`) before it runs the tool;
 * - the shell tool runs through a module-level instance of a class of its own
 *   (`export const shellRunner = new ShellRunner()`, imported through a path alias), whose `run`
 *   two other classes define too, and which spawns through an import under another name
 *   (`import { spawn as cpSpawn } from 'node:child_process'`);
 * - slash commands typed as commands (`const commit: Command = { name, description, handler }`,
 *   or returned by a function typed `Command`) run on the user's word, not the model's;
 * - a shutdown hook (`{ name: 'logger', priority, handler }`) is the harness's own.
 * - `git_diff` runs git through a helper handed the program by name (`execProcess('git', args)`):
 *   a program with the model's arguments, not a command; `run_script` hands the same helper `sh`.
 * `approvalRead` false leaves the policy out: then no code reads the key, and nothing asks.
 */
function agent(approvalRead: boolean, writeApproval: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'ink-coder', version: '1.0.0', bin: { 'ink-coder': 'dist/cli.js' }, dependencies: { ai: '^5.0.0', ink: '^5.0.0' } }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['source/*'] } } }),
    'source/services/shell-runner.ts': `import { spawn as cpSpawn, type ChildProcess } from 'node:child_process';

export class ShellRunner {
  run(command: string): ChildProcess {
    return cpSpawn('sh', ['-c', command]);
  }
}

export const shellRunner = new ShellRunner();
`,
    'source/tools/bash.ts': `import { tool, jsonSchema } from 'ai';
import { shellRunner } from '@/services/shell-runner';

const bashCore = tool({
  description: 'Run a shell command',
  inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } } }),
  execute: async (args: { command: string }) => {
    const proc = shellRunner.run(args.command);
    return String(proc.pid);
  },
});

export const bashTool = {
  name: 'execute_bash' as const,
  tool: bashCore,
  approval: (_args: unknown, mode: string) => mode !== 'yolo',
};
`,
    'source/tools/process.ts': `import { spawn } from 'node:child_process';

function execProcess(command: string, args: string[]) {
  return spawn(command, args);
}

export const execGit = (args: string[]) => execProcess('git', args);
export const execShell = (script: string) => execProcess('sh', ['-c', script]);
`,
    'source/tools/git.ts': `import { tool, jsonSchema } from 'ai';
import { execGit, execShell } from './process';

const gitDiffCore = tool({
  description: 'Show the diff of a path',
  inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } } }),
  execute: async (args: { path: string }) => String(execGit(['diff', '--', args.path]).pid),
});

const runScriptCore = tool({
  description: 'Run a script',
  inputSchema: jsonSchema<{ script: string }>({ type: 'object', properties: { script: { type: 'string' } } }),
  execute: async (args: { script: string }) => String(execShell(args.script).pid),
});

export const gitDiffTool = { name: 'git_diff' as const, tool: gitDiffCore, readOnly: true };
export const runScriptTool = { name: 'run_script' as const, tool: runScriptCore, approval: true };
`,
    'source/tools/write.ts': `import { tool, jsonSchema } from 'ai';
import { writeFile } from 'node:fs/promises';

const writeCore = tool({
  description: 'Write a file',
  inputSchema: jsonSchema<{ path: string; content: string }>({ type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }),
  execute: async (args: { path: string; content: string }) => {
    await writeFile(args.path, args.content);
    return 'ok';
  },
});

export const writeTool = {
  name: 'write_file' as const,
  tool: writeCore,
  approval: ${writeApproval},
};
`,
    'source/tools/policy.ts': approvalRead
      ? `export async function needsApproval(target: { approval?: boolean | ((a: unknown, m: string) => boolean) } | undefined, args: unknown, mode: string) {
  const approval = target?.approval;
  if (typeof approval === 'function') return approval(args, mode);
  return approval ?? true;
}
`
      : `export const modes = ['normal', 'yolo'];\n`,
    'source/commands/commit.ts': `import { execSync } from 'node:child_process';
import type { Command } from '@/types';

export const commitCommand: Command = {
  name: 'commit',
  description: 'Commit the staged changes',
  handler: async (args: string[]) => {
    execSync(args.join(' '));
    return 'done';
  },
};

export function createPushCommand(): Command {
  return {
    name: 'push',
    description: 'Push the branch',
    handler: async (args: string[]) => {
      execSync(args.join(' '));
      return 'pushed';
    },
  };
}
`,
    'source/cli.ts': `import { streamText } from 'ai';
import { rmSync } from 'node:fs';
import { bashTool } from '@/tools/bash';
import { writeTool } from '@/tools/write';
import { gitDiffTool, runScriptTool } from '@/tools/git';
import { commitCommand, createPushCommand } from '@/commands/commit';
import { shutdown } from '@/shutdown';
import { Spinner } from '@/ui/spinner';
import { Progress } from '@/ui/progress';

shutdown.register({
  name: 'cleanup',
  priority: 0,
  handler: async (dir: string) => rmSync(dir, { recursive: true }),
});

export async function chat(prompt: string) {
  new Spinner().run('thinking');
  new Progress().run(1);
  const tools = { [bashTool.name]: bashTool.tool, [writeTool.name]: writeTool.tool, [gitDiffTool.name]: gitDiffTool.tool, [runScriptTool.name]: runScriptTool.tool };
  return streamText({ model: 'openai/gpt-5', prompt, tools });
}

export const commands = [commitCommand, createPushCommand()];
`,
    'source/ui/spinner.ts': `export class Spinner {\n  run(label: string) {\n    process.stdout.write(label);\n  }\n}\n`,
    'source/ui/progress.ts': `export class Progress {\n  run(total: number) {\n    process.stdout.write(String(total));\n  }\n}\n`,
    'source/shutdown.ts': `export const shutdown = { hooks: [] as unknown[], register(h: unknown) { this.hooks.push(h); } };\n`,
  };
}

async function audit(name: string, approvalRead: boolean, writeApproval: string) {
  const run = await auditDetailed(writeTree(name, agent(approvalRead, writeApproval)), { rubricDir: RUBRIC, factsCache: false, force: true });
  const tools = Object.fromEntries((run.report.agent?.tools ?? []).map((t) => [t.name, { reaches: t.reaches.join(','), gated: t.paths.filter((p) => p.kind !== 'read').every((p) => p.gated) }]));
  const cap = (id: string) => run.report.criteria.find((c) => c.id === id)!.cap;
  return { tools, c2: cap('C2'), c4: cap('C4') };
}

describe('tools wrapped in export entries, slash commands and hooks', () => {
  it('reads the entry’s approval key the harness honours, names the tool by the entry, and leaves out commands and hooks', async () => {
    const o = await audit('ink-coder-gated', true, `(_args: unknown, mode: string) => mode === 'normal'`);
    // The shell tool reaches the host through the instance it imports; both tools are asked for.
    // A program the caller names (`execProcess('git', args)`) starts with the model's arguments;
    // named `sh`, it runs the model's script.
    expect(o.tools).toEqual({ execute_bash: { reaches: 'exec', gated: true }, write_file: { reaches: 'write', gated: true }, git_diff: { reaches: 'spawn', gated: false }, run_script: { reaches: 'exec', gated: true } });
    expect(o.c2).toBeNull();
    expect(o.c4).toBeNull();
  });

  it('an entry that declares no approval is a hidden ungated tool: the cap fires', async () => {
    const o = await audit('ink-coder-hidden', true, 'false');
    expect(o.tools).toEqual({ execute_bash: { reaches: 'exec', gated: true }, write_file: { reaches: 'write', gated: false }, git_diff: { reaches: 'spawn', gated: false }, run_script: { reaches: 'exec', gated: true } });
    expect(o.c2).toBe(0.25);
  });

  it('a key no product code reads is no approval', async () => {
    const o = await audit('ink-coder-unread', false, `(_args: unknown, mode: string) => mode === 'normal'`);
    expect(o.tools).toEqual({ execute_bash: { reaches: 'exec', gated: false }, write_file: { reaches: 'write', gated: false }, git_diff: { reaches: 'spawn', gated: false }, run_script: { reaches: 'exec', gated: false } });
    expect(o.c2).toBe(0.25);
    expect(o.c4).toBe(0.2);
  });
});
