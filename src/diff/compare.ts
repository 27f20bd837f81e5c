import type { Report } from '../report/schema.js';
import { DIMENSIONS, type Dimension } from '../rubric/names.js';
import { evidenceDelta, type EvidenceDelta } from './evidence.js';

/** What the re-audit log says about each report it compares. */
export interface Side {
  repo: string;
  name: string;
  commit: string | null;
  tool: Report['tool'];
  rubric: Report['rubric'];
  totalNumerator: number;
  denominator: number;
  band: string;
}

export interface DimensionMove extends EvidenceDelta {
  dimension: Dimension;
  from: number;
  to: number;
  fromMeans: string;
  toMeans: string;
}

export interface CapMove extends EvidenceDelta {
  from: number | null;
  to: number | null;
  fromReason: string | null;
  toReason: string | null;
}

export interface CriterionMove {
  id: string;
  title: string;
  denominator: number;
  fromScore: number;
  toScore: number;
  /** Only the dimensions whose level moved. */
  dimensions: DimensionMove[];
  cap: CapMove | null;
}

export interface SurfaceMove {
  id: string;
  label: string;
  from: string;
  to: string;
}

export type Regression =
  | { kind: 'level'; criterion: string; dimension: Dimension; from: number; to: number }
  | { kind: 'cap'; criterion: string; from: number | null; to: number; reason: string }
  | { kind: 'critical-gap'; criterion: string; reason: string };

/**
 * 'code': same rubric, so every movement comes from the code. 'rubric': same commit, other rubric, so
 * every movement comes from the rubric. 'incomparable': both changed; levels are not compared, because
 * a rubric change must never be passed off as a code change (METHOD §10).
 */
export type Comparison = 'code' | 'rubric' | 'incomparable';

export interface ReportDiff {
  from: Side;
  to: Side;
  comparison: Comparison;
  criteria: CriterionMove[];
  criteriaAdded: string[];
  criteriaRemoved: string[];
  surface: SurfaceMove[];
  ruleOfTwo: { from: boolean; to: boolean } | null;
  criticalGaps: { added: Report['criticalGaps']; removed: Report['criticalGaps'] };
  /** Levels that dropped, caps newly fired, critical gaps added; only for a 'code' comparison. */
  regressions: Regression[];
  /** False exactly when the log says "No changes." */
  changed: boolean;
}

function sideOf(r: Report): Side {
  return {
    repo: r.target.repo,
    name: r.target.name,
    commit: r.target.commit,
    tool: r.tool,
    rubric: r.rubric,
    totalNumerator: r.totalNumerator,
    denominator: r.criteria[0]?.denominator ?? 40,
    band: r.band,
  };
}

export function sameRubric(a: Report['rubric'], b: Report['rubric']): boolean {
  return a.id === b.id && a.version === b.version && a.hash === b.hash;
}

function comparisonOf(before: Report, after: Report): Comparison {
  if (sameRubric(before.rubric, after.rubric)) return 'code';
  return before.target.commit !== null && before.target.commit === after.target.commit ? 'rubric' : 'incomparable';
}

type Criterion = Report['criteria'][number];

function criterionMove(a: Criterion, b: Criterion): CriterionMove | null {
  const dimensions: DimensionMove[] = DIMENSIONS.filter((d) => a.levels[d] !== b.levels[d]).map((d) => ({
    dimension: d,
    from: a.levels[d],
    to: b.levels[d],
    fromMeans: a.dimensions[d].means,
    toMeans: b.dimensions[d].means,
    ...evidenceDelta(a.dimensions[d].evidence, b.dimensions[d].evidence),
  }));
  const capMoved = a.cap !== b.cap || a.capReason !== b.capReason;
  const cap: CapMove | null = capMoved ? { from: a.cap, to: b.cap, fromReason: a.capReason, toReason: b.capReason, ...evidenceDelta(a.capEvidence, b.capEvidence) } : null;
  const scoreMoved = a.scoreNumerator * b.denominator !== b.scoreNumerator * a.denominator;
  if (!dimensions.length && !cap && !scoreMoved) return null;
  return { id: b.id, title: b.title, denominator: b.denominator, fromScore: a.scoreNumerator, toScore: b.scoreNumerator, dimensions, cap };
}

function regressionsOf(criteria: CriterionMove[], gapsAdded: Report['criticalGaps']): Regression[] {
  const out: Regression[] = [];
  for (const c of criteria) {
    for (const m of c.dimensions) if (m.to < m.from) out.push({ kind: 'level', criterion: c.id, dimension: m.dimension, from: m.from, to: m.to });
    const cap = c.cap;
    if (cap && cap.to !== null && (cap.from === null || cap.to < cap.from)) out.push({ kind: 'cap', criterion: c.id, from: cap.from, to: cap.to, reason: cap.toReason ?? '' });
  }
  for (const g of gapsAdded) out.push({ kind: 'critical-gap', criterion: g.criterion, reason: g.reason });
  return out;
}

/** The re-audit of `after` against `before`: pure, ordered as the new report orders criteria. */
export function diffReports(before: Report, after: Report): ReportDiff {
  const from = sideOf(before);
  const to = sideOf(after);
  const comparison = comparisonOf(before, after);
  const totalMoved = from.totalNumerator * to.denominator !== to.totalNumerator * from.denominator;
  if (comparison === 'incomparable') {
    return { from, to, comparison, criteria: [], criteriaAdded: [], criteriaRemoved: [], surface: [], ruleOfTwo: null, criticalGaps: { added: [], removed: [] }, regressions: [], changed: true };
  }

  const old = new Map(before.criteria.map((c) => [c.id, c]));
  const now = new Set(after.criteria.map((c) => c.id));
  const criteria = after.criteria.flatMap((c) => {
    const o = old.get(c.id);
    const m = o ? criterionMove(o, c) : null;
    return m ? [m] : [];
  });
  const criteriaAdded = after.criteria.filter((c) => !old.has(c.id)).map((c) => c.id);
  const criteriaRemoved = before.criteria.filter((c) => !now.has(c.id)).map((c) => c.id);

  const oldSurface = new Map(before.surface.map((s) => [s.id, s.value]));
  const surface = after.surface.flatMap((s) => {
    const was = oldSurface.get(s.id);
    return was !== undefined && was !== s.value ? [{ id: s.id, label: s.label, from: was, to: s.value }] : [];
  });
  const ruleOfTwo = before.ruleOfTwo.sameDefaultSession !== after.ruleOfTwo.sameDefaultSession ? { from: before.ruleOfTwo.sameDefaultSession, to: after.ruleOfTwo.sameDefaultSession } : null;

  const oldGaps = new Set(before.criticalGaps.map((g) => g.criterion));
  const newGaps = new Set(after.criticalGaps.map((g) => g.criterion));
  const criticalGaps = { added: after.criticalGaps.filter((g) => !oldGaps.has(g.criterion)), removed: before.criticalGaps.filter((g) => !newGaps.has(g.criterion)) };

  const regressions = comparison === 'code' ? regressionsOf(criteria, criticalGaps.added) : [];
  const changed =
    comparison === 'rubric' ||
    totalMoved ||
    criteria.length > 0 ||
    criteriaAdded.length > 0 ||
    criteriaRemoved.length > 0 ||
    surface.length > 0 ||
    ruleOfTwo !== null ||
    criticalGaps.added.length > 0 ||
    criticalGaps.removed.length > 0;
  return { from, to, comparison, criteria, criteriaAdded, criteriaRemoved, surface, ruleOfTwo, criticalGaps, regressions, changed };
}
