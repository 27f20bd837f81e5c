import type { Snapshot } from '../acquire/types.js';
import { linkFor, type LinkBase } from '../evaluate/evidence.js';
import type { ProbeResult } from '../probes/types.js';
import type { ClaimsSpec } from '../rubric/schema.js';
import { linearRegex, type LinearRegex } from '../facts/re2.js';
import { readSecurityDocuments } from './documents.js';
import { sentencesOf } from './extract.js';
import { judge, type Expectation } from './judge.js';
import type { Claim, Disclaimer, Document, Unmapped } from './schema.js';

export interface CompiledClaims {
  disclaimers: { re: LinearRegex; pattern: string };
  absolute: { re: LinearRegex; except: LinearRegex | null; pattern: string } | null;
  candidates: Array<{ id: string; re: LinearRegex; pattern: string }>;
  matchers: Array<{ id: string; re: LinearRegex; pattern: string } & Expectation>;
}

/** The rubric's claim patterns, compiled once for RE2 (they read the target's documents); every pattern is case-insensitive. */
export function compileClaims(spec: ClaimsSpec): CompiledClaims {
  const re = (pattern: string) => linearRegex(pattern, true);
  return {
    disclaimers: { re: re(spec.disclaimers), pattern: spec.disclaimers },
    absolute: spec.absolute === undefined ? null : { re: re(spec.absolute), except: spec.absoluteExcept === undefined ? null : re(spec.absoluteExcept), pattern: spec.absolute },
    candidates: spec.candidates.map((c) => ({ id: c.id, re: re(c.pattern), pattern: c.pattern })),
    matchers: spec.matchers.map((m) => ({ ...m, re: re(m.pattern) })),
  };
}

/** The first match of the absolute pattern that no `absoluteExcept` span covers (a setting like `--network none` is no quantifier). */
function absoluteWords(text: string, absolute: CompiledClaims['absolute']): [string] | null {
  if (!absolute) return null;
  const except = absolute.except?.matches(text, 100) ?? [];
  const hit = absolute.re.matches(text, 100).find((m) => !except.some((x) => x.start <= m.start && m.end <= x.end + 1));
  // The pattern matches a boundary character around some words (RE2 has no lookaround): quote the words only.
  return hit ? [hit.text.replace(/^[^\w]+|[^\w]+$/g, '')] : null;
}

/** Longest piece of a sentence quoted as what a candidate pattern matched. */
const MATCHED_TEXT = 80;

/** Why a sentence no matcher maps is still listed: which candidate patterns matched which words. */
function unmappedOf(text: string, candidates: CompiledClaims['candidates']): Pick<Unmapped, 'matched' | 'reason'> {
  const matched = candidates.map((c) => ({ candidate: c.id, pattern: c.pattern, text: (c.re.exec(text)?.[0] ?? '').slice(0, MATCHED_TEXT) }));
  const because = matched.map((m) => `${m.candidate} matched “${m.text}”`).join(', ');
  return { matched, reason: `looks like a claim (${because}), but no matcher of claims.yaml covers it` };
}

export interface ClaimsOfDocument {
  claims: Claim[];
  unmapped: Unmapped[];
  disclaimers: Disclaimer[];
}

/**
 * Reads one security document: each sentence outside a disclaimer section that a matcher maps is a
 * claim, judged by what the mapped probes found (src/claims/judge.ts), with bypasses consulted when
 * the sentence is absolute (never, only, every …); a sentence that only looks like a claim (a flag,
 * a mode, a number with a unit, a quoted name, a control keyword) is listed as unmapped, with why.
 */
export function claimsOf(
  doc: { path: string; text: string },
  spec: CompiledClaims,
  results: Map<string, ProbeResult>,
  base: LinkBase,
  rubricDir: string,
): ClaimsOfDocument {
  const { sentences, headings } = sentencesOf(doc.text);
  const source = (line: number) => ({ path: doc.path, line, link: linkFor(base, doc.path, line, line) });
  const disclaimers = new Map<number, Disclaimer>();
  for (const h of headings) {
    if (spec.disclaimers.re.test(h.text)) disclaimers.set(h.line, { kind: 'section', text: h.text, source: source(h.line), pattern: spec.disclaimers.pattern, sentences: 0 });
  }
  const sentenceDisclaimers: Disclaimer[] = [];
  const claims: Claim[] = [];
  const unmapped: Unmapped[] = [];
  for (const s of sentences) {
    const matched = spec.matchers.filter((m) => m.re.test(s.text));
    const candidates = matched.length ? [] : spec.candidates.filter((c) => c.re.test(s.text));
    if (!matched.length && !candidates.length) continue;
    const disclaimer = s.sections.map((h) => disclaimers.get(h.line)).find((d) => d !== undefined);
    if (disclaimer) {
      disclaimer.sentences++;
      continue;
    }
    if (spec.disclaimers.re.test(s.text)) {
      sentenceDisclaimers.push({ kind: 'sentence', text: s.text, source: source(s.line), pattern: spec.disclaimers.pattern, sentences: 1 });
      continue;
    }
    if (!matched.length) {
      unmapped.push({ text: s.text, source: source(s.line), verdict: 'unmapped', ...unmappedOf(s.text, candidates) });
      continue;
    }
    const absolute = absoluteWords(s.text, spec.absolute);
    claims.push({
      text: s.text,
      source: source(s.line),
      matched: matched.map((m) => ({ matcher: m.id, pattern: m.pattern })),
      absolute: absolute && spec.absolute ? { text: absolute[0], pattern: spec.absolute.pattern } : null,
      ...judge(matched, absolute !== null, results, base, rubricDir),
    });
  }
  // Sections and sentences in document order.
  const all = [...disclaimers.values(), ...sentenceDisclaimers].sort((a, b) => a.source.line - b.source.line);
  return { claims, unmapped, disclaimers: all };
}

/** Every security document of the target (by the rubric's globs), read and judged against the probe results. */
export async function readClaims(
  snapshot: Snapshot,
  spec: ClaimsSpec,
  results: Map<string, ProbeResult>,
  rubricDir: string,
  maxBytes: number,
): Promise<ClaimsOfDocument & { documents: Document[] }> {
  const documents = await readSecurityDocuments(snapshot, spec.documents, maxBytes);
  const compiled = compileClaims(spec);
  const base = { webUrl: snapshot.webUrl, commit: snapshot.commit };
  const out: ClaimsOfDocument & { documents: Document[] } = { documents: documents.map((d) => ({ path: d.path, status: d.status })), claims: [], unmapped: [], disclaimers: [] };
  for (const doc of documents) {
    if (doc.text === null) continue;
    const r = claimsOf({ path: doc.path, text: doc.text }, compiled, results, base, rubricDir);
    out.claims.push(...r.claims);
    out.unmapped.push(...r.unmapped);
    out.disclaimers.push(...r.disclaimers);
  }
  return out;
}
