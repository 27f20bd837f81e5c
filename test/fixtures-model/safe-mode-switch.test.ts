import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A shell assistant that asks before running the model's command only in its safe mode
 * (`if (this.safeMode) { answer = await rl.question(…) }`): the switch says it asks, so with safe
 * mode off by default the ask is opt-in, not a check that lets "safe" commands through.
 */
const harness = (safeMode: boolean) => ({
  'package.json': '{ "name": "shellbot", "version": "1.0.0", "bin": { "shellbot": "dist/index.js" }, "dependencies": { "openai": "^4.0.0" } }\n',
  'src/index.ts': `import { execSync } from "child_process";
import * as readline from "readline/promises";
import OpenAI from "openai";

export class Assistant {
  safeMode: boolean = ${safeMode};
  private openai = new OpenAI();

  async run(prompt: string): Promise<void> {
    const completion = await this.openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: prompt }] });
    const command = completion.choices[0].message.content ?? "";
    let answer = "y";
    if (this.safeMode) {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
      answer = await rl.question(\`Run this command?\\n\${command}\\n(y/n) \`);
      rl.close();
    }
    if (answer.toLowerCase() === "y") {
      console.log(execSync(command).toString());
    }
  }
}

new Assistant().run(process.argv.slice(2).join(" "));
`,
});

async function gates(name: string, safeMode: boolean) {
  const report = await audit(writeTree(name, harness(safeMode)), { rubricDir: RUBRIC, factsCache: false });
  const paths = report.agent!.tools.flatMap((t) => t.paths.filter((p) => p.kind === 'exec'));
  return { kinds: [...new Set(paths.map((p) => p.gate?.kind ?? null))], gated: paths.every((p) => p.gated), caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
}

describe('an ask behind a safe-mode switch', () => {
  it('is opt-in while safe mode is off by default', async () => {
    const got = await gates('shellbot-off', false);
    expect(got.kinds).toEqual(['opt-in']);
    expect(got.gated).toBe(false);
    expect(got.caps).toContain('C2');
  });

  it('asks when safe mode is on by default', async () => {
    const got = await gates('shellbot-on', true);
    expect(got.gated).toBe(true);
    expect(got.caps).not.toContain('C2');
  });
});
