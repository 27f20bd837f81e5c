import { mdLink, mdText } from '../render/escape.js';
import type { Claim, Disclaimer, Unmapped } from './schema.js';

const VERDICT = { holds: '☑ holds', partly: '◐ partly', 'not-found': '✗ not found', contradicted: '✗ contradicted' } as const;
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

/** A sentence of the target's document, quoted, shortened and escaped. */
export const excerpt = (s: string) => `“${mdText(s.length > EXCERPT ? `${s.slice(0, EXCERPT - 1)}…` : s)}”`;
export const sourceLink = (s: { path: string; line: number; link: string }) => mdLink(`${s.path}:${s.line}`, s.link);

const SHOWS = { control: '', contradicts: ', which contradicts the claim', bypass: ', a path around the control' } as const;

/**
 * Per mapped probe: the line it found or the search that came back empty, marked ☑ where that
 * supports the claim (a control found, or nothing found that contradicts it) and ✗ where it does
 * not; compact enough for a table cell.
 */
function claimEvidence(c: Claim): string {
  return c.probes
    .map((p) => {
      const e = c.evidence.find((x) => x.probe === (p.via ?? p.id));
      const supports = p.role === 'control' ? p.found : !p.found;
      const mark = supports ? '☑' : '✗';
      const label = `${mdText(p.id)}${p.oneOf ? ` (one of ${p.oneOf.map(mdText).join(', ')})` : ''}`;
      if (p.found && e?.kind === 'lines') return `${mark} ${label}${SHOWS[p.role]}: ${mdLink(`${e.path}:${e.startLine}`, e.link)}${e.verified ? ' (verified)' : ''}`;
      const none = `${mark} ${p.role === 'control' ? '' : 'no '}${label}`;
      const via = p.via ? ` (it looks only where ${mdText(p.via)} finds something)` : '';
      if (!p.found && e?.kind === 'search') return `${none}${via}: ${mdText(e.meaning)} (searched ${e.filesSearched} files${e.verified ? ', verified' : ''})`;
      return `${none}: nothing searched (no file in its scope)`;
    })
    .join('<br>');
}

/** A row of the claims table: verdict, sentence, source, evidence per probe. */
export const claimRow = (c: Claim) => ({ verdict: VERDICT[c.verdict], text: tableCell(excerpt(c.text)), source: tableCell(sourceLink(c.source)), evidence: tableCell(claimEvidence(c)) });

/** A row of the unmapped table: the sentence, its source, and what made it look like a claim. */
export const unmappedRow = (u: Unmapped) => ({ text: tableCell(excerpt(u.text)), source: tableCell(sourceLink(u.source)), why: tableCell(mdText(u.reason)) });

/** A disclaimer line: a whole section by its heading, or one sentence. */
export const disclaimerLine = (d: Disclaimer) =>
  d.kind === 'section'
    ? `${sourceLink(d.source)} section “${mdText(d.text)}”: ${d.sentences} candidate sentence${d.sentences === 1 ? '' : 's'} not read as claims`
    : `${sourceLink(d.source)} ${excerpt(d.text)}`;
