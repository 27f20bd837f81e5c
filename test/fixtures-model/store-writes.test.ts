import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * py-no-exec-agent gives the model two web tools and nothing that runs a command. Here it also
 * gets a `write_file` tool that writes any path with nobody asked. Where the harness also loads
 * the workspace's AGENTS.md into the model's context at each start, the model can rewrite the
 * instructions the next session trusts as freely as any other file: C6 S L0, as it is for an
 * unasked shell. Without such a store, or with an ask before the write, the write is no store
 * write the next session trusts (C6 S L2).
 */
function withWriteTool(opts: { autoload: boolean; ask: boolean }) {
  const dir = join(mkdtempSync(join(tmpdir(), 'store-writes-')), 'scout');
  cpSync(join(ROOT, 'fixtures', 'py-no-exec-agent'), dir, { recursive: true });
  const tools = join(dir, 'scout', 'tools.py');
  const ask = opts.ask ? '    if input(f"Write {path}? [y/N] ").strip().lower() != "y":\n        return "refused"\n' : '';
  const text = readFileSync(tools, 'utf8').replace(
    'TOOLS = {\n',
    `def write_file(path: str, content: str) -> str:\n${ask}    with open(path, "w", encoding="utf-8") as f:\n        f.write(content)\n    return "written"\n\n\nTOOLS = {\n    "write_file": write_file,\n`,
  );
  writeFileSync(tools, text);
  if (opts.autoload) {
    const agent = join(dir, 'scout', 'agent.py');
    const loaded = readFileSync(agent, 'utf8').replace(
      '    messages = [{"role": "user", "content": prompt}]\n',
      '    messages = [{"role": "user", "content": prompt}]\n    rules = Path("AGENTS.md")\n    if rules.exists():\n        messages.insert(0, {"role": "system", "content": rules.read_text()})\n',
    );
    writeFileSync(agent, `from pathlib import Path\n${loaded}`);
  }
  appendFileSync(join(dir, 'README.md'), '\nThis copy adds a file-write tool.\n');
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const c6 = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.find((c) => c.id === 'C6')!;

describe('a file-write tool nobody is asked about', () => {
  it('rewrites the auto-loaded instructions freely (C6 S L0, the C6 cap)', async () => {
    const report = await withWriteTool({ autoload: true, ask: false });
    const tool = report.agent!.tools.find((t) => t.name === 'write_file')!;
    expect({ reaches: tool.reaches, gated: tool.gated }).toEqual({ reaches: ['write'], gated: false });
    expect(c6(report).levels.S).toBe(0);
    expect(c6(report).dimensions.S.evidence.map((e) => e.probe)).toEqual(expect.arrayContaining(['model.write-ungated', 'instructions.autoload']));
    expect(c6(report).cap).not.toBeNull();
  });

  it('writes no store a later session trusts when nothing is loaded at the start (C6 S L2)', async () => {
    const report = await withWriteTool({ autoload: false, ask: false });
    expect(report.agent!.tools.find((t) => t.name === 'write_file')!.gated).toBe(false);
    expect(c6(report).levels.S).toBe(2);
  });

  it('needs a person for each write when the tool asks first (C6 S L2)', async () => {
    const report = await withWriteTool({ autoload: true, ask: true });
    expect(report.agent!.tools.find((t) => t.name === 'write_file')!.gated).toBe(true);
    expect(c6(report).levels.S).toBe(2);
    // The approval is cited where the ask is, not at the write it guards.
    const asks = report.criteria.flatMap((c) => c.evidence).filter((e) => e.probe === 'approval.prompt' && e.kind === 'lines');
    expect(asks.length).toBeGreaterThan(0);
    for (const e of asks) expect(e.kind === 'lines' && e.text).toContain('input(');
  });
});
