import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writeEntry } from '../cache/entry.js';
import type { FileFacts } from './extract.js';

/** A cached entry and its JSON text (what an in-process memo keeps: parsing it again is a fresh copy). */
export interface CachedFacts {
  facts: FileFacts;
  json: string;
}

const MAGIC = 'agent-audit facts pack 1';

/**
 * Per-file facts on disk, keyed by everything that decides them: the tool build, the plan (rubric
 * probes and model catalogue), the file's content id and its path. Re-auditing the next commit
 * then extracts only the files that changed.
 *
 * The entries an audit adds are kept together in one pack file, not one file each: creating a
 * file is what writing costs on some disks (0.7 ms a file on this project's test machine, 0.8 s of
 * a first audit of a 3,000-file repository), and reading thousands of small files costs a re-audit
 * as much. A first audit's pack holds every file; a re-audit of the next commit adds a small pack
 * of the files that changed; an audit whose entries came from several packs writes all of them as
 * one, so a lookup reads few packs. A pack is written under a temporary name and renamed, and
 * never changed after: concurrent runs see a whole pack or none, and a pack pruned while another
 * run reads it is a miss there, never an error.
 */
export class FactsCache {
  private readonly dir: string;

  constructor(cacheDir: string, build: string, planKey: string) {
    this.dir = join(cacheDir, 'facts', createHash('sha256').update(build).update(planKey).digest('hex').slice(0, 16));
  }

  key(path: string, contentId: string): string {
    return createHash('sha256').update(path).update('\0').update(contentId).digest('hex');
  }

  /** Packs of this set, newest first. */
  private packs(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((n) => n.endsWith('.pack'))
        .map((n) => ({ f: join(this.dir, n), t: statSync(join(this.dir, n)).mtimeMs }))
        .sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : 1))
        .map((p) => p.f);
    } catch {
      return [];
    }
  }

  /**
   * The entries of these keys found in the packs, newest pack first; a pack that answered is
   * marked as used, so pruning keeps it. Unreadable packs and malformed entries are misses.
   */
  lookup(keys: Iterable<string>): { found: Map<string, CachedFacts>; packsRead: number } {
    const wanted = new Set(keys);
    const found = new Map<string, CachedFacts>();
    let packsRead = 0;
    for (const pack of this.packs()) {
      if (found.size === wanted.size) break;
      let fd: number | null = null;
      try {
        fd = openSync(pack, 'r');
        const index = readIndex(fd);
        if (!index) continue;
        let used = false;
        for (const [key, at, length] of index.entries) {
          if (!wanted.has(key) || found.has(key)) continue;
          const buf = Buffer.alloc(length);
          if (readSync(fd, buf, 0, length, index.body + at) !== length) continue;
          const json = buf.toString('utf8');
          const facts = parseFacts(json);
          if (!facts) continue;
          found.set(key, { facts, json });
          used = true;
        }
        if (used) {
          utimesSync(pack, new Date(), new Date());
          packsRead++;
        }
      } catch {
        /* a pack pruned or unreadable: its entries are misses */
      } finally {
        if (fd !== null) closeSync(fd);
      }
    }
    return { found, packsRead };
  }

  /**
   * Stores entries as one pack (failing to write it never fails an audit). Its name is its
   * content's hash, so two runs that store the same entries write the same pack.
   */
  store(entries: Array<[string, string]>): void {
    if (!entries.length) return;
    const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const index: Array<[string, number, number]> = [];
    let at = 0;
    for (const [key, json] of sorted) {
      const length = Buffer.byteLength(json);
      index.push([key, at, length]);
      at += length;
    }
    const header = JSON.stringify(index);
    const text = `${MAGIC} ${Buffer.byteLength(header)}\n${header}\n${sorted.map(([, json]) => json).join('')}`;
    writeEntry(join(this.dir, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.pack`), text);
  }

  /**
   * Keeps the cache bounded: facts of other builds or rubrics are dropped once newer ones exist
   * (only the `keep` most recently used sets stay: an audit uses the one of its own plan), and
   * within a set only the `packs` most recently used packs.
   */
  prune(keep = 9, packs = 8): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      utimesSync(this.dir, new Date(), new Date()); // in use: the newest set
      const root = join(this.dir, '..');
      const sets = readdirSync(root).map((n) => ({ n, t: statSync(join(root, n)).mtimeMs })).sort((a, b) => b.t - a.t);
      for (const s of sets.slice(keep)) if (join(root, s.n) !== this.dir) rmSync(join(root, s.n), { recursive: true, force: true });
      for (const f of this.packs().slice(packs)) rmSync(f, { force: true });
      // A pack half written by a run that was killed (its temporary name) goes after an hour.
      const hourAgo = Date.now() - 3_600_000;
      for (const n of readdirSync(this.dir)) if (n.endsWith('.tmp') && statSync(join(this.dir, n)).mtimeMs < hourAgo) rmSync(join(this.dir, n), { force: true });
    } catch {
      /* pruning is best effort */
    }
  }
}

/** A pack's index: each entry's key, offset in the body and length in bytes; null for a file that is no pack. */
function readIndex(fd: number): { entries: Array<[string, number, number]>; body: number } | null {
  const head = Buffer.alloc(MAGIC.length + 24);
  const n = readSync(fd, head, 0, head.length, 0);
  const m = new RegExp(`^${MAGIC} (\\d{1,12})\\n`).exec(head.subarray(0, n).toString('latin1'));
  if (!m) return null;
  const start = m[0].length;
  const size = Number(m[1]);
  const buf = Buffer.alloc(size);
  if (readSync(fd, buf, 0, size, start) !== size) return null;
  const entries = JSON.parse(buf.toString('utf8')) as unknown;
  if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && Number.isSafeInteger(e[2]) && e[1] >= 0 && e[2] >= 0)) return null;
  return { entries: entries as Array<[string, number, number]>, body: start + size + 1 };
}

function parseFacts(json: string): FileFacts | null {
  try {
    const facts = JSON.parse(json) as FileFacts;
    return Array.isArray(facts.findings) && Array.isArray(facts.nonCode) && Array.isArray(facts.definitions) ? facts : null;
  } catch {
    return null;
  }
}
