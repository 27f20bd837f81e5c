import type { Report } from '../report/schema.js';
import { showScore, showTotal } from '../score/arithmetic.js';
import { mdCode, mdText } from '../render/escape.js';

export interface Row {
  target: string;
  report: Report | null;
  error: string | null;
}

function sorted(rows: Row[]): Row[] {
  return [...rows].sort((a, b) => {
    if (a.report && b.report) return b.report.totalNumerator - a.report.totalNumerator || a.target.localeCompare(b.target);
    if (a.report) return -1;
    if (b.report) return 1;
    return a.target.localeCompare(b.target);
  });
}

const criteriaIds = (rows: Row[]) => rows.find((r) => r.report)?.report!.criteria.map((c) => c.id) ?? [];

/** The leaderboard in markdown: ranked by total, failures listed after with their one-line error. */
export function leaderboardMarkdown(rows: Row[]): string {
  const ids = criteriaIds(rows);
  const ok = sorted(rows).filter((r) => r.report);
  const failed = sorted(rows).filter((r) => !r.report);
  const rubrics = [...new Set(ok.map((r) => `${r.report!.rubric.id} ${r.report!.rubric.version}`))];
  const lines = ['# Defense-in-depth leaderboard', '', `${ok.length} targets scored${failed.length ? `, ${failed.length} failed` : ''}; rubric ${rubrics.map(mdText).join(', ') || '—'}.`, ''];
  if (rubrics.length > 1) lines.push('**Warning:** these reports were scored with different rubric versions; their totals are not comparable.', '');
  lines.push(`| # | Target | Commit | Total | Band | ${ids.join(' | ')} | Caps |`, `|---|---|---|---|---|${ids.map(() => '---|').join('')}---|`);
  ok.forEach((r, i) => {
    const rep = r.report!;
    const scores = rep.criteria.map((c) => showScore(c.scoreNumerator, c.denominator));
    const caps = rep.criteria.filter((c) => c.cap !== null).map((c) => c.id).join(' ') || '—';
    lines.push(`| ${i + 1} | ${mdText(rep.target.name)} | ${rep.target.commit ? mdCode(rep.target.commit.slice(0, 12)) : 'unpinned'} | **${showTotal(rep.totalNumerator, rep.criteria[0]?.denominator ?? 40)}** | ${mdText(rep.band)} | ${scores.join(' | ')} | ${caps} |`);
  });
  if (failed.length) {
    lines.push('', '## Failed', '');
    for (const r of failed) lines.push(`- ${mdCode(r.target)}: ${mdText(r.error ?? 'unknown error')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** RFC 4180 quoting, and a leading quote on cells a spreadsheet would run as a formula. */
function csvCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function leaderboardCsv(rows: Row[]): string {
  const ids = criteriaIds(rows);
  const out = [['rank', 'target', 'name', 'commit', 'total', 'band', ...ids, 'caps', 'rubric', 'error'].join(',')];
  let rank = 0;
  for (const r of sorted(rows)) {
    const rep = r.report;
    const cells = rep
      ? [String(++rank), r.target, rep.target.name, rep.target.commit ?? '', showTotal(rep.totalNumerator, rep.criteria[0]?.denominator ?? 40), rep.band, ...rep.criteria.map((c) => showScore(c.scoreNumerator, c.denominator)), rep.criteria.filter((c) => c.cap !== null).map((c) => c.id).join(' '), `${rep.rubric.id}@${rep.rubric.version}`, '']
      : ['', r.target, '', '', '', '', ...ids.map(() => ''), '', '', r.error ?? 'unknown error'];
    out.push(cells.map(csvCell).join(','));
  }
  return `${out.join('\n')}\n`;
}
