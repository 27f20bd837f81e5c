import type { Probe } from '../rubric/schema.js';
import { requiredLiterals, requiredWords } from './prefilter.js';

/** Search terms by probe: a probe is cited by many levels, and reading its rules' literals is not free. */
const termsOf = new WeakMap<Probe, string[] | null>();

/** Distinctive literal terms every match of the probe contains, for a short search a reader can re-run; null when there are none. */
export function searchTerms(probe: Probe): string[] | null {
  if (!termsOf.has(probe)) termsOf.set(probe, readTerms(probe));
  return termsOf.get(probe)!;
}

function readTerms(probe: Probe): string[] | null {
  let terms: string[] | null = null;
  // The text of an ast-grep rule that reads a regex ignoring case (its words come lower-cased), else null.
  let caseFolded: string | null = null;
  if (probe.engine === 'text' && probe.pattern) terms = requiredLiterals(probe.pattern, probe.ignoreCase);
  else if (probe.engine === 'code' && probe.code) terms = Object.values(probe.code).flatMap((re) => (re ? (requiredLiterals(re, false) ?? []) : []));
  else if (probe.engine === 'ast-grep') {
    const first = Object.values(probe.rules ?? {})[0];
    terms = first ? requiredWords(first) : null;
    const source = first ? JSON.stringify(first) : '';
    if (source.includes('(?i')) caseFolded = source.replace(/\\/g, '');
  } else if (probe.engine === 'config' && probe.select) terms = [probe.select.split('.').filter((k) => k !== '*').pop() ?? probe.select];
  const clean = [...new Set((terms ?? []).map((t) => t.replace(/['\\]/g, '').trim()).filter((t) => t.length >= 3))].slice(0, 4);
  // A rule with a regex read ignoring case gives its words lower-cased: a term the rule writes with
  // capitals (`ImportError`) would be searched as `importerror`, which re-runs empty over code full
  // of it. Such a probe cites its rules instead.
  if (caseFolded !== null && !clean.every((t) => caseFolded.includes(t))) return null;
  return clean.length ? clean : null;
}

/** Terms joined by `|` as one regex that matches each literally (`.default(` is no group): what rg is given. */
export const literalPattern = (terms: string): string =>
  terms
    .split('|')
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');

/** Whether a path lies under one of the folders (or is one of the files) a search names; '.' is everything. */
const under = (path: string, where: string[]): boolean => where.some((w) => w === '.' || path === w || path.startsWith(`${w}/`));

/**
 * The terms of an empty search, when `rg -n 'a|b' <where>` re-runs empty on the files the audit
 * read: none of them holds a term. A reader re-running the short form elsewhere would see hits the
 * probe did not count (a name in a comment or a test of it, a construct it does not match), and
 * read the report's "0 hits" as false; there the report shows the search that was made instead.
 * Files the audit did not read (tests, docs) may still hold a term: the report lists them as excluded.
 */
export function rerunnableTerms(probe: Probe, where: string[], files: Array<{ path: string; text: string }>): string | null {
  const terms = searchTerms(probe);
  if (!terms) return null;
  let memo = occurrences.get(files);
  if (!memo) occurrences.set(files, (memo = { under: new Map(), found: new Map() }));
  const key = where.join('\0');
  let texts = memo.under.get(key);
  if (!texts) memo.under.set(key, (texts = files.filter((f) => under(f.path, where)).map((f) => f.text)));
  // One regex over the texts for all the terms rather than a search per term (18 absent terms over
  // gemini-cli's 8.8 MB of product files: 35-68 ms against 86-116 ms): the very pattern the report prints.
  const shown = terms.join('|');
  const k = `${shown}\0${key}`;
  let found = memo.found.get(k);
  if (found === undefined) {
    const re = new RegExp(literalPattern(shown));
    memo.found.set(k, (found = texts.some((t) => re.test(t))));
  }
  return found ? null : shown;
}

/** Per set of files (an audit's): the texts under each folder list, and whether a probe's terms occur there. */
const occurrences = new WeakMap<object, { under: Map<string, string[]>; found: Map<string, boolean> }>();
