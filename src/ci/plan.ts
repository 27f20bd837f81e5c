import { InputError } from '../acquire/types.js';
import type { Gates } from '../diff/gates.js';
import type { Report } from '../report/schema.js';

/** The CI flags of `score`, as commander gives them. */
export interface CiFlags {
  baseline?: string;
  failUnder?: string;
  failOnRegression?: boolean;
  sarifMinLevel?: string;
}

export interface CiPlan {
  baseline: Report | null;
  gates: Gates;
  sarifMinLevel: number;
}

/**
 * Checks the CI flags and reads the baseline before anything is scored, so bad input fails fast
 * with exit 2. The report reader (and the schema library under it) is loaded only for a baseline.
 */
export async function planCi(flags: CiFlags): Promise<CiPlan> {
  const gates: Gates = { failOnRegression: flags.failOnRegression === true };
  if (flags.failUnder !== undefined) {
    const v = flags.failUnder.trim();
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) > 10) throw new InputError(`--fail-under '${flags.failUnder}': expected a total from 0 to 10`);
    gates.failUnder = Number(v);
  }
  let sarifMinLevel = 2;
  if (flags.sarifMinLevel !== undefined) {
    const m = /^L?([0-4])$/i.exec(flags.sarifMinLevel.trim());
    if (!m) throw new InputError(`--sarif-min-level '${flags.sarifMinLevel}': expected a level from 0 to 4`);
    sarifMinLevel = Number(m[1]);
  }
  if (gates.failOnRegression && flags.baseline === undefined) throw new InputError('--fail-on-regression needs --baseline <old.json> (a report to compare with)');
  const baseline = flags.baseline === undefined ? null : (await import('../report/read.js')).readReport(flags.baseline);
  return { baseline, gates, sarifMinLevel };
}
