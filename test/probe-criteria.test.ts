import { describe, expect, it } from 'vitest';
import { probesIn } from '../src/evaluate/rules.js';
import { loadRubric } from '../src/rubric/load.js';
import { DIMENSIONS, type Rubric } from '../src/rubric/schema.js';
import { RUBRIC } from './helpers.js';

/**
 * Issue 11, item 6: a probe's `criteria:` list is the set of criteria whose rules read it, directly
 * or through a shared condition (criteria level rules and caps). The list decides where a probe is
 * reported as found or missing, so a stale list misreports a criterion.
 *
 * CHECKED: the probe families brought to this bar so far; add a family once its lists follow its
 * readers.
 */
const CHECKED = /^sandbox\./;

const LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;

/** Probe id → the criteria whose level rules or caps read it. */
function readersOf(rubric: Rubric): Map<string, Set<string>> {
  const readers = new Map<string, Set<string>>();
  const add = (probe: string, criterion: string) => {
    if (!readers.has(probe)) readers.set(probe, new Set());
    readers.get(probe)!.add(criterion);
  };
  const conditions = rubric.file.conditions;
  for (const c of rubric.criteria) {
    for (const d of DIMENSIONS) for (const l of LEVELS) for (const p of c[d][l].when ? probesIn(c[d][l].when!, conditions) : []) add(p, c.id);
  }
  for (const cap of rubric.file.caps) for (const p of probesIn(cap.when, conditions)) add(p, cap.criterion);
  return readers;
}

describe('probe criteria lists follow the rules that read them', () => {
  const rubric = loadRubric(RUBRIC);
  const readers = readersOf(rubric);

  it.each(rubric.probes.filter((p) => CHECKED.test(p.id)).map((p) => [p.id, p] as const))('%s', (id, probe) => {
    expect([...probe.criteria].sort()).toEqual([...(readers.get(id) ?? [])].sort());
  });

  it('finds readers through shared conditions', () => {
    // sandbox.os is named only in rubric.yaml's isolated-any condition, which C4, C3 and C5 rules read.
    expect([...(readers.get('sandbox.os') ?? [])]).toEqual(expect.arrayContaining(['C3', 'C4', 'C5']));
    // sandbox.fallback-flag is named only in C4's D ladder.
    expect([...(readers.get('sandbox.fallback-flag') ?? [])]).toEqual(['C4']);
  });
});
