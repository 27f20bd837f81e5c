import { ruleSubjects } from '../model/facts.js';
import { linkFor, searchCommand, type LinkBase } from '../evaluate/evidence.js';
import type { RuleContext } from '../evaluate/rules.js';
import type { ProbeResult } from '../probes/types.js';
import type { Evidence, Report } from '../report/schema.js';
import type { Rubric } from '../rubric/schema.js';

/** What one probe did, as explain shows it: found (with links), searched and found nothing, or never searched. */
export interface ProbeOutcome {
  id: string;
  title: string;
  state: 'found' | 'empty' | 'not-searched';
  /** What the outcome means, from the probe: its `found` phrase, or its `absent` text. */
  meaning: string;
  findings: Array<{ path: string; startLine: number; endLine: number; link: string; text: string }>;
  /** How many places matched; null when only the report's recorded evidence is known. */
  findingsTotal: number | null;
  /** The search anyone can re-run; scope and file count are null when the report does not record them. */
  search: { command: string; scope: string[] | null; filesSearched: number | null; unused?: number };
  /** Why a probe never searched anything. */
  why: string | null;
}

const MAX_FINDINGS = 5;
const rubricDirOf = (rubric: Rubric) => `rubrics/${rubric.file.id}`;

/** Outcomes from a fresh run of the probes: every finding and every search is known. */
export function outcomesFromResults(rubric: Rubric, results: Map<string, ProbeResult>, base: LinkBase): Map<string, ProbeOutcome> {
  const out = new Map<string, ProbeOutcome>();
  for (const p of ruleSubjects(rubric)) {
    const r = results.get(p.id);
    if (!r) continue;
    const state = r.findings.length > 0 ? 'found' : r.applicable && r.filesSearched > 0 ? 'empty' : 'not-searched';
    out.set(p.id, {
      id: p.id,
      title: p.title,
      state,
      meaning: state === 'found' ? (p.found ?? p.title) : p.absent,
      findings: r.findings.slice(0, MAX_FINDINGS).map((f) => ({ path: f.path, startLine: f.startLine, endLine: f.endLine, link: linkFor(base, f.path, f.startLine, f.endLine), text: f.text })),
      findingsTotal: r.findings.length,
      search: { command: searchCommand(p, rubricDirOf(rubric)), scope: r.scope ?? ['.'], filesSearched: r.filesSearched, ...(r.unused ? { unused: r.unused } : {}) },
      why:
        state !== 'not-searched'
          ? null
          : !r.applicable
            ? `it only searches where ${p.within!.probe} found something, and that found nothing`
            : 'no product file is in the languages or paths it reads',
    });
  }
  return out;
}

function allEvidence(report: Report): Evidence[] {
  return [
    ...report.criteria.flatMap((c) => [...Object.values(c.dimensions).flatMap((d) => d.evidence), ...c.capEvidence, ...c.evidence]),
    ...report.surface.flatMap((s) => s.evidence),
    ...(['A', 'B', 'C'] as const).flatMap((k) => report.ruleOfTwo[k].evidence),
  ];
}

/**
 * Outcomes reconstructed from a saved report: each criterion lists the titles of its probes that
 * found something and of those that searched and found nothing, and the evidence records some
 * lines and searches. Everything else (all findings, exact scopes) needs the repository.
 */
export function outcomesFromReport(rubric: Rubric, report: Report): Map<string, ProbeOutcome> {
  const lines = new Map<string, ProbeOutcome['findings']>();
  const searches = new Map<string, Extract<Evidence, { kind: 'search' }>>();
  for (const e of allEvidence(report)) {
    if (e.kind === 'search') searches.set(e.probe, e);
    else {
      const list = lines.get(e.probe) ?? [];
      if (!list.some((x) => x.link === e.link)) list.push({ path: e.path, startLine: e.startLine, endLine: e.endLine, link: e.link, text: e.text });
      lines.set(e.probe, list);
    }
  }
  const out = new Map<string, ProbeOutcome>();
  for (const p of ruleSubjects(rubric)) {
    const mine = report.criteria.filter((c) => p.criteria.includes(c.id));
    const found = lines.has(p.id) || mine.some((c) => c.present.includes(p.title));
    const empty = !found && (searches.has(p.id) || mine.some((c) => c.missing.includes(p.title)));
    const state = found ? 'found' : empty ? 'empty' : 'not-searched';
    const s = searches.get(p.id);
    out.set(p.id, {
      id: p.id,
      title: p.title,
      state,
      meaning: state === 'found' ? (p.found ?? p.title) : p.absent,
      findings: (lines.get(p.id) ?? []).slice(0, MAX_FINDINGS),
      findingsTotal: null,
      search: { command: s?.command ?? searchCommand(p, rubricDirOf(rubric)), scope: s?.scope ?? null, filesSearched: s?.filesSearched ?? null, ...(s?.unused ? { unused: s.unused } : {}) },
      why: state === 'not-searched' ? 'the report lists it neither as found nor as searched: it had no file to read, or its scope was empty' : null,
    });
  }
  return out;
}

/**
 * A rule context equivalent to the outcomes, so explain decides with the evaluator's own `holds`:
 * found ⇔ some finding; searched-empty ⇔ applicable, files searched and no finding.
 */
export function contextOf(rubric: Rubric, outcomes: Map<string, ProbeOutcome>): RuleContext {
  const results = new Map<string, ProbeResult>();
  for (const p of ruleSubjects(rubric)) {
    const o = outcomes.get(p.id);
    const state = o?.state ?? 'not-searched';
    const findings = state === 'found' ? [{ probe: p.id, path: '', startLine: 1, endLine: 1, text: '' }] : [];
    results.set(p.id, { probe: p, findings, scope: null, filesSearched: state === 'not-searched' ? 0 : 1, applicable: state !== 'not-searched' });
  }
  return { results, conditions: rubric.file.conditions };
}
