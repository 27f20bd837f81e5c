import { lineStartsOf, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import { extractBatch, probeReads } from '../facts/extract.js';
import { planOf, type Plan } from '../facts/plan.js';
import type { Probe } from '../rubric/schema.js';
import { probeResults } from './run.js';

const EXT: Record<string, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'js', python: 'py', rust: 'rs', go: 'go', json: 'json', yaml: 'yaml', toml: 'toml', text: 'txt' };

export interface SnippetOutcome {
  probe: string;
  expect: 'match' | 'noMatch';
  /** The snippet's index, or how a noMatch case was derived from match snippet `index`. */
  index: number;
  derived?: 'comment' | 'docstring' | 'message';
  lang: string;
  ok: boolean;
  why: string;
}

type Snippet = Probe['tests']['match'][number];

/** A probe's plan, resolved once for all its snippets (half of a self-test's time went to resolving it again). */
const plans = new WeakMap<Probe, Plan>();

/**
 * What a probe finds in each snippet, through the same extraction and join as an audit, except its
 * `within` scope and the usage check: a snippet is a fragment, so whether its definitions are used
 * elsewhere is tested on whole fixtures instead. All of a probe's snippets are searched in one
 * batch, so its rules compile once rather than once per snippet; each is joined on its own.
 */
export async function snippetFindings(probe: Probe, snippets: Array<Pick<Snippet, 'lang' | 'file' | 'code'>>): Promise<Array<{ read: boolean; texts: string[] }>> {
  const alone: Probe = { ...probe, within: undefined };
  let plan = plans.get(probe);
  if (!plan) plans.set(probe, (plan = planOf({ probes: [alone] })));
  const files: SourceFile[] = snippets.map((s) => {
    const path = s.file ?? `snippet.${EXT[s.lang]}`;
    return { path, language: languageOf(path), text: s.code, lineStarts: lineStartsOf(s.code) };
  });
  const read = files.map((f) => probeReads(alone, f));
  const searched = files.filter((_, i) => read[i]);
  const extracted = await extractBatch(searched, plan);
  let next = 0;
  return files.map((file, i) => {
    if (!read[i]) return { read: false, texts: [] };
    const facts = new Map([[file.path, extracted[next++]!]]);
    return { read: true, texts: probeResults([alone], [file], facts, { usage: false }).get(probe.id)!.findings.map((f) => f.text) };
  });
}

const CODE_LANGS = new Set(['typescript', 'tsx', 'javascript', 'python', 'rust', 'go']);

/**
 * The same code as prose: commented out, as a docstring, inside a log message. None of these may
 * match any probe, so every match snippet yields these noMatch cases for free.
 */
export function proseVariants(s: Pick<Snippet, 'lang' | 'file' | 'code'>): Array<{ derived: NonNullable<SnippetOutcome['derived']>; snippet: Pick<Snippet, 'lang' | 'file' | 'code'> }> {
  const lines = s.code.split('\n');
  const quoted = JSON.stringify(s.code);
  if (!CODE_LANGS.has(s.lang)) {
    // Config-like files: YAML, TOML and shell comments start with '#'; JSON has no comments.
    return s.lang === 'json' ? [] : [{ derived: 'comment', snippet: { ...s, code: lines.map((l) => `# ${l}`).join('\n') } }];
  }
  const marker = s.lang === 'python' ? '#' : '//';
  const out: ReturnType<typeof proseVariants> = [{ derived: 'comment', snippet: { ...s, code: lines.map((l) => `${marker} ${l}`).join('\n') } }];
  const log: Record<string, string> = {
    typescript: `console.log(${quoted})`,
    tsx: `console.log(${quoted})`,
    javascript: `console.log(${quoted})`,
    python: `logger.info(${quoted})`,
    go: `func f() { log.Printf(${quoted}) }`,
    rust: `fn f() { println!("{}", ${quoted}); }`,
  };
  out.push({ derived: 'message', snippet: { ...s, code: log[s.lang]! } });
  if (s.lang === 'python' && !s.code.includes('"""')) out.push({ derived: 'docstring', snippet: { ...s, code: `def f():\n    """\n${s.code}\n    """\n    return None\n` } });
  return out;
}

/**
 * Runs each probe against its own snippets, like ast-grep's rule tests: every match snippet must
 * match (and, where it says `matched`, on exactly that text), no noMatch snippet may, and no match
 * snippet may still match once it is turned into a comment, a docstring or a log message.
 */
export async function testProbe(probe: Probe): Promise<SnippetOutcome[]> {
  const out: SnippetOutcome[] = [];
  const variants = probe.tests.match.flatMap((s, index) => proseVariants(s).map((v) => ({ index, s, ...v })));
  const found = await snippetFindings(probe, [...probe.tests.match, ...probe.tests.noMatch, ...variants.map((v) => v.snippet)]);
  let k = 0;
  for (const expect of ['match', 'noMatch'] as const) {
    for (const [index, s] of probe.tests[expect].entries()) {
      const { read, texts } = found[k++]!;
      const base = { probe: probe.id, expect, index, lang: s.lang };
      if (!read) {
        out.push({ ...base, ok: false, why: `the probe does not read ${s.file ?? `snippet.${EXT[s.lang]}`} (check languages/files)` });
        continue;
      }
      let why = '';
      if (expect === 'noMatch' && texts.length) why = `expected no match, found ${texts.length}: ${texts[0]}`;
      if (expect === 'match' && !texts.length) why = 'expected a match, found none';
      if (expect === 'match' && texts.length && s.matched !== undefined && !texts.includes(s.matched)) why = `expected a match on \`${s.matched}\`, found ${texts.map((t) => `\`${t}\``).join(', ')}`;
      out.push({ ...base, ok: why === '', why });
    }
  }
  for (const { index, s, derived } of variants) {
    const { texts } = found[k++]!;
    out.push({ probe: probe.id, expect: 'noMatch', index, lang: s.lang, derived, ok: texts.length === 0, why: texts.length ? `match snippet ${index} as a ${derived} still matches: ${texts[0]}` : '' });
  }
  return out;
}
