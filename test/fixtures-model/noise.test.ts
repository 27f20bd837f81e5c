import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Report } from '../../src/report/schema.js';
import { RUBRIC } from '../helpers.js';
import { capsOf, cited, DIMENSIONS, layeredRepo, levelsOf } from './support.js';

/** Each level that differs, with the evidence the noisy report cites for it (which overlay file moved it). */
function moved(base: Report, noisy: Report): string[] {
  return noisy.criteria.flatMap((c) => {
    const before = base.criteria.find((x) => x.id === c.id)!;
    return DIMENSIONS.filter((d) => c.levels[d] !== before.levels[d]).map(
      (d) => `${c.id}.${d} L${before.levels[d]}→L${c.levels[d]} from ${cited(c.dimensions[d].evidence)}`,
    );
  });
}

// Issue 11: comments, docstrings, prose strings, an unused import, uncalled definitions, a dev container,
// tests, docs, examples and dev scripts added on top of an agent must not move any level.
describe.each(['noise-agent', 'noise-agent-ts'])('%s: base and base + overlay', (name) => {
  let base: Report;
  let noisy: Report;
  beforeAll(async () => {
    base = await audit(layeredRepo(name, [`${name}/base`]), { rubricDir: RUBRIC });
    noisy = await audit(layeredRepo(name, [`${name}/base`, `${name}/overlay`]), { rubricDir: RUBRIC });
  });

  it('gives the same 40 levels', () => {
    expect(Object.keys(levelsOf(noisy))).toHaveLength(40);
    expect(moved(base, noisy)).toEqual([]);
    expect(levelsOf(noisy)).toEqual(levelsOf(base));
  });

  it('fires the same caps', () => {
    expect(capsOf(noisy)).toEqual(capsOf(base));
  });

  it('gives the same total', () => {
    expect(noisy.totalNumerator).toBe(base.totalNumerator);
  });
});
