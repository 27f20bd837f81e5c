import type { Evaluation } from '../evaluate/index.js';
import type { CriterionResult, Report } from '../report/schema.js';
import type { Rubric } from '../rubric/schema.js';
import { bandOf, denominatorOf, rawNumerator, scoreNumerator } from './arithmetic.js';
import { groupByFix, rankImprovements } from './improvements.js';

export interface Scored {
  criteria: CriterionResult[];
  total: number;
  totalNumerator: number;
  band: string;
  criticalGaps: Report['criticalGaps'];
  improvements: Report['improvements'];
}

/** METHOD §3, §5 and §9 over the evaluated levels: exact fortieths, caps, bands, ranked improvements. */
export function score(rubric: Rubric, evaluation: Evaluation): Scored {
  const w = rubric.file.weights;
  const den = denominatorOf(w);
  const criteria: CriterionResult[] = evaluation.criteria.map((c) => {
    const raw = rawNumerator(c.levels, w);
    const num = scoreNumerator(raw, c.cap, den);
    return { ...c, raw: raw / den, rawNumerator: raw, denominator: den, score: num / den, scoreNumerator: num };
  });
  const totalNumerator = criteria.reduce((s, c) => s + c.scoreNumerator, 0);
  const total = totalNumerator / den;

  const criticalGaps: Report['criticalGaps'] = [];
  for (const c of criteria) {
    if (c.cap !== null) criticalGaps.push({ criterion: c.id, reason: `capped at ${c.cap.toFixed(2)}: ${c.capReason}` });
    else if (c.levels.S === 0 && c.levels.B === 0) criticalGaps.push({ criterion: c.id, reason: 'no mechanism (S L0) and the worst blast radius (B L0)' });
  }

  const byId = new Map(rubric.criteria.map((c) => [c.id, c]));
  const moves = rankImprovements(
    criteria.map((c) => ({ id: c.id, levels: c.levels, scoreNumerator: c.scoreNumerator, rawNumerator: c.rawNumerator, capNumerator: c.cap === null ? null : Math.round(c.cap * den), capped: c.cap !== null })),
    w,
  );
  const described = moves.map((m) => {
    const spec = byId.get(m.criterion)![m.dimension][`L${m.from}` as 'L0'];
    return { ...m, action: spec.action ?? `Reach ${m.dimension} L${m.to}: ${byId.get(m.criterion)![m.dimension][`L${m.to}` as 'L0'].means}.`, playbook: spec.playbook ?? null };
  });
  const improvements = groupByFix(described, (m) => m.playbook ?? m.action).map((group) => {
    const first = group[0]!;
    return {
      ...first,
      gain: group.reduce((sum, m) => sum + m.gain, 0),
      swallowedByCap: group.some((m) => m.swallowedByCap),
      moves: group.map(({ criterion, dimension, from, to, gain, swallowedByCap }) => ({ criterion, dimension, from, to, gain, swallowedByCap })),
    };
  });
  return { criteria, total, totalNumerator, band: bandOf(total, rubric.file.bands), criticalGaps, improvements };
}
