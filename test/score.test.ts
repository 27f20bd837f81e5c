import { describe, expect, it } from 'vitest';
import { bandOf, denominatorOf, rawNumerator, scoreNumerator, showScore, showTotal, stepGain } from '../src/score/arithmetic.js';
import { groupByFix, rankImprovements } from '../src/score/improvements.js';

const W = { S: 3, C: 3, D: 2, B: 2 };
const BANDS = [
  { name: 'Absent', min: 0 },
  { name: 'Weak', min: 2 },
  { name: 'Minimal', min: 4 },
  { name: 'Moderate', min: 6 },
  { name: 'Strong', min: 8 },
  { name: 'Exemplary', min: 9 },
];
// The ten rows of the Jan review (seed 002): levels and the displayed raw score.
const JAN: Array<[string, [number, number, number, number], string]> = [
  ['C1', [2, 2, 3, 2], '0.55'],
  ['C2', [3, 2, 2, 2], '0.57'],
  ['C3', [2, 2, 1, 2], '0.45'],
  ['C4', [3, 3, 4, 2], '0.75'],
  ['C5', [2, 1, 2, 1], '0.38'],
  ['C6', [2, 3, 3, 1], '0.57'],
  ['C7', [1, 1, 2, 1], '0.30'],
  ['C8', [2, 2, 2, 2], '0.50'],
  ['C9', [2, 2, 2, 1], '0.45'],
  ['C10', [1, 1, 1, 0], '0.20'],
];
const levels = ([S, C, D, B]: number[]) => ({ S: S!, C: C!, D: D!, B: B! });

describe('METHOD §3 arithmetic', () => {
  it('reproduces every Jan row as displayed', () => {
    for (const [, l, shown] of JAN) expect(showScore(rawNumerator(levels(l), W), denominatorOf(W))).toBe(shown);
  });
  it('keeps the exact fortieths the float sum would lose', () => {
    expect(rawNumerator(levels([2, 1, 2, 1]), W)).toBe(15); // C5: 0.375 → "0.38", not 0.37499…
    expect(rawNumerator(levels([2, 3, 3, 1]), W)).toBe(23);
    expect(0.3 * 2 + 0.3 * 1 + 0.2 * 2 + 0.2 * 1).not.toBe(0.375); // why the method counts in fortieths
  });
  it('totals Jan to 189/40, shown 4.7, band Minimal', () => {
    const total = JAN.reduce((s, [, l]) => s + rawNumerator(levels(l), W), 0);
    expect(total).toBe(189);
    expect(showTotal(total, 40)).toBe('4.7');
    expect(bandOf(total / 40, BANDS)).toBe('Minimal');
  });
  it('bands the unrounded total', () => {
    expect(showTotal(79, 40)).toBe('2.0');
    expect(bandOf(79 / 40, BANDS)).toBe('Absent'); // 1.975 shows 2.0 but is Absent
    expect(bandOf(2, BANDS)).toBe('Weak');
    expect(bandOf(8.999, BANDS)).toBe('Strong');
    expect(bandOf(10, BANDS)).toBe('Exemplary');
  });
  it('applies caps in fortieths', () => {
    expect(scoreNumerator(23, 0.25, 40)).toBe(10);
    expect(scoreNumerator(8, 0.25, 40)).toBe(8);
    expect(scoreNumerator(23, 0.2, 40)).toBe(8);
    expect(scoreNumerator(23, null, 40)).toBe(23);
  });
  it('values one level step at weight/4', () => {
    expect(stepGain('S', W)).toBe(0.075);
    expect(stepGain('C', W)).toBe(0.075);
    expect(stepGain('D', W)).toBe(0.05);
    expect(stepGain('B', W)).toBe(0.05);
  });
});

describe('METHOD §9 improvements', () => {
  const criteria = JAN.map(([id, l]) => {
    const raw = rawNumerator(levels(l), W);
    return { id, levels: levels(l), scoreNumerator: raw, rawNumerator: raw, capNumerator: null, capped: false };
  });
  it('ranks by B, then gain, then score, then id, at most two per criterion', () => {
    const moves = rankImprovements(criteria, W, 5);
    expect(moves.map((m) => `${m.criterion} ${m.dimension} L${m.from}→L${m.to} +${m.gain.toFixed(3)}`)).toEqual([
      'C10 S L1→L2 +0.075',
      'C10 C L1→L2 +0.075',
      'C7 S L1→L2 +0.075',
      'C7 C L1→L2 +0.075',
      'C5 S L2→L3 +0.075',
    ]);
  });
  it('says when a fired cap swallows the gain', () => {
    const capped = [{ id: 'C2', levels: levels([3, 2, 2, 2]), scoreNumerator: 10, rawNumerator: 23, capNumerator: 10, capped: true }];
    expect(rankImprovements(capped, W).every((m) => m.swallowedByCap)).toBe(true);
    const under = [{ id: 'C2', levels: levels([0, 0, 0, 0]), scoreNumerator: 0, rawNumerator: 0, capNumerator: 10, capped: true }];
    expect(rankImprovements(under, W).some((m) => m.swallowedByCap)).toBe(false);
  });
  it('groups moves by the fix that makes them, in the order of each fix’s best move, at most max fixes', () => {
    const moves = rankImprovements(criteria, W);
    const fix = (m: { criterion: string }) => (m.criterion === 'C7' || m.criterion === 'C10' ? 'one fix' : m.criterion);
    const groups = groupByFix(moves, fix, 3);
    expect(groups.map((g) => g.map((m) => `${m.criterion} ${m.dimension}`))).toEqual([['C10 S', 'C10 C', 'C7 S', 'C7 C'], ['C5 S', 'C5 C'], ['C9 S', 'C9 C']]);
  });
  it('skips dimensions already at L4', () => {
    const top = [{ id: 'C4', levels: levels([4, 4, 4, 3]), scoreNumerator: 38, rawNumerator: 38, capNumerator: null, capped: false }];
    expect(rankImprovements(top, W)).toEqual([{ criterion: 'C4', dimension: 'B', from: 3, to: 4, gain: 0.05, swallowedByCap: false }]);
  });
});
