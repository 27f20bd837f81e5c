import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * ts-mcp-shell-server's only prompt sits in a callback stored for later (its own expectations:
 * `run_command` ungated, C2 and C4 caps). The same branch asking in line, or through a helper
 * whose prompt runs inside a promise's executor, is gated and neither cap fires.
 */
async function withBranch(name: string, edit: (server: string) => string) {
  const dir = join(mkdtempSync(join(tmpdir(), `${name}-`)), 'shellsrv');
  cpSync(join(ROOT, 'fixtures', 'ts-mcp-shell-server'), dir, { recursive: true });
  const server = join(dir, 'src', 'server.ts');
  const text = readFileSync(server, 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(server, edited);
  const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_command')!;
  return { gated: tool.gated, caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
}

const STORED = /      history\.add\(command, \{ onForget: \(\) => confirm\(\{ message: `Forget \$\{command\}\?` \}\) \}\);\n/;

describe('an ask that runs later gates nothing', () => {
  it('an ask in line before the command gates it', async () => {
    const got = await withBranch('inline-ask', (t) => t.replace(STORED, "      if (!(await confirm({ message: `Run ${command}?` }))) throw new Error('denied');\n"));
    expect(got.gated).toBe(true);
    expect(got.caps).not.toContain('C2');
    expect(got.caps).not.toContain('C4');
  });

  it("a helper that asks inside a promise's executor gates it", async () => {
    const got = await withBranch('promise-ask', (t) =>
      t
        .replace(STORED, "      if ((await askLine(`Run ${command}? (y/N) `)) !== 'y') throw new Error('denied');\n")
        .replace(
          "const history = new History();\n",
          "const history = new History();\nconst rl = createInterface({ input: process.stdin, output: process.stderr });\nfunction askLine(question: string): Promise<string> {\n  return new Promise((resolve) => rl.question(question, resolve));\n}\n",
        )
        .replace("import { confirm } from '@inquirer/prompts';\n", "import { createInterface } from 'node:readline';\n"),
    );
    expect(got.gated).toBe(true);
    expect(got.caps).not.toContain('C2');
  });
});
