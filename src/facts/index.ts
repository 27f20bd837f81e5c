import { createHash } from 'node:crypto';
import type { SourceFile } from '../inventory/index.js';
import { FactsCache } from './cache.js';
import { extractBatch, type FileFacts } from './extract.js';
import type { Plan } from './plan.js';
import { defaultPoolSize, FactsPool } from './pool.js';

export interface CollectOptions {
  /** Where per-file facts are kept between audits (none: extract everything). */
  cache?: { dir: string; build: string };
  /** Worker threads; 0 extracts on this thread. Default: one per core, or none for a small target. */
  workers?: number;
}

export interface Collected {
  facts: Map<string, FileFacts>;
  /** Files whose facts came from the cache folder, from this process's earlier audits, and files extracted in this run. */
  cached: number;
  remembered: number;
  extracted: number;
}

/**
 * Facts already extracted in this process, by plan and file content: a batch or a test suite that
 * audits the same files again (another commit, other options) parses only what changed. Bounded;
 * hits are copies, so no audit sees another's edits.
 */
const MEMO_MAX = 50_000;
const memo = new Map<string, FileFacts>();
function remember(key: string, facts: FileFacts): void {
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, facts);
}

/** Below this much text, starting workers costs more than it saves. */
const INLINE_BYTES = 1_500_000;

/**
 * The facts of every product file: from the cache where this build already read the same content
 * with the same plan, else extracted (in parallel for a large target). Keyed by path.
 */
export async function collectFacts(files: SourceFile[], plan: Plan, opts: CollectOptions = {}): Promise<Collected> {
  const cache = opts.cache ? new FactsCache(opts.cache.dir, opts.cache.build, plan.key) : null;
  const facts = new Map<string, FileFacts>();
  const todo: Array<{ file: SourceFile; key: string | null; memoKey: string }> = [];
  let remembered = 0;
  for (const file of files) {
    const id = file.contentId ?? createHash('sha1').update(file.text).digest('hex');
    const memoKey = `${plan.key}\0${file.path}\0${id}`;
    const seen = memo.get(memoKey);
    if (seen) {
      facts.set(file.path, structuredClone(seen));
      remembered++;
      continue;
    }
    const key = cache ? cache.key(file.path, id) : null;
    const hit = key ? cache!.get(key) : null;
    if (hit) {
      facts.set(file.path, hit);
      remember(memoKey, structuredClone(hit));
    } else todo.push({ file, key, memoKey });
  }
  const bytes = todo.reduce((n, t) => n + t.file.text.length, 0);
  const workers = opts.workers ?? (bytes < INLINE_BYTES ? 0 : defaultPoolSize());
  const inputs = todo.map(({ file }) => ({ path: file.path, language: file.language, text: file.text }));
  let extracted: FileFacts[];
  if (workers === 0) extracted = await extractBatch(inputs, plan);
  else {
    const pool = new FactsPool(plan, workers);
    try {
      extracted = await pool.extract(inputs);
    } finally {
      await pool.close();
    }
  }
  todo.forEach(({ file, key, memoKey }, i) => {
    facts.set(file.path, extracted[i]!);
    remember(memoKey, structuredClone(extracted[i]!));
    if (key) cache!.set(key, extracted[i]!);
  });
  if (cache && todo.length) cache.prune();
  return { facts, cached: files.length - todo.length - remembered, remembered, extracted: todo.length };
}
