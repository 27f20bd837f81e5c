import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { lineRef } from '../evaluate/evidence.js';
import type { Evidence, Report } from '../report/schema.js';
import { showScore, showTotal } from '../score/arithmetic.js';
import { mdCode, mdLink, mdText } from './escape.js';
import { renderTools } from './tools.js';

const TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url));

function template(name: string): HandlebarsTemplateDelegate {
  // noEscape: every value is escaped for markdown (not HTML) before it reaches the template.
  return Handlebars.create().compile(readFileSync(`${TEMPLATES}${name}`, 'utf8'), { noEscape: true, strict: true });
}


export function renderEvidence(e: Evidence): string {
  if (e.kind === 'lines') return mdLink(lineRef(e), e.link);
  const scope = e.scope.length === 1 && e.scope[0] === '.' ? `product code (${e.filesSearched} files)` : e.scope.map(mdCode).join(' ');
  return `searched ${mdCode(e.command)} in ${scope} → 0 hits (${mdText(e.meaning)})`;
}

function verifiedMark(evidence: Evidence[]): string {
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

function summaryOf(r: Report): string {
  const sorted = [...r.criteria].sort((a, b) => b.scoreNumerator - a.scoreNumerator || Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const show = (c: Report['criteria'][number]) => `${c.id} ${c.title} (${showScore(c.scoreNumerator, c.denominator)})`;
  const strongest = sorted.slice(0, 2).map(show).join(' and ');
  const weakest = sorted.slice(-2).reverse().map(show).join(' and ');
  const two = r.ruleOfTwo;
  const session = two.sameDefaultSession
    ? `One default session combines untrusted input, sensitive data and state change or egress, so the Rule of Two does not hold.`
    : `The Rule of Two holds in the default session: ${(['A', 'B', 'C'] as const).filter((k) => !two[k].holds).map((k) => `[${k}] ${two[k].label}`).join(', ')} not reached by default.`;
  const gaps = r.criticalGaps.length ? ` Critical gaps: ${r.criticalGaps.map((g) => g.criterion).join(', ')}.` : '';
  return mdText(`Strongest: ${strongest}. Weakest: ${weakest}. ${session}${gaps}`);
}

function paragraphOf(c: Report['criteria'][number]): string {
  const present = c.present.length ? `Found: ${c.present.join('; ')}.` : 'No control of this criterion was found.';
  const missing = c.missing.length ? ` Searched for and not found: ${c.missing.join('; ')}.` : '';
  return mdText(present + missing);
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
    .map((e) => (e.kind === 'lines' ? mdText(`${e.path}:${e.startLine}`) : `no ${mdText(e.meaning)}`))
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
    summary: summaryOf(r),
    tools: renderTools(r.agent),
    criticalGaps: r.criticalGaps.length
      ? r.criticalGaps.map((g) => `${g.criterion}: ${mdText(g.reason)}`)
      : ['None: no criterion is capped and no blast radius is at the worst level.'],
    details: r.criteria.map((c) => ({
      id: c.id,
      title: mdText(c.title),
      score: showScore(c.scoreNumerator, c.denominator),
      confidence: c.confidence.toLowerCase(),
      paragraph: paragraphOf(c),
      dims: DIM_ORDER.map((d) => {
        const x = c.dimensions[d];
        const evidence = x.evidence.length ? x.evidence.map(renderEvidence).join('; ') : 'no probe evidence; the rubric default applies';
        const head = x.reviewer ? `**${d} L${x.level}** (reviewed; tool: L${x.reviewer.automatedLevel}):` : `**${d} L${x.level}:**`;
        return { head, means: mdText(capitalise(x.means)), evidence, verified: verifiedMark(x.evidence), reviewer: reviewerText(x.reviewer), next: x.next ? mdText(x.next) : '' };
      }),
      cap: c.cap === null ? 'none' : `${c.cap.toFixed(2)}: ${mdText(c.capReason ?? '')}${c.capEvidence.length ? ` — ${c.capEvidence.map(renderEvidence).join('; ')}${verifiedMark(c.capEvidence)}` : ''}`,
    })),
    ruleOfTwo: `${(['A', 'B', 'C'] as const).map((k) => legText(r, k)).join(' · ')} · Same default session? ${r.ruleOfTwo.sameDefaultSession ? 'Yes' : 'No'}`,
    improvements: r.improvements.map(
      (m, i) =>
        `${i + 1}. ${mdText(m.action)} — ${m.criterion} ${m.dimension} L${m.from}→L${m.to}, +${m.gain.toFixed(3)} before caps${m.swallowedByCap ? ' (a fired cap swallows this gain until the capped condition is fixed)' : ''}${playbookText(m.playbook)}`,
    ),
    reaudit: r.reaudit.map(mdText),
    limitations: r.limitations.map(mdText),
  };
  return template('scorecard.md.hbs')(view);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
