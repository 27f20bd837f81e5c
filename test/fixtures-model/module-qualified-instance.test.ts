import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * An object made of a class named through its module (`runners.CodeRunner()` in Python,
 * `new runners.CodeRunner()` in TypeScript), whose method name another class in another folder
 * also defines: the call on that object runs its own class's method, so the model's code reaches
 * `exec` through it. A name bound to instances of two classes is still not guessed at.
 */
const python = (second: string): Record<string, string> => ({
  'lib/__init__.py': '',
  'lib/runners.py': 'class CodeRunner:\n    def run(self, code):\n        scope = {}\n        exec(code, scope)\n        return scope\n',
  'lib/jobs/__init__.py': '',
  'lib/jobs/queue.py': 'class TaskRunner:\n    def run(self, job):\n        print(job)\n',
  'app/__init__.py': '',
  'app/agent.py': `from openai import OpenAI
from lib import runners
from lib.jobs import queue

client = OpenAI()


class Agent:
    def __init__(self):
        self.runner = runners.CodeRunner()
${second}

    def step(self, task):
        reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}])
        code = reply.choices[0].message.content
        return self.runner.run(code)


if __name__ == "__main__":
    Agent().step(input("> "))
`,
});

const typescript: Record<string, string> = {
  'package.json': '{ "name": "tsbot", "version": "1.0.0", "bin": { "tsbot": "dist/main.js" } }',
  'src/lib/runners.ts': "import { execSync } from 'node:child_process';\n\nexport class CodeRunner {\n  run(script: string): string {\n    return execSync(script).toString();\n  }\n}\n",
  'src/lib/jobs/queue.ts': 'export class TaskRunner {\n  run(job: string): void {\n    console.log(job);\n  }\n}\n',
  'src/main.ts': `import OpenAI from 'openai';
import * as runners from './lib/runners';

const client = new OpenAI();

export class Agent {
  private runner = new runners.CodeRunner();
  constructor() {
    this.runner = new runners.CodeRunner();
  }
  async step(task: string): Promise<string> {
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: task }] });
    const script = reply.choices[0].message.content ?? '';
    return this.runner.run(script);
  }
}
`,
};

const runners = async (name: string, tree: Record<string, string>) =>
  (await audit(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false })).agent!.tools.filter((t) => t.construct === 'code runner').map((t) => ({ name: t.name, reaches: t.reaches }));

describe('an object made of a class named through its module', () => {
  it("runs its own class's method (Python): the model's code reaches exec", async () => {
    expect(await runners('modinst-py', python(''))).toContainEqual({ name: 'run', reaches: ['exec'] });
  });

  it('is not guessed at when the name is bound to instances of two classes', async () => {
    expect(await runners('modinst-py-two', python('        if task_mode:\n            self.runner = queue.TaskRunner()'))).not.toContainEqual({ name: 'run', reaches: ['exec'] });
  });

  it("runs its own class's method (TypeScript)", async () => {
    expect(await runners('modinst-ts', typescript)).toContainEqual({ name: 'run', reaches: ['exec'] });
  });
});
