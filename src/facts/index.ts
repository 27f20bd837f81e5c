import { createHash } from 'node:crypto';
import type { SourceFile } from '../inventory/index.js';
import { type CachedFacts, FactsCache } from './cache.js';
import { extractBatch, type FileFacts } from './extract.js';
import type { Plan } from './plan.js';
import { keepBounded } from '../cache/memo.js';

export interface CollectOptions {
  /** Where per-file facts are kept between audits (none: extract everything). */
  cache?: { dir: string; build: string };
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
 * kept as JSON text (the form the cache folder stores anyway), so every hit is a fresh copy and no
 * audit sees another's edits, and an audit that never hits it pays no copy.
 */
const MEMO_MAX = 50_000;
const memo = new Map<string, string>();
function remember(key: string, json: string): void {
  keepBounded(memo, key, json, MEMO_MAX);
}

/** Packs an audit may read its cached entries from before it writes all of them as one. */
const COMPACT_AFTER = 3;

/**
 * The facts of every product file: from the cache where this build already read the same content
 * with the same plan, else extracted (in parallel for a large target). Keyed by path.
 */
export async function collectFacts(files: SourceFile[], plan: Plan, opts: CollectOptions = {}): Promise<Collected> {
  const cache = opts.cache ? new FactsCache(opts.cache.dir, opts.cache.build, plan.key) : null;
  const facts = new Map<string, FileFacts>();
  const todo: Array<{ file: SourceFile; key: string | null; memoKey: string }> = [];
  // Every entry this audit uses, and the ones it extracted: the packs it may leave for the next audit.
  const used: Array<[string, string]> = [];
  const added: Array<[string, string]> = [];
  let remembered = 0;
  const pending: Array<{ file: SourceFile; key: string | null; memoKey: string }> = [];
  for (const file of files) {
    const id = file.contentId ?? createHash('sha1').update(file.text).digest('hex');
    const memoKey = `${plan.key}\0${file.path}\0${id}`;
    const key = cache ? cache.key(file.path, id) : null;
    const seen = memo.get(memoKey);
    if (seen) {
      facts.set(file.path, JSON.parse(seen) as FileFacts);
      if (key) used.push([key, seen]);
      remembered++;
    } else pending.push({ file, key, memoKey });
  }
  const { found: hits, packsRead } = cache ? cache.lookup(pending.flatMap((p) => (p.key ? [p.key] : []))) : { found: new Map<string, CachedFacts>(), packsRead: 0 };
  for (const p of pending) {
    const hit = p.key ? hits.get(p.key) : undefined;
    if (hit) {
      facts.set(p.file.path, hit.facts);
      remember(p.memoKey, hit.json);
      used.push([p.key!, hit.json]);
    } else todo.push(p);
  }
  // One multi-file scan: ast-grep parses and matches in its own native threads (one per core), and
  // each file's facts are read from its tree on this thread as the scan reports it. Worker threads
  // on top of that took the same time on 2 cores and twice the memory (each compiles every rule).
  const extracted = await extractBatch(todo.map(({ file }) => ({ path: file.path, language: file.language, text: file.text })), plan, 'auto', opts.cache?.dir);
  todo.forEach(({ file, key, memoKey }, i) => {
    const json = JSON.stringify(extracted[i]!);
    facts.set(file.path, extracted[i]!);
    remember(memoKey, json);
    if (key) {
      used.push([key, json]);
      added.push([key, json]);
    }
  });
  // A pack is written only when something was extracted: an audit that found every entry leaves
  // the packs it read (marked as used) as they are. Usually only the new entries are written (a
  // next commit's few files); every entry the audit used, as one pack, once its entries came from
  // several packs, so a lookup never has to read many and pruning the oldest loses nothing in use.
  if (cache && todo.length) {
    cache.store(packsRead >= COMPACT_AFTER ? used : added);
    cache.prune();
  }
  return { facts, cached: files.length - todo.length - remembered, remembered, extracted: todo.length };
}
