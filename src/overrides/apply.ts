import type { Evaluation } from '../evaluate/index.js';
import { DIMENSIONS } from '../rubric/names.js';
import type { Rubric } from '../rubric/schema.js';
import type { Overrides } from './schema.js';

const LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;

/**
 * Applies a reviewer's corrections to the tool's evaluation, before scoring, so totals, critical
 * gaps and improvements follow the final levels. Every dimension comes out marked automated or
 * reviewed; the tool's own evidence stays, beside the reviewer's reason.
 */
export function applyOverrides(rubric: Rubric, evaluation: Evaluation, overrides?: Overrides): Evaluation {
  const byId = new Map(rubric.criteria.map((c) => [c.id, c]));
  const criteria = evaluation.criteria.map((c) => {
    const mine = overrides?.levels[c.id] ?? {};
    const dimensions = { ...c.dimensions };
    const levels = { ...c.levels };
    for (const d of DIMENSIONS) {
      const o = mine[d];
      const auto = c.dimensions[d];
      if (!o) {
        dimensions[d] = { ...auto, source: 'automated' };
        continue;
      }
      const ladder = byId.get(c.id)![d];
      const spec = ladder[LEVELS[o.level]!];
      // A reviewer who confirms the tool's level keeps the words the tool chose for the code it saw
      // (an `instead` or `otherwise` meaning); another level is the ladder's claim, in its words.
      const same = o.level === auto.level;
      dimensions[d] = {
        ...auto,
        level: o.level,
        means: same ? auto.means : spec.means,
        next: same ? auto.next : o.level < 4 ? (spec.gap ?? ladder[LEVELS[o.level + 1]!].means) : null,
        source: 'reviewed',
        reviewer: { reason: o.reason, evidence: o.evidence, automatedLevel: auto.level },
      };
      levels[d] = o.level;
    }
    return { ...c, levels, dimensions };
  });

  const surface = evaluation.surface.map((s) => {
    const o = overrides?.surface[s.id];
    return o ? { ...s, value: o.value, reviewer: { reason: o.reason, evidence: o.evidence, automated: s.value } } : s;
  });
  const leg = (k: 'A' | 'B' | 'C') => {
    const l = evaluation.ruleOfTwo[k];
    const o = overrides?.ruleOfTwo[k];
    return o ? { ...l, holds: o.holds, reviewer: { reason: o.reason, evidence: o.evidence, automated: l.holds } } : l;
  };
  const A = leg('A');
  const B = leg('B');
  const C = leg('C');
  return { criteria, surface, ruleOfTwo: { A, B, C, sameDefaultSession: A.holds && B.holds && C.holds } };
}

/** Limitations lines saying how much of the scorecard a person decided rather than the tool. */
export function reviewNotes(evaluation: Evaluation): string[] {
  const dims = evaluation.criteria.flatMap((c) => DIMENSIONS.map((d) => ({ id: `${c.id} ${d}`, x: c.dimensions[d] })));
  const reviewed = dims.filter((d) => d.x.source === 'reviewed');
  const out: string[] = [];
  if (reviewed.length) {
    const changed = reviewed.filter((d) => d.x.reviewer!.automatedLevel !== d.x.level).length;
    out.push(
      `${reviewed.length} of ${dims.length} levels were reviewed by a person (${reviewed.map((d) => d.id).join(', ')}; ${changed} changed from the tool's level); the other ${dims.length - reviewed.length} are the tool's.`,
    );
  }
  const surface = evaluation.surface.filter((s) => s.reviewer).map((s) => s.label);
  const legs = (['A', 'B', 'C'] as const).filter((k) => evaluation.ruleOfTwo[k].reviewer).map((k) => `[${k}]`);
  if (surface.length || legs.length)
    out.push(`Reviewed by a person rather than the tool: ${[...surface.map((l) => `agent surface ${l}`), ...legs.map((l) => `Rule-of-Two leg ${l}`)].join(', ')}.`);
  return out;
}
