import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeEntry } from './entry.js';
import type { Report } from '../report/schema.js';

/**
 * Finished reports keyed by everything that decides their content: tool version, rubric content
 * hash, the pinned commit and the options that change the output. A re-audit of an unchanged
 * commit is then a file read. Unpinned folders are never cached (their content has no id).
 */
export function resultKey(parts: { tool: string; rubricHash: string; commit: string; options: unknown }): string {
  return createHash('sha256').update(JSON.stringify([parts.tool, parts.rubricHash, parts.commit, parts.options])).digest('hex');
}

const pathOf = (cacheDir: string, key: string) => join(cacheDir, 'results', `${key.slice(0, 2)}`, `${key}.json`);

const digest = (json: string) => createHash('sha256').update(json).digest('hex');

/**
 * An entry is the report's JSON after a line holding its SHA-256: a torn or edited file (a crash
 * mid-write on a filesystem without atomic rename, a disk error, a hand edit) no longer matches and
 * is a miss. The key already pins the tool build, so the bytes that match are bytes this build
 * wrote from a validated report; checking the digest costs a millisecond where re-validating the
 * whole report against its schema cost about a fifth of a cached answer.
 */
export function readCachedReport(cacheDir: string, key: string): Report | null {
  try {
    const text = readFileSync(pathOf(cacheDir, key), 'utf8');
    const nl = text.indexOf('\n');
    const json = text.slice(nl + 1);
    if (nl !== 64 || text.slice(0, nl) !== digest(json)) return null;
    // The stored object itself: the cached answer must be byte-identical to the computed one.
    return JSON.parse(json) as Report;
  } catch {
    return null;
  }
}

export function writeCachedReport(cacheDir: string, key: string, report: Report): void {
  const json = JSON.stringify(report);
  writeEntry(pathOf(cacheDir, key), `${digest(json)}\n${json}`);
}
