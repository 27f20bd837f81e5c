import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceFile } from '../../src/inventory/index.js';
import { TsChecker } from '../../src/probes/engines/ts.js';
import { parseCounts, resetParseCounts } from '../../src/probes/stats.js';
import { probeSchema } from '../../src/rubric/schema.js';

// No shipped probe uses the engine today (an AI SDK call without stopWhen runs one step, so the
// probe that looked for one was retired); this one exercises it: a model call given tools whose
// options, spread from another file or not, carry no step limit.
const probe = probeSchema.parse({
  id: 'test.typed-uncapped',
  title: 'model call with tools and no step limit',
  absent: 'every model call with tools passes a step limit',
  criteria: ['C10'],
  engine: 'ts',
  languages: ['typescript'],
  calls: ['streamText', 'generateText'],
  withoutOption: ['stopWhen', 'maxSteps'],
  withOption: ['tools'],
  tests: {
    match: [{ lang: 'typescript', code: 'const r = streamText({ model, tools, messages })', matched: 'streamText({ model, tools, messages })' }],
    noMatch: [{ lang: 'typescript', code: 'const r = streamText({ model, tools, stopWhen: stepCountIs(8) })' }],
  },
});
const file = (path: string, text: string) => ({ path, language: 'typescript', text, lineStarts: [0] }) as SourceFile;

/** Every finding of the type-checked probe over these files, and how many files the compiler parsed for them. */
function check(files: SourceFile[], cache: string, purpose?: 'verify') {
  resetParseCounts();
  const checker = new TsChecker(files, { dir: cache, build: 'test', ...(purpose ? { purpose } : {}) });
  const found = files.flatMap((f) => checker.run(probe, f).map((x) => `${x.path}:${x.startLine}`));
  return { found, parsed: parseCounts['ts-morph'] ?? 0 };
}

describe('type-checked findings kept between audits', () => {
  const options = file('src/options.ts', 'export const loopOptions = { stopWhen: stepCountIs(5) };\n');
  const guarded = file('src/chat.ts', "import { loopOptions } from './options';\nexport const r = streamText({ model, tools, ...loopOptions });\n");
  const open = file('src/run.ts', 'export const r = streamText({ model, tools, messages });\n');
  const other = file('src/other.ts', 'export const n = 1;\n');

  it('checks a file again only when it or a file its types come from changed', () => {
    const cache = mkdtempSync(join(tmpdir(), 'typed-'));
    const cold = check([options, guarded, open, other], cache);
    expect(cold.found).toEqual(['src/run.ts:1']);
    expect(cold.parsed).toBeGreaterThan(0);
    // Same content: answered from the cache, the compiler never parses a file.
    expect(check([options, guarded, open, other], cache)).toEqual({ found: ['src/run.ts:1'], parsed: 0 });
    // A file no checked file imports changes: still nothing to parse.
    expect(check([options, guarded, open, file('src/other.ts', 'export const n = 2;\n')], cache)).toEqual({ found: ['src/run.ts:1'], parsed: 0 });
    // The imported options lose the step limit: the importing file is checked again (it and what it imports), and now found.
    const changed = check([file('src/options.ts', 'export const loopOptions = { temperature: 0 };\n'), guarded, open, other], cache);
    expect(changed.found).toEqual(['src/chat.ts:2', 'src/run.ts:1']);
    expect(changed.parsed).toBe(2);
    // The same files checked with no cache give the same findings.
    const uncached = new TsChecker([file('src/options.ts', 'export const loopOptions = { temperature: 0 };\n'), guarded, open, other]);
    expect([guarded, open].flatMap((f) => uncached.run(probe, f).map((x) => `${x.path}:${x.startLine}`))).toEqual(changed.found);
  });

  it('keeps verification apart: its re-check never reads back what the audit found', () => {
    const cache = mkdtempSync(join(tmpdir(), 'typed-'));
    check([open], cache);
    expect(check([open], cache, 'verify').parsed).toBe(1);
    expect(check([open], cache, 'verify').parsed).toBe(0);
  });
});
