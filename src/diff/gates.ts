import type { Report } from '../report/schema.js';
import { diffReports, type ReportDiff, type Regression } from './compare.js';

export interface Gates {
  /** Fail when the unrounded total is below this (bands are also judged on the unrounded total). */
  failUnder?: number;
  /** Fail on any level that dropped, cap newly fired or critical gap added since the baseline. */
  failOnRegression?: boolean;
}

export function describeRegression(r: Regression): string {
  if (r.kind === 'level') return `${r.criterion} ${r.dimension} L${r.from}→L${r.to}`;
  if (r.kind === 'cap') return `${r.criterion} capped at ${r.to.toFixed(2)}${r.from === null ? '' : ` (was ${r.from.toFixed(2)})`}`;
  return `${r.criterion} became a critical gap`;
}

/** Why each gate failed, in a phrase; empty when every gate passed. The caller decides the exit code. */
export function gateFailures(total: { numerator: number; denominator: number }, diff: ReportDiff | null, gates: Gates): string[] {
  const out: string[] = [];
  if (gates.failUnder !== undefined) {
    const value = total.numerator / total.denominator;
    if (value < gates.failUnder) out.push(`--fail-under ${gates.failUnder}: total ${value} (shown ${value.toFixed(1)}) is under ${gates.failUnder}`);
  }
  if (gates.failOnRegression && diff) {
    if (diff.comparison === 'incomparable') {
      const r = (s: ReportDiff['from']) => `${s.rubric.id} ${s.rubric.version} (${s.rubric.hash.slice(0, 12)})`;
      out.push(`--fail-on-regression: the baseline was scored with rubric ${r(diff.from)} and this report with ${r(diff.to)} at another commit, so regressions cannot be judged (re-score the baseline with the same rubric)`);
    } else if (diff.regressions.length) {
      const n = diff.regressions.length;
      out.push(`--fail-on-regression: ${n} regression${n === 1 ? '' : 's'} since the baseline: ${diff.regressions.map(describeRegression).join(', ')}`);
    }
  }
  return out;
}

/** The gates applied to a finished report, against its baseline when there is one. */
export function reportGateFailures(report: Report, baseline: Report | null, gates: Gates): string[] {
  const diff = baseline ? diffReports(baseline, report) : null;
  return gateFailures({ numerator: report.totalNumerator, denominator: report.criteria[0]?.denominator ?? 40 }, diff, gates);
}
