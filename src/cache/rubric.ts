import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DIST } from '../paths.js';
import { planOf, rememberPlan, type Plan } from '../facts/plan.js';
import type { Rubric } from '../rubric/schema.js';
import { folderHash, toolBuild } from './build.js';
import { writeEntry } from './entry.js';
import { defaultCacheDir } from '../acquire/cache.js';
import { keepBounded } from './memo.js';

/**
 * Rubrics validated when the tool was built (`npm run build` validates the bundled one), read-only:
 * a first audit with an empty cache does not parse and check every rule again.
 */
export const SHIPPED_CACHE = join(DIST, 'shipped');

/** A rubric folder's cache key: its bytes and this build. */
export const rubricKey = (dir: string, hash = folderHash(dir)) => `${hash}-${toolBuild().slice(0, 16)}`;

/**
 * Rubrics this process has read, by their bytes, this build and their folder: every audit in a
 * long-lived process (a batch, a test worker) would otherwise parse 3 MB of JSON and recompute
 * what is derived from its probes (search terms, prefilter words) afresh. They are frozen, so no
 * audit can change what the next one reads: two audits share the rubric's value and nothing else.
 */
const loaded = new Map<string, Rubric>();
const KEPT = 4;

function keep(key: string, rubric: Rubric): Rubric {
  return keepBounded(loaded, key, deepFreeze(rubric), KEPT);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Parsing and validating ~130 YAML files, and resolving the probes' rules for extraction, cost
 * seconds; a cached re-audit has to answer in under half of one. The validated rubric is stored as
 * JSON under the hash of the folder's bytes and this build, so any edit to any rubric file (or to
 * the tool) parses afresh. It is looked for in the cache folder, then among the rubrics the build
 * validated.
 */
export async function loadRubricCached(dir: string, cacheDir: string = defaultCacheDir()): Promise<Rubric> {
  const hash = folderHash(dir);
  const key = rubricKey(dir, hash);
  const seen = `${key}\0${resolve(dir)}`;
  const kept = loaded.get(seen);
  if (kept) return kept;
  const own = join(cacheDir, 'rubrics');
  for (const folder of [own, join(SHIPPED_CACHE, 'rubrics')]) {
    try {
      const cached = JSON.parse(readFileSync(join(folder, `${key}.json`), 'utf8')) as Rubric;
      const rubric = keep(seen, { ...cached, dir: resolve(dir) });
      rememberPlan(rubric, () => {
        try {
          return deepFreeze(JSON.parse(readFileSync(join(folder, `${key}.plan.json`), 'utf8')) as Plan);
        } catch {
          return null;
        }
      });
      return rubric;
    } catch {
      /* not cached there, or unreadable */
    }
  }
  // The YAML parser and the schemas load only here: an answer from the cache does not need them.
  const { loadRubric } = await import('../rubric/load.js');
  const rubric = keep(seen, loadRubric(dir, hash));
  // The extraction plan (rules resolved per language) is stored beside it, written first: it
  // depends on nothing else, and a rubric file found in the cache always has its plan.
  // (Frozen as the plan read from the cache is: the rubric, and so its plan, serve every later audit.)
  if (writeEntry(join(own, `${key}.plan.json`), JSON.stringify(deepFreeze(planOf(rubric))))) writeEntry(join(own, `${key}.json`), JSON.stringify(rubric));
  return rubric;
}
