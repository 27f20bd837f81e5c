import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { Claim } from '../claims/schema.js';
import { renderEvidence } from '../render/markdown.js';
import { mdCode, mdLink, mdText } from '../render/escape.js';
import type { Evidence } from '../report/schema.js';
import type { ChecklistReport, Item } from './schema.js';

const TEMPLATE = fileURLToPath(new URL('../../templates/checklist.md.hbs', import.meta.url));

const MARK = { pass: '☑', fail: '✗', manual: '☐' } as const;
const VERDICT = { holds: '☑ holds', partly: '◐ partly', 'not-found': '✗ not found' } as const;
const EXCERPT = 160;

/**
 * In a GFM table a `|` ends the cell even inside a code span unless backslash-escaped. Scans the
 * way the table parser does (a backslash escapes the next character) and escapes every bare pipe.
 */
export function tableCell(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      out += c + s[i + 1];
      i++;
    } else out += c === '|' ? '\\|' : c;
  }
  return out;
}

function verifiedMark(evidence: Evidence[]): string {
  if (evidence.length === 0) return '';
  const ok = evidence.filter((e) => e.verified).length;
  return ok === evidence.length ? ' (verified)' : ` (${ok} of ${evidence.length} verified)`;
}

function itemLine(i: Item): { mark: string; id: string; text: string; detail: string } {
  const detail =
    i.status === 'manual'
      ? `*How:* ${mdText(i.how ?? '')}`
      : i.evidence.length
        ? `${i.evidence.map(renderEvidence).join('; ')}${verifiedMark(i.evidence)}`
        : 'no file was in the scope of the probes it names, so nothing could be searched';
  return { mark: MARK[i.status], id: mdText(i.id), text: mdText(i.text), detail };
}

const excerpt = (s: string) => `“${mdText(s.length > EXCERPT ? `${s.slice(0, EXCERPT - 1)}…` : s)}”`;
const sourceLink = (s: { path: string; line: number; link: string }) => mdLink(`${s.path}:${s.line}`, s.link);

/** Per mapped probe: the line that shows it, or what was searched in vain; compact enough for a table cell. */
function claimEvidence(c: Claim): string {
  return c.probes
    .map((p) => {
      const e = c.evidence.find((x) => x.probe === (p.via ?? p.id));
      if (p.found && e?.kind === 'lines') return `☑ ${mdText(p.id)}: ${mdLink(`${e.path}:${e.startLine}`, e.link)}${e.verified ? ' (verified)' : ''}`;
      const via = p.via ? ` (it looks only where ${mdText(p.via)} finds something)` : '';
      if (!p.found && e?.kind === 'search') return `✗ ${mdText(p.id)}${via}: ${mdText(e.meaning)} (searched ${e.filesSearched} files${e.verified ? ', verified' : ''})`;
      return `✗ ${mdText(p.id)}: nothing searched (no file in its scope)`;
    })
    .join('<br>');
}

/** The release checklist: items grouped by criterion (☑/✗/☐), then the claims table; everything from the target escaped. */
export function renderChecklist(r: ChecklistReport): string {
  const t = r.target;
  const s = r.summary;
  const docsRead = r.documents.filter((d) => d.status === 'read');
  const view = {
    name: mdText(t.name),
    repo: mdText(t.webUrl ?? t.repo),
    commit: t.commit ? mdCode(t.commit) : t.kind === 'folder' ? 'unpinned working tree' : 'unknown',
    rubric: `${mdText(r.rubric.id)} ${mdText(r.rubric.version)}`,
    checks: `${s.pass} ☑ shown by the code · ${s.fail} ✗ failing · ${s.manual} ☐ to check by hand`,
    claimsLine: `${s.holds} hold · ${s.partly} partly · ${s.notFound} not found in the code · ${s.unmapped} unmapped (check by hand)`,
    baseline: r.baseline ? mdText(r.baseline) : '',
    regressions: r.regressions.map((g) =>
      g.kind === 'item'
        ? `✗ **${mdText(g.id)}** ${mdText(g.text)}: passed at the baseline, fails now — ${g.evidence.map(renderEvidence).join('; ') || 'no evidence'}`
        : `✗ Claim ${excerpt(g.text)} (${sourceLink(g.source)}): held at the baseline, ${g.now === 'partly' ? 'partly' : 'not found'} now`,
    ),
    criteria: r.criteria.map((c) => ({
      id: mdText(c.id),
      title: mdText(c.title),
      items: r.items.filter((i) => i.criterion === c.id).map(itemLine),
    })),
    hasItems: r.items.length > 0,
    documents: docsRead.length ? docsRead.map((d) => mdCode(d.path)).join(', ') : '',
    notRead: r.documents.filter((d) => d.status !== 'read').map((d) => `${mdCode(d.path)} (${d.status === 'symlink' ? 'a symlink, not followed' : d.status === 'oversize' ? 'over the size limit' : 'binary'})`),
    claims: r.claims.map((c) => ({ verdict: VERDICT[c.verdict], text: tableCell(excerpt(c.text)), source: tableCell(sourceLink(c.source)), evidence: tableCell(claimEvidence(c)) })),
    unmapped: r.unmapped.map((u) => ({ text: tableCell(excerpt(u.text)), source: tableCell(sourceLink(u.source)), why: tableCell(u.matched.map((m) => mdText(m.candidate)).join(', ')) })),
    disclaimers: r.disclaimers.map((d) =>
      d.kind === 'section'
        ? `${sourceLink(d.source)} section “${mdText(d.text)}”: ${d.sentences} candidate sentence${d.sentences === 1 ? '' : 's'} not read as claims`
        : `${sourceLink(d.source)} ${excerpt(d.text)}`,
    ),
  };
  // noEscape: every value is escaped for markdown (not HTML) above.
  const md = Handlebars.create().compile(readFileSync(TEMPLATE, 'utf8'), { noEscape: true, strict: true })(view);
  return md.endsWith('\n') ? md : `${md}\n`;
}
