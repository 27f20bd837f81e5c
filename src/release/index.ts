import type { AcquireOptions } from '../acquire/index.js';
import { auditDetailed, TOOL } from '../audit.js';
import { checkItems } from '../checklist/items.js';
import { readClaims } from '../claims/index.js';
import { verifyEvidence } from '../evaluate/verify.js';
import { DEFAULT_LIMITS, type Limits } from '../inventory/index.js';
import { regressionsSince } from './baseline.js';
import type { Baseline, ReleaseReport } from './schema.js';

export interface ReleaseOptions extends AcquireOptions {
  rubricDir: string;
  limits?: Limits;
  name?: string;
  /** A previous `checklist --format json` output, and the name to show for it. */
  baseline?: { data: Baseline; name: string };
}

/**
 * `audit checklist`: the audit pipeline's probe results, read two ways: the rubric's checklist
 * items, and the target's own security claims; their evidence verified against the same snapshot.
 */
export async function runReleaseCheck(target: string, opts: ReleaseOptions): Promise<ReleaseReport> {
  const { rubricDir, limits = DEFAULT_LIMITS, commit, cacheDir } = opts;
  const { results, rubric, snapshot, inventory } = await auditDetailed(target, { rubricDir, limits, ...(commit !== undefined ? { commit } : {}), ...(cacheDir !== undefined ? { cacheDir } : {}) });
  const base = { webUrl: snapshot.webUrl, commit: snapshot.commit };
  const shownDir = `rubrics/${rubric.file.id}`;

  const items = checkItems(rubric.checklist ?? [], { results, conditions: rubric.file.conditions }, base, shownDir);
  const { documents, claims, unmapped, disclaimers } = rubric.claims
    ? await readClaims(snapshot, rubric.claims, results, shownDir, limits.maxFileBytes)
    : { documents: [], claims: [], unmapped: [], disclaimers: [] };
  await verifyEvidence(
    [...items.flatMap((i) => i.evidence), ...claims.flatMap((c) => c.evidence)],
    snapshot,
    rubric,
    inventory.files,
    limits.maxFileBytes,
  );

  const regressions = opts.baseline ? regressionsSince(opts.baseline.data, items, claims) : [];
  const count = <T>(xs: T[], pred: (x: T) => boolean) => xs.filter(pred).length;
  const usedCriteria = new Set(items.map((i) => i.criterion));
  return {
    tool: TOOL,
    rubric: { id: rubric.file.id, version: rubric.file.version, hash: rubric.hash },
    target: { name: opts.name ?? snapshot.name, repo: snapshot.webUrl ?? snapshot.name, webUrl: snapshot.webUrl, commit: snapshot.commit, kind: snapshot.kind },
    criteria: rubric.criteria.filter((c) => usedCriteria.has(c.id)).map((c) => ({ id: c.id, title: c.title })),
    summary: {
      pass: count(items, (i) => i.status === 'pass'),
      fail: count(items, (i) => i.status === 'fail'),
      manual: count(items, (i) => i.status === 'manual'),
      holds: count(claims, (c) => c.verdict === 'holds'),
      partly: count(claims, (c) => c.verdict === 'partly'),
      notFound: count(claims, (c) => c.verdict === 'not-found'),
      contradicted: count(claims, (c) => c.verdict === 'contradicted'),
      unmapped: unmapped.length,
      regressions: regressions.length,
    },
    items,
    documents,
    claims,
    unmapped,
    disclaimers,
    baseline: opts.baseline?.name ?? null,
    regressions,
  };
}
