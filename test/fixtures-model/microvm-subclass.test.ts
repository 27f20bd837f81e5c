import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A computer-use agent whose every command runs in a cloud microVM: the harness subclasses the
 * E2B sandbox class under a name of its own and the model's shell tool calls the sandbox's
 * command API. The sandbox is kernel-separated (C4 S L4), and the tools carry none of the host's
 * credentials (C1 S L2). The same subclass of a class from the harness's own module is no sandbox.
 */
const agent = (importLine: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "cloudpilot"\nversion = "0.1.0"\ndependencies = ["openai", "e2b-desktop"]\n',
  'cloudpilot/__init__.py': '',
  'cloudpilot/base.py': 'class DesktopBase:\n    def __init__(self):\n        self.commands = None\n',
  'cloudpilot/streaming.py': `${importLine}


class Desktop(SandboxBase):
    def stream_url(self) -> str:
        return "https://example.invalid/stream"
`,
  'cloudpilot/agent.py': `import json

from openai import OpenAI

from cloudpilot.streaming import Desktop


def tool(description):
    def wrap(func):
        func.description = description
        return func
    return wrap


class Agent:
    def __init__(self, desktop):
        self.desktop = desktop
        self.client = OpenAI()

    @tool("Run a shell command and return its output")
    def run_command(self, command: str) -> str:
        result = self.desktop.commands.run(command, timeout=5)
        return result.stdout

    def step(self, task: str):
        reply = self.client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}])
        call = json.loads(reply.choices[0].message.content)
        return self.run_command(call["command"])


if __name__ == "__main__":
    import sys

    print(Agent(Desktop()).step(sys.argv[1]))
`,
});

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const level = (report: Awaited<ReturnType<typeof score>>, id: string, dim: 'S' | 'C' | 'D' | 'B') => report.criteria.find((c) => c.id === id)!.levels[dim];

describe("a harness's own class built on the E2B sandbox class", () => {
  it('is a microVM sandbox: commands run kernel-separated and the tools carry no host credentials', async () => {
    const report = await score('e2b-subclass', agent('from e2b_desktop import Sandbox as SandboxBase'));
    expect(level(report, 'C4', 'S')).toBe(4);
    expect(level(report, 'C1', 'S')).toBe(2);
  });

  it('a class built on a base of the harness itself is no sandbox', async () => {
    const report = await score('own-subclass', agent('from cloudpilot.base import DesktopBase as SandboxBase'));
    expect(level(report, 'C4', 'S')).toBeLessThan(4);
    expect(level(report, 'C1', 'S')).toBe(0);
  });
});

/**
 * A harness that hands the model's code to a microVM it starts by default, through a path the
 * agent model does not trace (the code travels in a message the sandbox side reads). The sandbox
 * is there to run what the model wrote: commands, and the network the sandbox keeps, are on by
 * default (C3 D L0 "exec, network and write on by default with no switches", the surface's code
 * execution), not a read-only tool set (L3).
 */
const queued = (sandbox: boolean): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'vmpilot', version: '0.1.0', dependencies: { openai: '4.0.0', ...(sandbox ? { '@e2b/desktop': '1.0.0' } : {}) } }),
  'src/agent.ts': `import OpenAI from 'openai';
${sandbox ? "import { Sandbox } from '@e2b/desktop';\n" : ''}
const openai = new OpenAI();
const queue: string[] = [];

export async function step(task: string): Promise<void> {
${sandbox ? '  const desktop = await Sandbox.create({ timeoutMs: 300_000 });\n  await desktop.files.write("/tmp/queue.json", JSON.stringify(queue));\n' : ''}  const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: task }] });
  queue.push(reply.choices[0]?.message.content ?? '');
}

step(process.argv[2] ?? '').catch(() => process.exit(1));
`,
});

describe('commands run by default in a microVM, no path to them traced', () => {
  it('exec and network are on by default: C3 D L0 and the surface has code execution', async () => {
    const report = await score('queued-vm', queued(true));
    expect(level(report, 'C3', 'D')).toBe(0);
    expect(report.surface.find((s) => s.id === 'code-execution')!.value).toBe('yes');
  });

  it('the same harness with no sandbox offers the model nothing that runs: a read-only default tool set', async () => {
    const report = await score('queued-plain', queued(false));
    expect(level(report, 'C3', 'D')).toBe(3);
    expect(report.surface.find((s) => s.id === 'code-execution')!.value).toBe('no');
  });
});
