import { itemLine } from '../checklist/render.js';
import { claimRow, disclaimerLine, excerpt, sourceLink, unmappedRow } from '../claims/render.js';
import { renderEvidence } from '../render/markdown.js';
import { template } from '../render/template.js';
import { mdCode, mdText } from '../render/escape.js';
import type { ReleaseReport } from './schema.js';

const NOW = { partly: 'partly', 'not-found': 'not found', contradicted: 'contradicted' } as const;

/** The release checklist: items grouped by criterion (☑/✗/☐), then the claims table; everything from the target escaped. */
export function renderReleaseCheck(r: ReleaseReport): string {
  const t = r.target;
  const s = r.summary;
  const docsRead = r.documents.filter((d) => d.status === 'read');
  const view = {
    name: mdText(t.name),
    repo: mdText(t.webUrl ?? t.repo),
    commit: t.commit ? mdCode(t.commit) : t.kind === 'folder' ? 'unpinned working tree' : 'unknown',
    rubric: `${mdText(r.rubric.id)} ${mdText(r.rubric.version)}`,
    checks: `${s.pass} ☑ shown by the code · ${s.fail} ✗ failing · ${s.manual} ☐ to check by hand`,
    claimsLine: `${s.holds} hold · ${s.partly} partly · ${s.notFound} not found in the code · ${s.contradicted} contradicted by the code · ${s.unmapped} unmapped (check by hand)`,
    baseline: r.baseline ? mdText(r.baseline) : '',
    regressions: r.regressions.map((g) =>
      g.kind === 'item'
        ? `✗ **${mdText(g.id)}** ${mdText(g.text)}: passed at the baseline, fails now — ${g.evidence.map(renderEvidence).join('; ') || 'no evidence'}`
        : `✗ Claim ${excerpt(g.text)} (${sourceLink(g.source)}): held at the baseline, ${NOW[g.now]} now`,
    ),
    criteria: r.criteria.map((c) => ({
      id: mdText(c.id),
      title: mdText(c.title),
      items: r.items.filter((i) => i.criterion === c.id).map(itemLine),
    })),
    hasItems: r.items.length > 0,
    documents: docsRead.length ? docsRead.map((d) => mdCode(d.path)).join(', ') : '',
    notRead: r.documents.filter((d) => d.status !== 'read').map((d) => `${mdCode(d.path)} (${d.status === 'symlink' ? 'a symlink, not followed' : d.status === 'oversize' ? 'over the size limit' : 'binary'})`),
    claims: r.claims.map(claimRow),
    unmapped: r.unmapped.map(unmappedRow),
    disclaimers: r.disclaimers.map(disclaimerLine),
  };
  // noEscape: every value is escaped for markdown (not HTML) above.
  const md = template('checklist.md.hbs')(view);
  return md.endsWith('\n') ? md : `${md}\n`;
}
