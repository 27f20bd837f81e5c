import type { Evidence } from '../report/schema.js';
import { mdCode, mdText } from '../render/escape.js';
import { renderEvidence } from '../render/markdown.js';
import { template } from '../render/template.js';
import { showScore, showTotal } from '../score/arithmetic.js';
import type { ReportDiff, Side } from './compare.js';
import { describeRegression } from './gates.js';
import { commitName, rubricName, rubricNote, showCap, signedDelta } from './log.js';

/**
 * Evidence with its probe id and what the finding shows. The matched text is left out, as in the
 * scorecard: it may be a committed secret, and this log goes to CI summaries.
 */
function evidenceMd(e: Evidence): string {
  return e.kind === 'lines' ? `${mdCode(e.probe)} ${renderEvidence(e)} (${mdText(e.shows)})` : `${mdCode(e.probe)}: ${renderEvidence(e)}`;
}

function sideView(s: Side) {
  return {
    commit: s.commit ? mdCode(s.commit.slice(0, 12)) : mdText(commitName(s)),
    rubric: mdText(rubricName(s)),
    tool: mdText(`${s.tool.name} ${s.tool.version}`),
    total: showTotal(s.totalNumerator, s.denominator),
    band: mdText(s.band),
  };
}

function otherChanges(d: ReportDiff): string[] {
  const out: string[] = [];
  if (d.criteriaAdded.length) out.push(`Criteria added by the rubric: ${d.criteriaAdded.map(mdText).join(', ')}`);
  if (d.criteriaRemoved.length) out.push(`Criteria removed by the rubric: ${d.criteriaRemoved.map(mdText).join(', ')}`);
  for (const s of d.surface) out.push(`Agent surface: ${mdText(s.label)} ${mdText(s.from)} → ${mdText(s.to)}`);
  if (d.ruleOfTwo) out.push(`Rule of Two, same default session: ${d.ruleOfTwo.from ? 'Yes' : 'No'} → ${d.ruleOfTwo.to ? 'Yes' : 'No'}`);
  for (const g of d.criticalGaps.added) out.push(`Critical gap added: ${mdText(g.criterion)}: ${mdText(g.reason)}`);
  for (const g of d.criticalGaps.removed) out.push(`Critical gap closed: ${mdText(g.criterion)}`);
  return out;
}

/** The re-audit log as markdown; everything that came from a report (so from a target) is escaped. */
export function renderDiffMarkdown(d: ReportDiff): string {
  const noRegressions =
    d.comparison === 'code'
      ? 'None: no level dropped, no cap newly fired, no critical gap added.'
      : d.comparison === 'rubric'
        ? 'Not judged: the commit is the same, so nothing here is a code regression.'
        : 'Not judged: levels are not compared across rubric versions.';
  const view = {
    name: mdText(d.to.name),
    from: sideView(d.from),
    to: sideView(d.to),
    rubricNote: mdText(rubricNote(d) ?? ''),
    changed: d.changed,
    total: `${showTotal(d.from.totalNumerator, d.from.denominator)} → ${showTotal(d.to.totalNumerator, d.to.denominator)} (${signedDelta(d.from.totalNumerator * d.to.denominator, d.to.totalNumerator * d.from.denominator, d.from.denominator * d.to.denominator)})`,
    band: `${mdText(d.from.band)} → ${mdText(d.to.band)}`,
    regressions: d.regressions.map((r) => mdText(describeRegression(r) + (r.kind === 'level' ? ' (level dropped)' : ` (${r.reason})`))),
    noRegressions,
    criteria: d.criteria.map((c) => ({
      id: mdText(c.id),
      title: mdText(c.title),
      from: showScore(c.fromScore, c.denominator),
      to: showScore(c.toScore, c.denominator),
      delta: signedDelta(c.fromScore, c.toScore, c.denominator),
      dims: c.dimensions.map((m) => ({ dim: m.dimension, from: m.from, to: m.to, means: mdText(m.toMeans), vanished: m.vanished.map(evidenceMd), appeared: m.appeared.map(evidenceMd) })),
      cap: c.cap
        ? { from: showCap(c.cap.from), to: showCap(c.cap.to), reason: mdText(c.cap.to !== null ? (c.cap.toReason ?? '') : ''), vanished: c.cap.vanished.map(evidenceMd), appeared: c.cap.appeared.map(evidenceMd) }
        : null,
    })),
    other: otherChanges(d),
  };
  return template('diff.md.hbs')(view);
}
