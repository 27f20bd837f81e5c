import { lineRef, rgCommand } from '../evaluate/evidence.js';
import { literalPattern } from '../probes/terms.js';
import type { Evidence, Report } from '../report/schema.js';
import { showScore, showTotal } from '../score/arithmetic.js';
import { mdCode, mdLink, mdText, percentEncoded } from './escape.js';
import { criterionParagraph, summaryParagraph } from './prose.js';
import { template } from './template.js';
import { renderTools } from './tools.js';


/**
 * Evidence as a reader re-checks it: lines as a link; a search shown short, as the distinctive
 * terms and the folders it covered (`rg -n 'bwrap|sandbox-exec' src/tools`), where that command
 * re-runs empty (see `rerunnableTerms`), else as the search that was made. The full pattern is in
 * the JSON report and in `explain`.
 */
export function renderEvidence(e: Evidence): string {
  if (e.kind === 'lines') return mdLink(lineRef(e), e.link);
  // The folders are the target's names: inside a code span they cannot form markup, but a tag
  // spelled out there still reads as one to tools that scan the text, and so does a template
  // placeholder to a site generator that renders the report: '<', '>', '{' and '}' are encoded.
  const folders = (e.scope.length === 1 && e.scope[0] === '.' ? (e.folders?.length ? e.folders : ['.']) : e.scope).map((f) => f.replace(/[<>{}]/g, percentEncoded));
  const where = folders.join(' ');
  const search = e.terms ? `${rgCommand(literalPattern(e.terms))} ${where}` : `${e.command} ${where}`;
  return `searched ${mdCode(search)} → 0 hits${unusedNote(e.unused)} (${mdText(e.meaning)})`;
}

/** Matches a search left out as dead code: a place a reader may want to look at by hand. */
export const unusedNote = (n: number | undefined): string => (n ? ` in used code; ${n} more in code nothing uses` : '');

/** Several pieces of evidence on one line; two facts citing the same lines are one link. */
function renderEvidenceList(evidence: Evidence[]): string {
  return [...new Set(evidence.map(renderEvidence))].join('; ');
}

export function verifiedMark(evidence: Evidence[]): string {
  if (evidence.length === 0) return '';
  const ok = evidence.filter((e) => e.verified).length;
  return ok === evidence.length ? ' (verified)' : ` (${ok} of ${evidence.length} verified)`;
}

const DIM_ORDER = ['S', 'C', 'D', 'B'] as const;

function playbookText(p: string | null): string {
  if (!p) return '';
  const [id, step] = p.slice(1).split('.');
  return ` (Playbook ${id}${step ? ` step ${step}` : ''})`;
}

/** A reviewer's link or note: links stay clickable, everything is escaped. */
function reviewerEvidence(s: string): string {
  return /^https?:\/\/\S+$/i.test(s.trim()) ? mdLink(s.trim(), s.trim()) : mdText(s);
}

/** " — Reviewer: reason (evidence; …)" after what the tool found, so both stay visible. */
function reviewerText(rv: { reason: string; evidence: string[] } | undefined): string {
  if (!rv) return '';
  return ` — Reviewer: ${mdText(rv.reason)}${rv.evidence.length ? ` (${rv.evidence.map(reviewerEvidence).join('; ')})` : ''}`;
}

function legText(r: Report, k: 'A' | 'B' | 'C'): string {
  const leg = r.ruleOfTwo[k];
  const where = leg.evidence
    .map((e) => (e.kind === 'lines' ? mdText(`${e.path}:${e.startLine}`) : mdText(e.meaning)))
    .join('; ');
  const reviewed = leg.reviewer ? ` (reviewed; tool: ${leg.reviewer.automated ? 'yes' : 'no'}${reviewerText(leg.reviewer)})` : '';
  return `[${k}] ${mdText(leg.label)}: ${leg.holds ? 'yes' : 'no'}${reviewed}${where ? ` (${where})` : ''}`;
}

/** The scorecard in the seed's layout; every value from the target is escaped for markdown. */
export function renderMarkdown(r: Report, opts: { reviewed?: string } = {}): string {
  const t = r.target;
  const view = {
    name: mdText(t.name),
    repo: t.webUrl ? mdText(t.webUrl) : mdText(t.repo),
    commit: t.commit ? mdCode(t.commit) : t.kind === 'folder' ? 'unpinned working tree' : 'unknown',
    rubric: `${mdText(r.rubric.id)} ${mdText(r.rubric.version)}`,
    reviewed: opts.reviewed ? mdText(opts.reviewed) : '',
    whatItIs: mdText(t.whatItIs),
    category: mdText(t.category),
    scoredConfiguration: mdText(t.scoredConfiguration),
    surfacesScored: (t.surfacesScored ?? []).map(mdText).join(', '),
    surface: r.surface.map((s) => `${mdText(s.label)} ${s.value}${s.reviewer ? ` (reviewed; tool: ${s.reviewer.automated}${reviewerText(s.reviewer)})` : ''}`).join(' · '),
    total: showTotal(r.totalNumerator, r.criteria[0]?.denominator ?? 40),
    band: mdText(r.band),
    rows: r.criteria.map((c) => ({
      id: c.id,
      title: mdText(c.title),
      ...c.levels,
      raw: showScore(c.rawNumerator, c.denominator),
      cap: c.cap === null ? '—' : c.cap.toFixed(2),
      score: showScore(c.scoreNumerator, c.denominator),
      confidence: c.confidence,
    })),
    summary: summaryParagraph(r),
    tools: renderTools(r.agent),
    criticalGaps: r.criticalGaps.length
      ? r.criticalGaps.map((g) => `${g.criterion}: ${mdText(g.reason)}`)
      : ['None: no criterion is capped and no blast radius is at the worst level.'],
    details: r.criteria.map((c) => ({
      id: c.id,
      title: mdText(c.title),
      score: showScore(c.scoreNumerator, c.denominator),
      confidence: c.confidence.toLowerCase(),
      paragraph: criterionParagraph(c, r.agent),
      dims: DIM_ORDER.map((d) => {
        const x = c.dimensions[d];
        const evidence = x.evidence.length ? renderEvidenceList(x.evidence) : 'no probe evidence; the rubric default applies';
        const head = x.reviewer ? `**${d} L${x.level}** (reviewed; tool: L${x.reviewer.automatedLevel}):` : `**${d} L${x.level}:**`;
        return { head, means: mdText(capitalise(x.means)), evidence, verified: verifiedMark(x.evidence), reviewer: reviewerText(x.reviewer), next: x.next ? mdText(x.next) : '' };
      }),
      cap: c.cap === null ? 'none' : `${c.cap.toFixed(2)}: ${mdText(c.capReason ?? '')}${c.capEvidence.length ? ` — ${renderEvidenceList(c.capEvidence)}${verifiedMark(c.capEvidence)}` : ''}`,
    })),
    ruleOfTwo: `${(['A', 'B', 'C'] as const).map((k) => legText(r, k)).join(' · ')} · Same default session? ${r.ruleOfTwo.sameDefaultSession ? 'Yes' : 'No'}`,
    improvements: r.improvements.map((m, i) => {
      const moves = (m.moves ?? [m]).map((x) => `${x.criterion} ${x.dimension} L${x.from}→L${x.to}`).join(', ');
      const gain = (m.moves?.length ?? 1) > 1 ? `together +${m.gain.toFixed(3)}` : `+${m.gain.toFixed(3)}`;
      return `${i + 1}. ${mdText(m.action)} — ${moves}, ${gain} before caps${m.swallowedByCap ? ' (a fired cap swallows this gain until the capped condition is fixed)' : ''}${playbookText(m.playbook)}`;
    }),
    reaudit: r.reaudit.map(mdText),
    limitations: r.limitations.map(mdText),
  };
  return template('scorecard.md.hbs')(view);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
