import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A TypeScript agent whose runner is injected: a constructor parameter property typed by an
 * interface (`constructor(private readonly shell: ShellService)`), which one class of the
 * repository implements. Another class in another folder defines a method of the same name. The
 * call on the member runs the implementing class's method, so the model's code reaches `exec`
 * through it; typed by a class that implements nothing, it would run that class's own method.
 */
const files = (member: string): Record<string, string> => ({
  'package.json': '{ "name": "injected", "version": "1.0.0", "bin": { "injected": "dist/main.js" } }',
  'src/shell/service.ts': 'export interface ShellService {\n  run(script: string): string;\n}\n',
  'src/shell/local.ts': `import { execSync } from 'node:child_process';
import type { ShellService } from './service';

export class LocalShell implements ShellService {
  run(script: string): string {
    return execSync(script).toString();
  }
}
`,
  'src/jobs/queue.ts': 'export class TaskQueue {\n  run(job: string): string {\n    return job;\n  }\n}\n',
  'src/main.ts': `import OpenAI from 'openai';
import type { ShellService } from './shell/service';
import { LocalShell } from './shell/local';
import { TaskQueue } from './jobs/queue';

const client = new OpenAI();

export class Agent {
  constructor(${member}) {}

  async step(task: string): Promise<string> {
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: task }] });
    const script = reply.choices[0].message.content ?? '';
    return this.shell.run(script);
  }
}

export function main(): void {
  void new Agent(new LocalShell() as ShellService as never).step(process.argv[2] ?? '');
  void TaskQueue;
}
main();
`,
});

const runners = async (name: string, member: string) => {
  const report = await audit(writeTree(name, files(member)), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.filter((t) => t.construct === 'code runner');
};

describe('a member typed by an interface the repository implements', () => {
  it("runs the implementing class's method: the model's code reaches exec, unasked", async () => {
    const found = await runners('injected-interface', 'private readonly shell: ShellService');
    expect(found.map((t) => ({ reaches: t.reaches, gated: t.gated, site: t.site.path }))).toEqual([{ reaches: ['exec'], gated: false, site: 'src/shell/local.ts' }]);
  });

  it('typed by a class of its own, runs that class (which runs nothing)', async () => {
    const found = await runners('injected-queue', 'private readonly shell: TaskQueue');
    expect(found.filter((t) => t.status !== 'unresolved')).toEqual([]);
  });
});
