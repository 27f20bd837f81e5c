import { createHash } from 'node:crypto';
import type { SourceFile } from '../inventory/index.js';
import { FactsCache } from './cache.js';
import { extractFacts, type FileFacts } from './extract.js';
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
  /** Files whose facts came from the cache, and files extracted in this run. */
  cached: number;
  extracted: number;
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
  const todo: Array<{ file: SourceFile; key: string | null }> = [];
  for (const file of files) {
    const key = cache ? cache.key(file.path, file.contentId ?? createHash('sha1').update(file.text).digest('hex')) : null;
    const hit = key ? cache!.get(key) : null;
    if (hit) facts.set(file.path, hit);
    else todo.push({ file, key });
  }
  const bytes = todo.reduce((n, t) => n + t.file.text.length, 0);
  const workers = opts.workers ?? (bytes < INLINE_BYTES ? 0 : defaultPoolSize());
  const inputs = todo.map(({ file }) => ({ path: file.path, language: file.language, text: file.text }));
  let extracted: FileFacts[];
  if (workers === 0) extracted = inputs.map((f) => extractFacts(f, plan));
  else {
    const pool = new FactsPool(plan, workers);
    try {
      extracted = await pool.extract(inputs);
    } finally {
      await pool.close();
    }
  }
  todo.forEach(({ file, key }, i) => {
    facts.set(file.path, extracted[i]!);
    if (key) cache!.set(key, extracted[i]!);
  });
  if (cache && todo.length) cache.prune();
  return { facts, cached: files.length - todo.length, extracted: todo.length };
}
