import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportSchema, type Report } from '../report/schema.js';

/**
 * Finished reports keyed by everything that decides their content: tool version, rubric content
 * hash, the pinned commit and the options that change the output. A re-audit of an unchanged
 * commit is then a file read. Unpinned folders are never cached (their content has no id).
 */
export function resultKey(parts: { tool: string; rubricHash: string; commit: string; options: unknown }): string {
  return createHash('sha256').update(JSON.stringify([parts.tool, parts.rubricHash, parts.commit, parts.options])).digest('hex');
}

const pathOf = (cacheDir: string, key: string) => join(cacheDir, 'results', `${key.slice(0, 2)}`, `${key}.json`);

export function readCachedReport(cacheDir: string, key: string): Report | null {
  try {
    const raw = JSON.parse(readFileSync(pathOf(cacheDir, key), 'utf8')) as unknown;
    // Validate, but return the stored object itself: zod's output reorders keys, and the cached
    // answer must be byte-identical to the computed one.
    return reportSchema.safeParse(raw).success ? (raw as Report) : null;
  } catch {
    return null;
  }
}

export function writeCachedReport(cacheDir: string, key: string, report: Report): void {
  const file = pathOf(cacheDir, key);
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(report), { mode: 0o600 });
    renameSync(tmp, file); // atomic: a concurrent reader sees the old entry or the new one, never half
  } catch {
    /* the cache is an optimisation: failing to write it never fails an audit */
  }
}
