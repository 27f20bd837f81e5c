import type { Dimension } from '../rubric/schema.js';

export type Weights = Record<Dimension, number>;
export type Levels = Record<Dimension, number>;

/** 4·Σweights: 40 for the method's 3,3,2,2. Scores are kept as integers over it so no float drift shows. */
export const denominatorOf = (w: Weights): number => 4 * (w.S + w.C + w.D + w.B);

/** raw = (3S + 3C + 2D + 2B) / 40, as its integer numerator. */
export const rawNumerator = (l: Levels, w: Weights): number => w.S * l.S + w.C * l.C + w.D * l.D + w.B * l.B;

/** score = min(raw, cap), both in fortieths; a cap is a multiple of 1/40 (checked when the rubric loads). */
export function scoreNumerator(raw: number, cap: number | null, denominator: number): number {
  return cap === null ? raw : Math.min(raw, Math.round(cap * denominator));
}

/** The value one level step on a dimension is worth, before caps (S or C: 0.075, D or B: 0.05). */
export const stepGain = (d: Dimension, w: Weights): number => w[d] / denominatorOf(w);

/** toFixed on the exact binary value: 23/40 → "0.57", 15/40 → "0.38", 189/40 → "4.7". */
export const showScore = (numerator: number, denominator: number): string => (numerator / denominator).toFixed(2);
export const showTotal = (numerator: number, denominator: number): string => (numerator / denominator).toFixed(1);

/** The band of the unrounded total: the last band whose minimum it reaches. */
export function bandOf(total: number, bands: Array<{ name: string; min: number }>): string {
  const sorted = [...bands].sort((a, b) => a.min - b.min);
  let band = sorted[0]!.name;
  for (const b of sorted) if (total >= b.min) band = b.name;
  return band;
}
