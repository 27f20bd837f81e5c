import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeEntry } from '../cache/entry.js';
import type { FileFacts } from './extract.js';

/**
 * Per-file facts on disk, keyed by everything that decides them: the tool build, the plan (rubric
 * probes and model catalogue), the file's content id and its path. Re-auditing the next commit
 * then extracts only the files that changed. Entries are written to a temporary name and renamed,
 * so concurrent runs never see half an entry; an unreadable entry is a miss, never an error.
 */
export class FactsCache {
  private readonly dir: string;

  constructor(cacheDir: string, build: string, planKey: string) {
    this.dir = join(cacheDir, 'facts', createHash('sha256').update(build).update(planKey).digest('hex').slice(0, 16));
  }

  key(path: string, contentId: string): string {
    return createHash('sha256').update(path).update('\0').update(contentId).digest('hex');
  }

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The entry and its JSON text (what an in-process memo keeps: parsing it again is a fresh copy). */
  get(key: string): { facts: FileFacts; json: string } | null {
    try {
      const json = readFileSync(this.file(key), 'utf8');
      const facts = JSON.parse(json) as FileFacts;
      return Array.isArray(facts.findings) && Array.isArray(facts.read) && Array.isArray(facts.nonCode) && Array.isArray(facts.definitions) ? { facts, json } : null;
    } catch {
      return null;
    }
  }

  /** Stores an entry given as its JSON text (failing to write it never fails an audit). */
  set(key: string, json: string): void {
    writeEntry(this.file(key), json);
  }

  /**
   * Keeps the cache bounded: facts of other builds or rubrics are dropped once newer ones exist
   * (only the `keep` most recently used sets stay: an audit uses three, its own and the two its
   * verification searches with), and within a set the oldest entries go when it holds more than
   * `maxEntries` files.
   */
  prune(keep = 9, maxEntries = 200_000): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      utimesSync(this.dir, new Date(), new Date()); // in use: the newest set
      const root = join(this.dir, '..');
      const sets = readdirSync(root).map((n) => ({ n, t: statSync(join(root, n)).mtimeMs })).sort((a, b) => b.t - a.t);
      for (const s of sets.slice(keep)) if (join(root, s.n) !== this.dir) rmSync(join(root, s.n), { recursive: true, force: true });
      const entries: Array<{ f: string; t: number }> = [];
      for (const sub of readdirSync(this.dir)) for (const n of readdirSync(join(this.dir, sub))) entries.push({ f: join(this.dir, sub, n), t: 0 });
      if (entries.length <= maxEntries) return;
      for (const e of entries) e.t = statSync(e.f).mtimeMs;
      entries.sort((a, b) => a.t - b.t);
      for (const e of entries.slice(0, entries.length - maxEntries / 2)) rmSync(e.f, { force: true });
    } catch {
      /* pruning is best effort */
    }
  }
}
