import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A VS Code extension whose chat view hands each message to an agent service; the service builds
 * its tools from factories named for them (`createBashTool(ctx)` returns `tool({ description,
 * parameters, execute })`, registered under a key) and calls the model with a step cap. Nothing in
 * the repository calls the extension's `activate` (the editor does, for the module the manifest's
 * `main` names) or the view's `resolveWebviewView` (the editor does, on the provider the
 * extension registers: the class implements the editor's interface).
 */
const MANIFEST = JSON.stringify({ name: 'design-agent', main: './dist/extension.js', engines: { vscode: '^1.90.0' }, dependencies: { ai: '^4.0.0' } });

const EXTENSION = `import * as vscode from 'vscode';
import { ChatViewProvider } from './chatView';
import { AgentService } from './agentService';

export function activate(context: vscode.ExtensionContext) {
  const agent = new AgentService();
  const view = new ChatViewProvider(agent);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider('design.chat', view));
}

export function deactivate() {}
`;

const VIEW = `import * as vscode from 'vscode';
import { AgentService } from './agentService';

export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(private agent: AgentService) {}

  resolveWebviewView(view: vscode.WebviewView) {
    view.webview.onDidReceiveMessage(async (message) => {
      const reply = await this.agent.query(message.text);
      view.webview.postMessage({ reply });
    });
  }
}
`;

const SERVICE = `import { streamText } from 'ai';
import { openai } from '@ai-sdk/openai';
import { createBashTool } from './tools/bash-tool';
import { createWriteTool } from './tools/write-tool';

export class AgentService {
  async query(prompt: string) {
    const tools = {
      bash: createBashTool({ cwd: process.cwd() }),
      write: createWriteTool({ cwd: process.cwd() }),
    };
    const result = streamText({ model: openai('gpt-4o'), prompt, tools, maxSteps: 10 });
    return await result.text;
  }
}
`;

const BASH = `import { tool } from 'ai';
import { z } from 'zod';
import { execSync } from 'child_process';

export function createBashTool(context: { cwd: string }) {
  return tool({
    description: 'Run a shell command in the workspace',
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }) => execSync(command, { cwd: context.cwd, encoding: 'utf8' }),
  });
}
`;

const WRITE = `import { tool } from 'ai';
import { z } from 'zod';
import { writeFileSync } from 'fs';

export function createWriteTool(context: { cwd: string }) {
  return tool({
    description: 'Write a file',
    parameters: z.object({ file_path: z.string(), content: z.string() }),
    execute: async ({ file_path, content }) => {
      writeFileSync(file_path, content);
      return 'written';
    },
  });
}
`;

const FILES = { 'package.json': MANIFEST, 'src/extension.ts': EXTENSION, 'src/chatView.ts': VIEW, 'src/agentService.ts': SERVICE, 'src/tools/bash-tool.ts': BASH, 'src/tools/write-tool.ts': WRITE };

describe('a VS Code extension whose tools come from factories named for them', () => {
  // (One audit serves both checks.)
  let pending: ReturnType<typeof audit> | undefined;
  const audited = () => (pending ??= audit(writeTree('editor-extension-tools', FILES), { rubricDir: RUBRIC, factsCache: false }));

  it('names each tool for its factory and traces it to its command or write, unasked', async () => {
    const report = await audited();
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t]));
    expect(tools['bash']).toMatchObject({ construct: 'object-with-handler', status: 'ungated' });
    expect(tools['bash']?.reaches).toContain('exec');
    expect(tools['write']?.reaches).toContain('write');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it("counts the step cap of code the editor reaches through activate and the view's interface method", async () => {
    const c10 = (await audited()).criteria.find((c) => c.id === 'C10')!;
    expect(c10.dimensions.S.evidence.find((e) => e.probe === 'limits.step-cap')).toMatchObject({ kind: 'lines', path: 'src/agentService.ts', text: expect.stringContaining('maxSteps: 10') });
    expect(c10.levels.S).toBe(2);
  });
});
