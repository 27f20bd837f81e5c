import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractBatch, extractFacts, type FileInput } from '../../src/facts/extract.js';
import { languageOf } from '../../src/inventory/classify.js';
import { planOf } from '../../src/facts/plan.js';
import { SMALL_SCAN } from '../../src/facts/scan.js';
import { loadRubric } from '../../src/rubric/load.js';
import { ROOT, RUBRIC } from '../helpers.js';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Code files of the fixtures as the extractor sees them: the first 12 of each language, in path order. */
const perLanguage = new Map<string, number>();
const inputs: FileInput[] = walk(join(ROOT, 'fixtures'))
  .sort()
  .map((p) => ({ path: relative(ROOT, p), language: languageOf(p), text: readFileSync(p, 'utf8') }))
  .filter((f) => f.language !== null && (perLanguage.set(f.language, (perLanguage.get(f.language) ?? 0) + 1).get(f.language)! <= 12));
const plan = planOf(loadRubric(RUBRIC));
/** The same files searched one by one, each candidate rule on its own: what the batch must reproduce. */
const alone = inputs.map((f) => extractFacts(f, plan));

describe('fact extraction over a batch of files', () => {
  it('gives the same facts from one multi-file scan (each rule compiled once) as from searching each file alone, in input order', async () => {
    expect(new Set(inputs.map((f) => f.language)).size).toBeGreaterThanOrEqual(4);
    expect(await extractBatch(inputs, plan, 'always')).toEqual(alone);
  });

  it('gives the same facts from a scan large enough for the full prefilter (regexes in the gate) as from a small one (node kinds only)', async () => {
    // A file of plain code big enough to put its language's scan over the size where the gate changes.
    const filler = (line: string) => line.repeat(Math.ceil(SMALL_SCAN / line.length) + 1);
    const padded: FileInput[] = [...inputs, { path: 'pad.ts', language: 'typescript', text: filler('const a = b + 1;\n') }, { path: 'pad.py', language: 'python', text: filler('a = b + 1\n') }];
    const batch = await extractBatch(padded, plan, 'always');
    expect(batch.slice(0, inputs.length)).toEqual(alone);
    expect(alone.filter((f) => f.findings.length).length).toBeGreaterThan(inputs.length / 2);
  });

  it('gives the same facts whichever way it chooses to search, and for the files in any order', async () => {
    const reversed = [...inputs].reverse();
    expect(await extractBatch(reversed, plan)).toEqual([...alone].reverse());
  });
});

describe('text probes confined to files where another matched (`within` at file scope)', () => {
  const pinned = (f: FileInput) => extractFacts(f, plan).findings.filter((x) => x.probe === 'ext.pinned').map((x) => x.text);
  it('are searched only in such files: a version in a file with no extension catalog is not a finding', () => {
    expect(pinned({ path: 'package.json', language: null, text: '{"name": "x", "version": "1.2.3"}' })).toEqual([]);
    expect(pinned({ path: 'mcp.json', language: null, text: '{"mcpServers": {"fs": {"command": "npx", "version": "1.2.3"}}}' })).toEqual(['"version": "1.2.3"']);
  });
});
