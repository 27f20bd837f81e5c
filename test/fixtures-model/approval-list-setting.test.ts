import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An ask that runs only for the tools a setting lists: the base class asks when a helper of its own
 * says so (`needsApproval()` returns `settings.askBefore.includes(this.name)`), and the setting's
 * shipped default is a schema field's `.default([…])` or a defaults object's key, not a plain
 * binding. A tool the default leaves out runs unasked: the Tools section lists it as ungated and
 * the C2 cap fires. A tool class is called by the name its own field gives (`static toolName`,
 * `name = "…"`), which is the name the list holds; a constant there is read through.
 */
const tsAgent = (settings: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'listed-ask', version: '0.1.0', main: 'src/main.ts', dependencies: { openai: '^4.0.0' } }),
  'src/settings.ts': settings,
  'src/ask.ts': `import { createInterface } from 'node:readline/promises';

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const reply = await rl.question(question + ' [y/N] ');
    return reply.trim().toLowerCase() === 'y';
  } finally {
    rl.close();
  }
}
`,
  'src/base.ts': `import { confirm } from './ask';
import { settings } from './settings';

export abstract class AgentTool {
  static toolName: string;
  get name(): string {
    return (this.constructor as typeof AgentTool).toolName;
  }
  protected needsApproval(): boolean {
    return settings.askBefore.includes(this.name);
  }
  async invoke(args: Record<string, string>): Promise<string> {
    if (this.needsApproval() && !(await confirm(\`Run \${this.name} with \${JSON.stringify(args)}?\`))) {
      return 'The user declined.';
    }
    return this.execute(args);
  }
  protected abstract execute(args: Record<string, string>): Promise<string>;
}
`,
  'src/tools.ts': `import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { AgentTool } from './base';

export const WRITE_TOOL_NAME = 'write-file';

export class ShellTool extends AgentTool {
  static toolName = 'run-command';
  protected async execute(args: Record<string, string>): Promise<string> {
    return execFileSync('/bin/sh', ['-c', args.command], { encoding: 'utf8' });
  }
}

export class DeleteTool extends AgentTool {
  static toolName = 'delete-file';
  protected async execute(args: Record<string, string>): Promise<string> {
    rmSync(args.path, { recursive: true });
    return 'deleted';
  }
}

export class WriteTool extends AgentTool {
  static toolName = WRITE_TOOL_NAME;
  protected async execute(args: Record<string, string>): Promise<string> {
    writeFileSync(args.path, args.content);
    return 'written';
  }
}
`,
  'src/main.ts': `import OpenAI from 'openai';
import { DeleteTool, ShellTool, WriteTool } from './tools';

const tools = [new ShellTool(), new DeleteTool(), new WriteTool()];

export async function main(prompt: string): Promise<void> {
  const client = new OpenAI();
  const messages: any[] = [{ role: 'user', content: prompt }];
  for (let step = 0; step < 20; step++) {
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: tools.map((t) => ({ type: 'function', function: { name: t.name, parameters: { type: 'object' } } })) });
    const message = reply.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return;
    for (const call of message.tool_calls) {
      const tool = tools.find((t) => t.name === call.function.name)!;
      messages.push({ role: 'tool', tool_call_id: call.id, content: await tool.invoke(JSON.parse(call.function.arguments)) });
    }
  }
}

main(process.argv[2] ?? '');
`,
});

const ZOD_DEFAULT = `import { z } from 'zod';

export const settingsSchema = z.object({
  model: z.string().default('gpt-4o'),
  askBefore: z
    .array(z.string())
    .default(['run-command', 'delete-file'])
    .describe('Tools that ask the user before they run.'),
  maxSteps: z.number().default(20),
});

export const settings = settingsSchema.parse(JSON.parse(process.env.AGENT_SETTINGS ?? '{}'));
`;

const pyAgent = (listed: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "listed"\nversion = "0.1.0"\n[project.scripts]\nlisted = "listed.main:main"\n',
  'listed/__init__.py': '',
  'listed/settings.py': `from pydantic import BaseModel, Field


class Settings(BaseModel):
    model: str = "gpt-4o"
    ask_before: list[str] = Field(default_factory=lambda: [${listed}])


SETTINGS = Settings()
`,
  'listed/tools.py': `import subprocess

from listed.settings import SETTINGS


class BaseTool:
    name = ""

    def needs_approval(self) -> bool:
        return self.name in SETTINGS.ask_before

    def __call__(self, **args) -> str:
        if self.needs_approval():
            answer = input(f"Run {self.name} with {args}? [y/N] ")
            if answer.strip().lower() != "y":
                return "The user declined."
        return self.run(**args)


class ShellTool(BaseTool):
    name = "shell"

    def run(self, command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


class WriteTool(BaseTool):
    name = "write_file"

    def run(self, path: str, content: str) -> str:
        with open(path, "w") as f:
            f.write(content)
        return "written"
`,
  'listed/main.py': `import json

from openai import OpenAI

from listed.tools import ShellTool, WriteTool

TOOLS = {t.name: t for t in (ShellTool(), WriteTool())}


def main():
    client = OpenAI()
    messages = [{"role": "user", "content": input("> ")}]
    for _ in range(20):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in TOOLS])
        message = reply.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            return
        for call in message.tool_calls:
            result = TOOLS[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
`,
});

async function outcome(name: string, files: Record<string, string>) {
  const run = await auditDetailed(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
  const tools = Object.fromEntries((run.report.agent?.tools ?? []).filter((t) => t.reaches.length).map((t) => [t.name, t.status]));
  const gate = run.report.agent?.tools.flatMap((t) => t.paths).find((p) => p.gate)?.gate;
  const c2 = run.report.criteria.find((c) => c.id === 'C2')!;
  return { tools, gate, cap: c2.cap };
}

describe('an ask that runs only for the tools a setting lists', () => {
  it('TypeScript: a schema default leaves the write tool out, so it runs unasked and the cap fires', async () => {
    const o = await outcome('listed-ask-zod', tsAgent(ZOD_DEFAULT));
    expect(o.tools).toEqual({ 'run-command': 'gated', 'delete-file': 'gated', 'write-file': 'ungated' });
    // The claim links the list's shipped default, where a reader re-checks which tools it names.
    expect(o.gate).toMatchObject({ kind: 'list', guard: 'this.needsApproval()', listAt: { path: 'src/settings.ts', line: 5, text: 'askBefore: z' } });
    expect(o.cap).toBe(0.25);
  });

  it('TypeScript: a defaults object that lists every tool gates them all, and no cap fires', async () => {
    const settings = `export const settings = {\n  model: 'gpt-4o',\n  askBefore: ['run-command', 'delete-file', 'write-file'],\n};\n`;
    const o = await outcome('listed-ask-object', tsAgent(settings));
    expect(o.tools).toEqual({ 'run-command': 'gated', 'delete-file': 'gated', 'write-file': 'gated' });
    expect(o.cap).toBeNull();
  });

  it('TypeScript: a type that only declares the setting is not read as its default', async () => {
    const settings = `export interface Settings {\n  askBefore: string[];\n}\nexport const settings: Settings = JSON.parse(process.env.AGENT_SETTINGS ?? '{}');\n`;
    const o = await outcome('listed-ask-type', tsAgent(settings));
    // No default to read: the ask stays a condition the code can skip, taken as asking.
    expect(o.gate).toMatchObject({ kind: 'condition' });
    expect(Object.values(o.tools)).toEqual(['gated', 'gated', 'gated']);
  });

  it('Python: a pydantic default_factory that lists only the shell leaves the write tool ungated', async () => {
    const o = await outcome('listed-ask-py', pyAgent('"shell"'));
    // The base class, named for tools and with a `__call__`, names no tool and the tools extend it: no tool itself.
    expect(o.tools).toEqual({ shell: 'gated', write_file: 'ungated' });
    expect(o.gate?.listAt).toMatchObject({ path: 'listed/settings.py', line: 6 });
    expect(o.cap).toBe(0.25);
    const both = await outcome('listed-ask-py-both', pyAgent('"shell", "write_file"'));
    expect(both.tools).toEqual({ shell: 'gated', write_file: 'gated' });
    expect(both.cap).toBeNull();
  });
});
