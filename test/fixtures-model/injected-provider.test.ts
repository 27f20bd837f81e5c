import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An MCP server whose tools work through an injected provider: the tool's logic takes the provider
 * apart from a typed dependencies object (`{ provider }: ToolDeps`, where `ToolDeps` declares
 * `provider: GitProvider`), and calls a method whose name every set has (`provider.add(…)`). One
 * class implements the interface; its method hands a closure of its own to a helper
 * (`stage(paths, executor)`), which calls it back, and the closure starts git. The tool reaches
 * that process: the member's declared type, the interface's implementor, and the closure handed on
 * are each followed.
 */
const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'git-tools-mcp', version: '1.0.0', bin: { 'git-tools-mcp': 'dist/index.js' } }),
  'src/git/provider.ts': 'export interface GitProvider {\n  add(paths: string[]): Promise<void>;\n}\n',
  'src/git/run.ts': `import { spawn } from 'node:child_process';

export function runGit(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('git', args);
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.on('close', () => resolve(out));
  });
}
`,
  'src/git/ops/stage.ts': `export async function stage(paths: string[], execGit: (args: string[]) => Promise<string>): Promise<void> {
  await execGit(['add', '--', ...paths]);
}
`,
  'src/git/cli/provider.ts': `import type { GitProvider } from '../provider';
import { runGit } from '../run';
import { stage } from '../ops/stage';

export class CliGitProvider implements GitProvider {
  async add(paths: string[]): Promise<void> {
    const executor = (args: string[]) => runGit(args);
    await stage(paths, executor);
  }
}
`,
  'src/util/batch.ts': 'export class Batch {\n  items: string[] = [];\n  add(item: string): void {\n    this.items.push(item);\n  }\n}\n',
  'src/util/registry.ts': 'export class Registry {\n  names = new Set<string>();\n  add(name: string): void {\n    this.names.add(name);\n  }\n}\n',
  'src/tools/deps.ts': "import type { GitProvider } from '../git/provider';\n\nexport interface ToolDeps {\n  provider: GitProvider;\n  workingDirectory: string;\n}\n",
  'src/tools/add.ts': `import { z } from 'zod';
import type { ToolDeps } from './deps';

async function gitAddLogic(input: { paths: string[] }, { provider }: ToolDeps) {
  await provider.add(input.paths);
  return { ok: true };
}

export const gitAddTool = {
  name: 'git_add',
  description: 'Stage files for commit',
  inputSchema: { paths: z.array(z.string()) },
  logic: gitAddLogic,
};
`,
  'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { gitAddTool } from './tools/add.js';

const server = new McpServer({ name: 'git-tools-mcp', version: '1.0.0' });
for (const tool of [gitAddTool]) {
  server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, tool.logic as never);
}

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
main();
`,
};

const withStage = (stage: string): Record<string, string> => ({ ...files, 'src/git/ops/stage.ts': stage });
describe('a tool that works through an injected provider', () => {
  it('reaches the process the provider starts, through the declared type, the implementor and the closure it hands on', async () => {
    const report = await audit(writeTree('git-tools-mcp', files), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'git_add')!;
    expect(tool.handler?.name).toBe('gitAddLogic');
    expect(tool.reaches).toEqual(['spawn']);
    expect(tool.paths[0]!.sink.path).toBe('src/git/run.ts');
    // It starts a process on the host: nothing local is out of the tools' reach.
    expect(report.criteria.find((c) => c.id === 'C1')!.dimensions.B.means).not.toMatch(/^nothing local/);
  });

  it("a callback named `exec` is no child_process call; Node's `exec`, imported, is", async () => {
    const callback = withStage(`export async function stage(paths: string[], exec: (args: string[]) => Promise<string>): Promise<void> {
  await exec(['add', '--', ...paths]);
}
`);
    const named = await audit(writeTree('git-tools-mcp-callback', callback), { rubricDir: RUBRIC, factsCache: false });
    expect(named.agent!.tools.find((t) => t.name === 'git_add')!.reaches).toEqual(['spawn']);
    const node = withStage(`import { exec } from 'node:child_process';

export async function stage(paths: string[], _run: unknown): Promise<void> {
  const line = ['git', 'add', '--', ...paths].join(' ');
  exec(line);
}
`);
    const imported = await audit(writeTree('git-tools-mcp-node-exec', node), { rubricDir: RUBRIC, factsCache: false });
    expect(imported.agent!.tools.find((t) => t.name === 'git_add')!.reaches).toContain('exec');
  });
});
