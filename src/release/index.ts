import { acquire, type AcquireOptions } from '../acquire/index.js';
import { TOOL } from '../audit.js';
import { readSecurityDocuments } from '../claims/documents.js';
import { claimsOf, compileClaims } from '../claims/index.js';
import type { Claim, Disclaimer, Unmapped } from '../claims/schema.js';
import { verifyEvidence } from '../evaluate/verify.js';
import { probesIn, type RuleContext } from '../evaluate/rules.js';
import { buildInventory, DEFAULT_LIMITS, type Limits } from '../inventory/index.js';
import { runProbes } from '../probes/run.js';
import { loadRubric } from '../rubric/load.js';
import type { Probe, Rubric, Rule } from '../rubric/schema.js';
import { regressionsSince } from './baseline.js';
import { checkItems } from './items.js';
import type { Baseline, ChecklistReport } from './schema.js';

export interface ChecklistOptions extends AcquireOptions {
  rubricDir: string;
  limits?: Limits;
  name?: string;
  /** A previous `checklist --format json` output, and the name to show for it. */
  baseline?: { data: Baseline; name: string };
}


/** Only the probes the checklist and the claim matchers name, plus what they run `within`. */
function neededProbes(rubric: Rubric): Probe[] {
  const byId = new Map(rubric.probes.map((p) => [p.id, p]));
  const want = new Set([
    ...(rubric.checklist ?? []).flatMap((i) => (i.holds ? probesIn(i.holds, rubric.file.conditions) : [])),
    ...(rubric.claims?.matchers ?? []).flatMap((m) => m.probes),
  ]);
  for (const id of [...want]) for (let p = byId.get(id); p?.within && !want.has(p.within.probe); p = byId.get(p.within.probe)) want.add(p.within.probe);
  return rubric.probes.filter((p) => want.has(p.id));
}

/** acquire → inventory → probes → checklist items and claims → verify: the release self-audit of one target. */
export async function runChecklist(target: string, opts: ChecklistOptions): Promise<ChecklistReport> {
  const rubric = loadRubric(opts.rubricDir);
  const snapshot = await acquire(target, opts);
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const inventory = await buildInventory(snapshot, limits);
  const probes = neededProbes(rubric);
  const results = runProbes(probes, inventory.files);
  const base = { webUrl: snapshot.webUrl, commit: snapshot.commit };
  const rubricDir = `rubrics/${rubric.file.id}`;
  const ctx: RuleContext = { results, conditions: rubric.file.conditions };

  const items = checkItems(rubric.checklist ?? [], ctx, base, rubricDir);
  const documents = rubric.claims ? await readSecurityDocuments(snapshot, rubric.claims.documents, limits.maxFileBytes) : [];
  const claims: Claim[] = [];
  const unmapped: Unmapped[] = [];
  const disclaimers: Disclaimer[] = [];
  if (rubric.claims) {
    const spec = compileClaims(rubric.claims);
    for (const doc of documents) {
      if (doc.text === null) continue;
      const r = claimsOf({ path: doc.path, text: doc.text }, spec, results, base, rubricDir);
      claims.push(...r.claims);
      unmapped.push(...r.unmapped);
      disclaimers.push(...r.disclaimers);
    }
  }
  await verifyEvidence(
    [...items.flatMap((i) => i.evidence), ...claims.flatMap((c) => c.evidence)],
    snapshot,
    new Map(rubric.probes.map((p) => [p.id, p])),
    inventory.files.map((f) => f.path),
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
      unmapped: unmapped.length,
      regressions: regressions.length,
    },
    items,
    documents: documents.map((d) => ({ path: d.path, status: d.status })),
    claims,
    unmapped,
    disclaimers,
    baseline: opts.baseline?.name ?? null,
    regressions,
  };
}
