import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractBatch, extractFacts, type FileInput } from '../../src/facts/extract.js';
import { languageOf } from '../../src/inventory/classify.js';
import { planOf } from '../../src/facts/plan.js';
import { FactsPool } from '../../src/facts/pool.js';
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
/** The same files extracted on this thread, one by one: what every pool must reproduce. */
const alone = inputs.map((f) => extractFacts(f, plan));

/**
 * A worker that answers out of order, late, and twice: each request is answered after a delay that
 * grows with the order of arrival reversed, then a stale copy of an earlier answer (with an id no
 * longer open) arrives. The pool must put every answer with its own request.
 */
function slowWorker(): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-pool-'));
  const file = join(dir, 'worker.mjs');
  const extract = JSON.stringify(new URL('../../dist/facts/extract.js', import.meta.url).href);
  writeFileSync(
    file,
    `import { parentPort, workerData } from 'node:worker_threads';
import { extractFacts } from ${extract};
let n = 0;
let last = null;
parentPort.on('message', (req) => {
  const reply = { id: req.id, facts: req.files.map((f) => extractFacts(f, workerData.plan)) };
  const delay = Math.max(0, 60 - 15 * n++);
  setTimeout(() => {
    parentPort.postMessage(reply);
    if (last) parentPort.postMessage(last); // a late duplicate of an answer already taken
    last = reply;
  }, delay);
});
`,
  );
  return file;
}

describe('the fact-extraction worker pool', () => {
  it('puts late, reordered and duplicated answers with their own requests: no finding moves', async () => {
    expect(new Set(inputs.map((f) => f.language)).size).toBeGreaterThanOrEqual(4);
    // Small batches: many requests in flight, answered out of order.
    const pool = new FactsPool(plan, 3, slowWorker());
    try {
      const parts = await Promise.all(inputs.map((f) => pool.extract([f])));
      expect(parts.flat()).toEqual(alone);
    } finally {
      await pool.close();
    }
  });

  it('gives the same facts from the shipped worker as from this thread, in input order', async () => {
    const pool = new FactsPool(plan, 2);
    try {
      expect(await pool.extract(inputs)).toEqual(alone);
    } finally {
      await pool.close();
    }
  });

  it('gives the same facts from one multi-file scan (each rule compiled once) as from searching each file alone', async () => {
    expect(await extractBatch(inputs, plan, 'always')).toEqual(alone);
  });

  it('fails the run, naming the cause, when a worker fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-pool-'));
    const bad = join(dir, 'worker.mjs');
    writeFileSync(bad, `import { parentPort } from 'node:worker_threads'; parentPort.on('message', (req) => parentPort.postMessage({ id: req.id, error: 'parser exploded' }));`);
    const pool = new FactsPool(plan, 1, bad);
    try {
      await expect(pool.extract(inputs.slice(0, 3))).rejects.toThrow('fact extraction failed: parser exploded');
    } finally {
      await pool.close();
    }
  });
});
