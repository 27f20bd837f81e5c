import type { Evidence, Report } from '../report/schema.js';
import { DIMENSIONS, type Dimension } from '../rubric/names.js';
import type { Rubric } from '../rubric/schema.js';

export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The method's names for the four dimensions (METHOD §2), for rule titles. */
const DIMENSION_NAMES: Record<Dimension, string> = { S: 'Strength', C: 'Coverage', D: 'Default & durability', B: 'Blast radius' };

/**
 * GitHub code scanning rejects a whole upload when any result has no location. A missing control has
 * no line, so such results point at the placeholder OpenSSF Scorecard uses for repository-level
 * findings, and their message carries the search that came back empty.
 */
// Percent-encoded: artifactLocation.uri must be a URI reference (the official schema checks it).
export const NO_FILE = pathUri('no file associated with this alert');

type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifOptions {
  /** Report every dimension below this level (default 2). */
  minLevel: number;
}

interface Rule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[]; criterion: string };
}

interface Location {
  physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; endLine?: number } };
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: Location[];
}

/** A repo-relative path as a URI reference: each segment percent-encoded, the characters a path segment allows kept. */
export function pathUri(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (m) => decodeURIComponent(m)))
    .join('/');
}

function locationsOf(evidence: Evidence[]): Location[] {
  const seen = new Set<string>();
  const out: Location[] = [];
  for (const e of evidence) {
    if (e.kind !== 'lines') continue;
    const key = `${e.path}\0${e.startLine}\0${e.endLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ physicalLocation: { artifactLocation: { uri: pathUri(e.path) }, region: { startLine: e.startLine, endLine: e.endLine } } });
  }
  // GitHub shows at most 10 locations per result; the rest stay in the message and the JSON report.
  return out.length ? out.slice(0, 10) : [{ physicalLocation: { artifactLocation: { uri: NO_FILE }, region: { startLine: 1 } } }];
}

// Bidi controls and other invisible characters can make a message read differently than it is (as in escape.ts).
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * SARIF plain-text message: '[text](target)' is an embedded link (SARIF §3.11.6). Escaping the ']'
 * before '(' is enough to keep text from the target from forming one; other brackets (the searches'
 * regular expressions are full of them) stay as they are.
 */
export function sarifText(s: string): string {
  return s.replace(INVISIBLE, '').replace(/(\\*)\](?=\()/g, (_m, bs: string) => `${bs}${bs}\\]`);
}

/** Plain text for a message. No matched text, as in the scorecard: it may be a committed secret. */
function evidenceText(e: Evidence): string {
  if (e.kind === 'lines') return `${e.path}:${e.startLine === e.endLine ? e.startLine : `${e.startLine}-${e.endLine}`} (${e.probe}: ${e.shows})`;
  const scope = e.scope.length === 1 && e.scope[0] === '.' ? `product code (${e.filesSearched} files)` : e.scope.join(' ');
  return `searched ${e.command} in ${scope} → 0 hits (${e.meaning})`;
}

function playbookText(rubric: Rubric, ref: string | undefined): string {
  if (!ref) return '';
  const m = /^P(\d+)(?:\.(\d+))?$/.exec(ref);
  const book = rubric.playbooks.find((p) => p.id === `P${m?.[1]}`);
  if (!m || !book) return '';
  const step = m[2] ? book.steps[Number(m[2]) - 1] : undefined;
  return ` Playbook ${m[1]} (${book.title})${step ? ` step ${m[2]}: ${step}` : '.'}`;
}

function levelOf(l: number): SarifLevel {
  return l === 0 ? 'error' : l === 1 ? 'warning' : 'note';
}

/** SARIF 2.1.0: each dimension below `minLevel` and each fired cap is a result, its rule text from the rubric. */
export function renderSarif(report: Report, rubric: Rubric, opts: SarifOptions): string {
  if (rubric.hash !== report.rubric.hash) throw new Error(`the report was scored with rubric ${report.rubric.hash.slice(0, 12)}, not the one given (${rubric.hash.slice(0, 12)})`);
  const specs = new Map(rubric.criteria.map((c) => [c.id, c]));
  const rules: Rule[] = [];
  const results: Result[] = [];
  const add = (rule: Rule, level: SarifLevel, text: string, evidence: Evidence[]) => {
    let index = rules.findIndex((r) => r.id === rule.id);
    if (index < 0)
      index =
        rules.push({ ...rule, shortDescription: { text: sarifText(rule.shortDescription.text) }, fullDescription: { text: sarifText(rule.fullDescription.text) }, help: { text: sarifText(rule.help.text) } }) - 1;
    results.push({ ruleId: rule.id, ruleIndex: index, level, message: { text: sarifText(text) }, locations: locationsOf(evidence) });
  };

  for (const c of report.criteria) {
    const spec = specs.get(c.id);
    if (!spec) throw new Error(`criterion ${c.id} is not in the rubric`);
    for (const d of DIMENSIONS) {
      const level = c.levels[d];
      if (level >= opts.minLevel) continue;
      const here = spec[d][`L${level}` as 'L0'];
      const next = level < 4 ? spec[d][`L${level + 1}` as 'L0'] : undefined;
      const gap = here.gap ?? (next ? `Below L${level + 1}: ${next.means}.` : '');
      const action = here.action ? `To reach L${level + 1}: ${here.action}` : '';
      const sarifLevel = levelOf(level);
      const rule: Rule = {
        id: `${c.id}/${d}/L${level}`,
        shortDescription: { text: `${c.id} ${spec.title}: ${DIMENSION_NAMES[d]} at L${level}` },
        fullDescription: { text: `${spec.question} ${DIMENSION_NAMES[d]} L${level}: ${here.means}. ${gap}`.trim() },
        help: { text: `${action}${playbookText(rubric, here.playbook)}`.trim() || gap },
        defaultConfiguration: { level: sarifLevel },
        properties: { tags: ['security', 'defense-in-depth', c.id], criterion: c.id },
      };
      const dim = c.dimensions[d];
      const evidence = dim.evidence;
      const why = evidence.length ? ` Evidence: ${evidence.map(evidenceText).join('; ')}.` : ' No probe evidence; the rubric default applies.';
      // What is missing in the report's own words: an L0 reached without its finding has words of its own.
      const missing = here.gap !== undefined || here.otherwise ? (dim.next ?? '') : gap;
      add(rule, sarifLevel, `${c.id} ${c.title} ${d} L${level}: ${dim.means}. ${missing}${why}`, evidence);
    }
    if (c.cap !== null) {
      const cap = rubric.file.caps.find((x) => x.criterion === c.id && x.explain === c.capReason) ?? rubric.file.caps.find((x) => x.criterion === c.id && x.value === c.cap);
      const rule: Rule = {
        id: `${c.id}/cap/${cap?.id ?? 'cap'}`,
        shortDescription: { text: `${c.id} ${spec.title}: capped at ${c.cap.toFixed(2)}` },
        fullDescription: { text: `Critical condition: ${cap?.explain ?? c.capReason ?? ''}.` },
        help: { text: `The criterion's score is held at ${c.cap.toFixed(2)} however strong its other controls are, until this no longer holds: ${cap?.explain ?? c.capReason ?? ''}.` },
        defaultConfiguration: { level: 'error' },
        properties: { tags: ['security', 'defense-in-depth', 'cap', c.id], criterion: c.id },
      };
      const why = c.capEvidence.length ? ` Evidence: ${c.capEvidence.map(evidenceText).join('; ')}.` : '';
      add(rule, 'error', `${c.id} ${c.title} capped at ${c.cap.toFixed(2)}: ${c.capReason ?? ''}.${why}`, c.capEvidence);
    }
  }

  const t = report.target;
  const run = {
    tool: { driver: { name: report.tool.name, version: report.tool.version, semanticVersion: report.tool.version, rules } },
    ...(t.webUrl && t.commit ? { versionControlProvenance: [{ repositoryUri: t.webUrl, revisionId: t.commit }] } : {}),
    results,
    properties: { rubric: report.rubric, total: report.total, band: report.band, minLevel: opts.minLevel },
  };
  return `${JSON.stringify({ $schema: SARIF_SCHEMA, version: SARIF_VERSION, runs: [run] }, null, 2)}\n`;
}
