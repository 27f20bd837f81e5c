import { describe, expect, it } from 'vitest';
import { extractBatch, extractFacts, scannedFiles, type FileInput } from '../../src/facts/extract.js';
import { planProbe, type Plan } from '../../src/facts/plan.js';
import type { Probe } from '../../src/rubric/schema.js';

/** A probe as the rubric would hold it: an ast-grep rule per language. */
const probe = (id: string, rules: Probe['rules']): Probe =>
  ({ id, engine: 'ast-grep', languages: Object.keys(rules!), files: [], rules, ignoreCase: false }) as unknown as Probe;

const plan = (probes: Probe[]): Plan => ({ key: `scan-test:${probes.map((p) => p.id).join(',')}`, probes: probes.map(planProbe) });
const hits = (facts: Awaited<ReturnType<typeof extractBatch>>[number]) => facts.findings.map((f) => `${f.probe}@${f.startLine}:${f.text}`);

describe('the multi-file scan (every rule of a language compiled once)', () => {
  it('finds what each rule finds alone when two rules bind the same metavariable name to different nodes', async () => {
    // One combined matcher holds both rules: unless each rule's $N is its own, a node matching
    // both would need $N to be `bar` and `foo` at once and one finding would be lost.
    const p = plan([probe('callee', { typescript: { pattern: '$N($$$ARGS)' } }), probe('argument', { typescript: { pattern: 'foo($N)' } })]);
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: 'foo(bar);\nbaz(1, 2);\n' };
    const [batch] = await extractBatch([file], p, 'always');
    expect(hits(batch!)).toEqual(['callee@1:foo(bar)', 'argument@1:foo(bar)', 'callee@2:baz(1, 2)']);
    expect(batch).toEqual(extractFacts(file, p));
  });

  it('gives a node to every rule it satisfies, keeps files apart and in input order, across languages', async () => {
    const p = plan([
      probe('exec', { typescript: { kind: 'call_expression', has: { field: 'function', regex: '^exec$' } }, python: { kind: 'call', has: { field: 'function', regex: '^os\\.system$' } } }),
      probe('any-call', { typescript: { kind: 'call_expression' }, python: { kind: 'call' } }),
      probe('never', { typescript: { kind: 'call_expression', regex: '^zzz' } }),
    ]);
    const files: FileInput[] = [
      { path: 'b.py', language: 'python', text: 'import os\nos.system("ls")\n' },
      { path: 'notes.md', language: null, text: 'exec("x")\n' },
      { path: 'a.ts', language: 'typescript', text: '// exec("in a comment")\nexec("ls");\n' },
      { path: 'c.js', language: 'javascript', text: 'run();\n' },
      { path: 'empty.ts', language: 'typescript', text: '' },
    ];
    const batch = await extractBatch(files, p, 'always');
    expect(batch.map(hits)).toEqual([['exec@2:os.system("ls")', 'any-call@2:os.system("ls")'], [], ['exec@2:exec("ls")', 'any-call@2:exec("ls")'], ['any-call@1:run()'], []]);
    expect(batch).toEqual(files.map((f) => extractFacts(f, p)));
  });

  it('counts a file with no match at all: its definitions and calls are still read', async () => {
    const p = { ...plan([probe('never', { typescript: { kind: 'call_expression', regex: '^zzz' } })]), calls: true };
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: 'export function go() { return helper(); }\n' };
    const [facts] = await extractBatch([file], p, 'always');
    expect(facts!.definitions.map((d) => d.name)).toEqual(['go']);
    expect(facts!.calls!.map(([name]) => name)).toEqual(['helper']);
    expect(facts).toEqual(extractFacts(file, p));
  });

  it("never reuses one plan's matcher for another plan under the same key (verification plans have the empty key)", async () => {
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: 'exec("ls");\nfetch(url);\n' };
    const one = { key: '', probes: [planProbe(probe('exec', { typescript: { kind: 'call_expression', has: { field: 'function', regex: '^exec$' } } }))] };
    const other = { key: '', probes: [planProbe(probe('fetch', { typescript: { kind: 'call_expression', has: { field: 'function', regex: '^fetch$' } } }))] };
    expect(hits((await extractBatch([file], one, 'always'))[0]!)).toEqual(['exec@1:exec("ls")']);
    expect(hits((await extractBatch([file], other, 'always'))[0]!)).toEqual(['fetch@2:fetch(url)']);
  });

  it('searches each file on its own, with the same facts, when the temporary folder cannot be written', async () => {
    const p = plan([probe('exec', { typescript: { kind: 'call_expression', has: { field: 'function', regex: '^exec$' } } })]);
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: 'exec("ls");\n' };
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/agent-audit-test';
    try {
      const [facts] = await extractBatch([file], p, 'always');
      expect(hits(facts!)).toEqual(['exec@1:exec("ls")']);
      expect(facts).toEqual(extractFacts(file, p));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('finds a rule that matches a bare token (no metavariable can bind one), as a search of the file alone does', async () => {
    const p = plan([probe('arrow', { typescript: { regex: '^=>$' } }), probe('calls', { typescript: { kind: 'call_expression' } })]);
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: 'const f = () => g();\n' };
    const [facts] = await extractBatch([file], p, 'always');
    expect(hits(facts!)).toEqual(['arrow@1:=>', 'calls@1:g()']);
    expect(facts).toEqual(extractFacts(file, p));
  });
  it('searches each file on its own, with the same facts, when the rules compile alone but not as one matcher', async () => {
    // Each regex is under the regex size limit; the prefilter's union of the two is over it.
    const p = plan([probe('long', { typescript: { kind: 'identifier', regex: '\\p{L}{150}' } }), probe('longer', { typescript: { kind: 'identifier', regex: '\\p{L}{150}x' } })]);
    const file: FileInput = { path: 'a.ts', language: 'typescript', text: `const ${'é'.repeat(150)} = 1;\nconst ${'é'.repeat(150)}xy = 2;\n` };
    const [batch] = await extractBatch([file], p, 'always');
    expect(batch!.findings.map((f) => `${f.probe}@${f.startLine}`)).toEqual(['long@1', 'long@2', 'longer@2']);
    expect(batch).toEqual(extractFacts(file, p));
  });

  it('scans the files of a matcher whose file-by-file search would compile more rules, and a JavaScript file joins the TSX scan', () => {
    const calls = (n: number) => Array.from({ length: n }, (_, k) => probe(`call${k}`, { typescript: { kind: 'call_expression', has: { field: 'function', regex: `^run${k}$` } } }));
    const { probes } = plan(calls(3));
    // Each TSX file holds one rule's word: a search of each alone compiles one rule, of the two files two.
    const view = (name: string, k: number): FileInput => ({ path: name, language: 'tsx', text: `run${k}();\n` });
    const script: FileInput = { path: 'c.js', language: 'javascript', text: 'run0();\n' };
    const python: FileInput = { path: 'd.py', language: 'python', text: 'run0()\n' };
    expect([...scannedFiles([view('a.tsx', 0), view('b.tsx', 1), script, python], probes)]).toEqual([]);
    // A fourth compile passes the three rules' one scan: every TSX file is scanned, and so is the
    // JavaScript file, which parses alike and has the same rules (the scan compiles nothing more for it).
    expect([...scannedFiles([view('a.tsx', 0), view('b.tsx', 1), view('e.tsx', 2), view('f.tsx', 0), script, python], probes)]).toEqual([0, 1, 2, 3, 4]);
    expect([...scannedFiles([script, view('a.tsx', 0), view('b.tsx', 1), view('e.tsx', 2), view('f.tsx', 0)], probes)]).toEqual([0, 1, 2, 3, 4]);
  });
});
