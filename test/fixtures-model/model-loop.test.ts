import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { extractFacts } from '../../src/facts/extract.js';
import { planOf, SINK } from '../../src/facts/plan.js';
import { loadRubric } from '../../src/rubric/load.js';
import { ROOT, RUBRIC } from '../helpers.js';
import { describeLevel } from './support.js';

/**
 * py-plugin-chat makes one model call per run: a fixed pipeline, bounded by construction (C10 S
 * L2). Its `main` put in an unconditional loop that stops only when the model says so is the
 * harness's own agent loop, however many of the repository's calls lie between the loop and the
 * model call; a loop whose exit counts turns, or one that calls no model, is none.
 */
function variant(loop: string, prelude = '') {
  const dir = join(mkdtempSync(join(tmpdir(), 'model-loop-')), 'quill');
  cpSync(join(ROOT, 'fixtures', 'py-plugin-chat'), dir, { recursive: true });
  const cli = join(dir, 'quill', 'cli.py');
  const text = readFileSync(cli, 'utf8');
  writeFileSync(cli, `${text}\n\n${prelude}class Session:\n    def __init__(self):\n        self.turns = 0\n\n    def step(self):\n        return main()\n\n\ndef run():\n${loop}\n\n\nif __name__ == "__main__":\n    run()\n`);
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}

const c10 = (report: Awaited<ReturnType<typeof audit>>) => report.criteria.find((c) => c.id === 'C10')!;

describe('an unconditional loop around the model, found through the call graph', () => {
  it('reads a loop whose body reaches the model through two calls as unbounded, citing the loop', async () => {
    const report = await variant('    session = Session()\n    while True:\n        if session.step() == "DONE":\n            break');
    const c = c10(report);
    expect(c.levels.S, describeLevel(report, 'C10', 'S')).toBeLessThan(2);
    const loop = (['S', 'C', 'D', 'B'] as const).flatMap((d) => c.dimensions[d].evidence).find((e) => e.probe === 'limits.model-loop-unbounded');
    expect(loop).toMatchObject({ kind: 'lines', path: 'quill/cli.py', text: 'while True:' });
  });

  it('keeps the fixed pipeline when the loop counts its turns against a limit', async () => {
    const report = await variant('    session = Session()\n    while True:\n        session.turns += 1\n        if session.turns >= MAX_TURNS:\n            break\n        session.step()');
    expect(c10(report).levels.S, describeLevel(report, 'C10', 'S')).toBe(2);
  });

  // A batch mode capped at MAX_STEPS beside the interactive loop that stops only when the model says so.
  it('a step cap on one loop beside a model loop that runs unbounded bounds no surface: C10 S and C below L2', async () => {
    const report = await variant(
      '    session = Session()\n    if len(sys.argv) > 2:\n        for _ in range(MAX_STEPS):\n            session.step()\n        return\n    while True:\n        if session.step() == "DONE":\n            break',
      'MAX_STEPS = 20\n\n\n',
    );
    const c = c10(report);
    expect(c.levels.S, describeLevel(report, 'C10', 'S')).toBeLessThan(2);
    expect(c.levels.C, describeLevel(report, 'C10', 'C')).toBeLessThan(2);
  });

  it('keeps the fixed pipeline when the loop calls no model', async () => {
    const report = await variant('    while True:\n        line = sys.stdin.readline()\n        if not line:\n            break\n        print(line.upper())');
    expect(c10(report).levels.S, describeLevel(report, 'C10', 'S')).toBe(2);
  });
});

describe('a model call through a completion wrapper', () => {
  const rubric = loadRubric(RUBRIC);
  const plan = planOf(rubric, rubric.probes);
  const llmCalls = (line: string) => extractFacts({ path: 'agent.py', language: 'python', text: `def step(self, p, X):\n    ${line}\n` }, plan).findings.filter((f) => f.probe === `${SINK}llm`);

  it("counts LangChain's legacy predict(prompt=…) and its wrappers, named by the prompt keyword", () => {
    expect(llmCalls('return self.agent.predict(prompt=p)')).toHaveLength(1);
    expect(llmCalls('return await llm.apredict(prompt=p)')).toHaveLength(1);
  });

  it("leaves a classifier's predict(X) alone", () => {
    expect(llmCalls('return self.clf.predict(X)')).toEqual([]);
  });
});

