import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST } from '../paths.js';
import { toolBuild } from '../cache/build.js';
import { writeEntry } from '../cache/entry.js';
import type { Matcher } from './scan.js';

/** The bundled rubric's matchers, stored by the build (see scripts/ship-rubric.mjs); read-only. */
export const SHIPPED_MATCHERS = join(DIST, 'shipped', 'matchers');

/** Matchers kept in a cache folder: a few per rubric version and tool build. */
const KEEP = 64;

/** A matcher's file name: from this build and the matcher's whole key (parser, rules, scan size). */
const nameOf = (key: string) => `${createHash('sha256').update(toolBuild()).update('\0').update(key).digest('hex')}.json`;

export const cacheMatchers = (cacheDir: string) => join(cacheDir, 'matchers');

/** A stored matcher: among the build's own, then in the cache folder; null when there is none (or it cannot be read). */
export function readMatcher(key: string, cacheDir?: string): Matcher | null {
  const name = nameOf(key);
  for (const dir of [SHIPPED_MATCHERS, ...(cacheDir ? [cacheMatchers(cacheDir)] : [])]) {
    try {
      const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Partial<Matcher> | null;
      if (m && typeof m.config === 'object' && Array.isArray(m.index?.kinds) && Array.isArray(m.index?.anyKind)) return m as Matcher;
    } catch {
      /* not stored there, or unreadable: built instead */
    }
  }
  return null;
}

/** Stores a matcher in `dir`, keeping the newest few there. A failed write is no error: it is built again next time. */
export function writeMatcher(key: string, dir: string, matcher: Matcher): void {
  if (!writeEntry(join(dir, nameOf(key)), JSON.stringify(matcher))) return;
  try {
    const entries = readdirSync(dir).filter((f) => f.endsWith('.json'));
    if (entries.length <= KEEP) return;
    const byAge = entries.map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs })).sort((a, b) => a.at - b.at);
    for (const { f } of byAge.slice(0, entries.length - KEEP)) rmSync(join(dir, f), { force: true });
  } catch {
    /* another run pruned first */
  }
}
