import { defaultCacheDir, locate, type AcquireOptions } from './acquire/index.js';
import { toolBuild } from './cache/build.js';
import { readCachedReport, resultKey, writeCachedReport } from './cache/results.js';
import { loadRubricCached } from './cache/rubric.js';
import type { Limits } from './inventory/index.js';
import type { Report } from './report/schema.js';

export { TOOL } from './tool.js';

export interface AuditOptions extends AcquireOptions {
  rubricDir: string;
  limits?: Limits;
  name?: string;
  whatItIs?: string;
  category?: string;
  scoredConfiguration?: string;
  surfacesScored?: string[];
  /** A reviewer's overrides file (YAML): levels, surface and Rule-of-Two answers with reasons. */
  overrides?: string;
  /** An earlier report: the 'Re-audit log' then lists what moved since it. */
  baseline?: Report;
  /** Reuse (and store) finished reports of pinned commits: off unless true. */
  resultCache?: boolean;
  /**
   * Reuse (and store) per-file facts by content, rubric plan and tool build, in the cache folder:
   * on unless false. Facts are a pure function of those keys, so this changes speed, never a report.
   */
  factsCache?: boolean;
  /** Score a target that shows no sign of being an agent (no model call, no tool, no code runner). */
  force?: boolean;
  /** Called at each stage with a short line for a person watching (the CLI prints it on a terminal). */
  progress?: (line: string) => void;
}

/**
 * The whole pipeline for one target: acquire → inventory → probe → evaluate → score → verify.
 * With `resultCache`, a pinned commit already audited by this build with this rubric and these
 * options is answered from the cache folder without reading the tree again, and without loading
 * the pipeline's modules (see pipeline.ts): only what reading the cache needs.
 */
export async function audit(target: string, opts: AuditOptions): Promise<Report> {
  if (!opts.resultCache) return (await auditDetailed(target, opts)).report;
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  const rubric = await loadRubricCached(opts.rubricDir, cacheDir);
  // A malformed overrides file fails before anything is fetched, as on the uncached path.
  const overrides = opts.overrides === undefined ? undefined : (await import('./overrides/index.js')).loadOverrides(opts.overrides, rubric);
  // The tree is listed only when the report has to be computed (or a working tree's dirty files counted).
  const located = await locate(target, opts);
  const { baseline, progress, resultCache, factsCache: _f, cacheDir: _c, commit: _p, rubricDir: _r, overrides: _o, ...options } = opts;
  const key = located.commit === null ? null : resultKey({ tool: toolBuild(), rubricHash: rubric.hash, commit: located.commit, options: { ...options, overrides: overrides ?? null, webUrl: located.webUrl, name: located.name, dirty: located.listed?.dirtyFiles ?? 0 } });
  const hit = key ? readCachedReport(cacheDir, key) : null;
  if (hit) {
    progress?.(`result cache: ${located.commit} already audited with rubric ${rubric.file.id} ${rubric.file.version}`);
    if (baseline) {
      const [{ diffReports }, { reauditLog }] = await Promise.all([import('./diff/compare.js'), import('./diff/log.js')]);
      hit.reaudit = reauditLog(diffReports(baseline, hit));
    }
    return hit;
  }
  const { report } = await auditDetailed(target, opts, { snapshot: await located.snapshot(), rubric, overrides });
  if (key) writeCachedReport(cacheDir, key, { ...report, reaudit: [FIRST_AUDIT] });
  return report;
}

export const FIRST_AUDIT = 'No earlier report to compare with: this is the first audit in this run.';

type Pipeline = typeof import('./pipeline.js');

/** The pipeline (pipeline.ts), loaded when a report has to be computed. */
export async function auditDetailed(...args: Parameters<Pipeline['auditDetailed']>): ReturnType<Pipeline['auditDetailed']> {
  return (await import('./pipeline.js')).auditDetailed(...args);
}
