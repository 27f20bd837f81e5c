import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A tool whose own definition declares that it needs approval (the AI SDK's `needsApproval`, the
 * OpenAI Agents SDK's `needs_approval`): the framework asks the user before the tool runs, so its
 * paths are gated there, at the declaration. Declared off, or not declared, the tool runs unasked.
 */
const TS = (flag: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'sdkbot', version: '1.0.0', type: 'module', bin: { sdkbot: 'dist/index.js' }, dependencies: { ai: '5.0.0', zod: '3.25.0' } }),
  'src/index.ts': `import { execSync } from 'node:child_process';
import { generateText, tool } from 'ai';
import { z } from 'zod';

const runCommand = tool({
  description: 'Run a shell command',
  inputSchema: z.object({ command: z.string() }),${flag ? `\n  ${flag},` : ''}
  execute: async ({ command }) => execSync(command).toString(),
});

export async function main(task: string) {
  return generateText({ model: 'openai/gpt-4o', prompt: task, tools: { run_command: runCommand } });
}

main(process.argv[2] ?? '');
`,
});

const PY = (flag: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "sdkbot"\nversion = "0.1.0"\ndependencies = ["openai-agents"]\n\n[project.scripts]\nsdkbot = "sdkbot.main:main"\n',
  'sdkbot/__init__.py': '',
  'sdkbot/main.py': `import subprocess
import sys

from agents import Agent, Runner, function_tool


@function_tool(${flag})
def run_command(command: str) -> str:
    """Run a shell command."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def main():
    agent = Agent(name="sdkbot", tools=[run_command])
    print(Runner.run_sync(agent, sys.argv[1]).final_output)
`,
});

const shellTool = async (name: string, files: Record<string, string>) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_command');
  expect(tool, `run_command among ${report.agent!.tools.map((t) => t.name).join(', ')}`).toBeDefined();
  // One tool, named by its key in the tools map (the AI SDK's name for it), not also by its binding.
  expect(report.agent!.tools.map((t) => t.name).filter((n) => n === 'run_command' || n === 'runCommand')).toEqual(['run_command']);
  return { tool: tool!, caps: report.criteria.filter((c) => c.cap).map((c) => c.id) };
};

describe.each([
  ['TypeScript (AI SDK tool())', TS, 'needsApproval: true', 'needsApproval: false'],
  ['Python (OpenAI Agents SDK @function_tool)', PY, 'needs_approval=True', 'needs_approval=False'],
])('a tool that declares it needs approval: %s', (_lang, files, on, off) => {
  it('is gated at the declaration, and no approval cap fires', async () => {
    const { tool, caps } = await shellTool('declared-on', files(on));
    expect(tool.status).toBe('gated');
    expect(tool.paths.find((p) => p.kind === 'exec')?.gate?.site.text).toContain(on.slice(0, 10));
    expect(caps).not.toContain('C2');
  });

  it('declared off, it runs unasked and the cap fires', async () => {
    const { tool, caps } = await shellTool('declared-off', files(off));
    expect(tool.status).toBe('ungated');
    expect(caps).toContain('C2');
  });

  it('not declared, it runs unasked and the cap fires', async () => {
    const { tool, caps } = await shellTool('declared-none', files(''));
    expect(tool.status).toBe('ungated');
    expect(caps).toContain('C2');
  });
});
