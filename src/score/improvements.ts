import { DIMENSIONS, type Dimension } from '../rubric/names.js';
import { stepGain, type Levels, type Weights } from './arithmetic.js';

export interface ScoredCriterion {
  id: string;
  levels: Levels;
  scoreNumerator: number;
  capped: boolean;
  /** raw numerator and cap numerator, to tell whether a cap swallows a gain. */
  rawNumerator: number;
  capNumerator: number | null;
}

export interface Move {
  criterion: string;
  dimension: Dimension;
  from: number;
  to: number;
  gain: number;
  swallowedByCap: boolean;
}

const criterionOrder = (id: string) => Number(id.slice(1));

/**
 * METHOD §9: one-level moves ranked by the criterion's B (worst exposure first), then the gain,
 * then the criterion's current score, then criterion id; at most `perCriterion` per criterion.
 */
export function rankImprovements(criteria: ScoredCriterion[], weights: Weights, max = Infinity, perCriterion = 2): Move[] {
  const moves: Array<Move & { b: number; score: number; dimIndex: number }> = [];
  for (const c of criteria) {
    DIMENSIONS.forEach((d, dimIndex) => {
      const from = c.levels[d];
      if (from >= 4) return;
      // A fired cap swallows the gain, or part of it, when the raised raw score would pass it.
      const swallowedByCap = c.capNumerator !== null && c.rawNumerator + weights[d] > c.capNumerator;
      moves.push({ criterion: c.id, dimension: d, from, to: from + 1, gain: stepGain(d, weights), swallowedByCap, b: c.levels.B, score: c.scoreNumerator, dimIndex });
    });
  }
  moves.sort((x, y) => x.b - y.b || y.gain - x.gain || x.score - y.score || criterionOrder(x.criterion) - criterionOrder(y.criterion) || x.dimIndex - y.dimIndex);
  const taken = new Map<string, number>();
  const out: Move[] = [];
  for (const m of moves) {
    if (out.length >= max) break;
    const n = taken.get(m.criterion) ?? 0;
    if (n >= perCriterion) continue;
    taken.set(m.criterion, n + 1);
    out.push({ criterion: m.criterion, dimension: m.dimension, from: m.from, to: m.to, gain: m.gain, swallowedByCap: m.swallowedByCap });
  }
  return out;
}

/**
 * Moves grouped by the fix that makes them (the playbook step, else the action): one improvement
 * per fix, in the order of its best-ranked move, with the moves it makes and their combined gain.
 * Two moves of one fix ("run commands in an OS sandbox" raises C4 S and C4 C) are one line.
 */
export function groupByFix<M extends Move>(moves: M[], fixOf: (m: M) => string, max = 5): M[][] {
  const groups = new Map<string, M[]>();
  for (const m of moves) {
    const key = fixOf(m);
    if (!groups.has(key)) {
      if (groups.size >= max) continue;
      groups.set(key, []);
    }
    groups.get(key)!.push(m);
  }
  return [...groups.values()];
}
