import { lineRef } from '../evaluate/evidence.js';
import type { Evidence } from '../report/schema.js';
import { showScore, showTotal } from '../score/arithmetic.js';
import type { CriterionMove, DimensionMove, ReportDiff, Side } from './compare.js';

/** A change in fortieths, signed: one level step is +0.075 or +0.05 before caps (METHOD §3). */
export function signedDelta(fromNumerator: number, toNumerator: number, denominator: number): string {
  const d = (toNumerator - fromNumerator) / denominator;
  return d === 0 ? '±0' : `${d > 0 ? '+' : '-'}${Math.abs(d).toFixed(3)}`;
}

export function showCap(cap: number | null): string {
  return cap === null ? 'none' : cap.toFixed(2);
}

export function rubricName(s: Side): string {
  return `${s.rubric.id} ${s.rubric.version} (${s.rubric.hash.slice(0, 12)})`;
}

export function commitName(s: Side): string {
  return s.commit ? s.commit.slice(0, 12) : 'an unpinned working tree';
}

/** One sentence on why levels are or are not compared, or null for a plain code re-audit. */
export function rubricNote(d: ReportDiff): string | null {
  if (d.comparison === 'code') return null;
  const change = `Rubric changed: ${rubricName(d.from)} → ${rubricName(d.to)}`;
  return d.comparison === 'rubric'
    ? `${change} at the same commit: every change listed comes from the rubric, not from the code.`
    : `${change} at another commit: levels are not compared across rubric versions, so no change is attributed to the code. Re-score the baseline with this rubric to see code changes.`;
}


/** Plain text; the scorecard escapes it for markdown with everything else. No matched text: it may be a secret. */
export function evidenceText(e: Evidence): string {
  return e.kind === 'lines' ? `${e.probe} at ${lineRef(e)} (${e.shows})` : `empty search for ${e.probe} (${e.meaning})`;
}

function deltaText(m: { appeared: Evidence[]; vanished: Evidence[] }): string {
  const parts = [...m.vanished.map((e) => `disappeared: ${evidenceText(e)}`), ...m.appeared.map((e) => `appeared: ${evidenceText(e)}`)];
  return parts.length ? `: ${parts.join('; ')}` : '';
}

function criterionLines(c: CriterionMove): string[] {
  const out = [`${c.id} ${c.title}: ${showScore(c.fromScore, c.denominator)} → ${showScore(c.toScore, c.denominator)} (${signedDelta(c.fromScore, c.toScore, c.denominator)}).`];
  for (const m of c.dimensions) out.push(dimensionLine(c.id, m));
  if (c.cap) out.push(`${c.id} cap ${showCap(c.cap.from)} → ${showCap(c.cap.to)}${c.cap.to !== null ? ` (${c.cap.toReason})` : ''}${deltaText(c.cap)}.`);
  return out;
}

function dimensionLine(id: string, m: DimensionMove): string {
  return `${id} ${m.dimension} L${m.from}→L${m.to} (${m.toMeans})${deltaText(m)}.`;
}

/** The scorecard's "Re-audit log": the same comparison as `audit diff`, as plain sentences. */
export function reauditLog(d: ReportDiff): string[] {
  const out = [`Baseline: commit ${commitName(d.from)}, rubric ${d.from.rubric.id} ${d.from.rubric.version}, total ${showTotal(d.from.totalNumerator, d.from.denominator)} (${d.from.band}).`];
  const note = rubricNote(d);
  if (note) out.push(note);
  if (!d.changed) return [...out, 'No changes.'];
  out.push(`Total ${showTotal(d.from.totalNumerator, d.from.denominator)} → ${showTotal(d.to.totalNumerator, d.to.denominator)} (${signedDelta(d.from.totalNumerator * d.to.denominator, d.to.totalNumerator * d.from.denominator, d.from.denominator * d.to.denominator)}), band ${d.from.band} → ${d.to.band}.`);
  for (const c of d.criteria) out.push(...criterionLines(c));
  if (d.criteriaAdded.length) out.push(`Criteria added by the rubric: ${d.criteriaAdded.join(', ')}.`);
  if (d.criteriaRemoved.length) out.push(`Criteria removed by the rubric: ${d.criteriaRemoved.join(', ')}.`);
  for (const s of d.surface) out.push(`Agent surface: ${s.label} ${s.from} → ${s.to}.`);
  if (d.ruleOfTwo) out.push(`Rule of Two, same default session: ${d.ruleOfTwo.from ? 'Yes' : 'No'} → ${d.ruleOfTwo.to ? 'Yes' : 'No'}.`);
  for (const g of d.criticalGaps.added) out.push(`Critical gap added: ${g.criterion} (${g.reason}).`);
  for (const g of d.criticalGaps.removed) out.push(`Critical gap closed: ${g.criterion}.`);
  return out;
}
