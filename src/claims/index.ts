import type { Snapshot } from '../acquire/types.js';
import { evidenceFor, linkFor, type LinkBase } from '../evaluate/evidence.js';
import { found, whereLooked } from '../outcomes/where-looked.js';
import type { ProbeResult } from '../probes/types.js';
import type { ClaimsSpec } from '../rubric/schema.js';
import { readSecurityDocuments } from './documents.js';
import { sentencesOf } from './extract.js';
import type { Claim, Disclaimer, Document, Unmapped } from './schema.js';

export interface CompiledClaims {
  disclaimers: { re: RegExp; pattern: string };
  candidates: Array<{ id: string; re: RegExp; pattern: string }>;
  matchers: Array<{ id: string; re: RegExp; pattern: string; probes: string[] }>;
}

/** The rubric's claim patterns, compiled once; every pattern is case-insensitive. */
export function compileClaims(spec: ClaimsSpec): CompiledClaims {
  return {
    disclaimers: { re: new RegExp(spec.disclaimers, 'i'), pattern: spec.disclaimers },
    candidates: spec.candidates.map((c) => ({ id: c.id, re: new RegExp(c.pattern, 'i'), pattern: c.pattern })),
    matchers: spec.matchers.map((m) => ({ id: m.id, re: new RegExp(m.pattern, 'i'), pattern: m.pattern, probes: m.probes })),
  };
}

export interface ClaimsOfDocument {
  claims: Claim[];
  unmapped: Unmapped[];
  disclaimers: Disclaimer[];
}

/**
 * Reads one security document: each sentence outside a disclaimer section that a matcher maps is a
 * claim, judged by whether the mapped probes found something in the code; a sentence that only
 * looks like a claim (a flag, a mode, a number with a unit, a quoted name, a control keyword) is
 * listed as unmapped.
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
      unmapped.push({ text: s.text, source: source(s.line), verdict: 'unmapped', matched: candidates.map((c) => ({ candidate: c.id, pattern: c.pattern })) });
      continue;
    }
    const reasons = [...new Set(matched.flatMap((m) => m.probes))].map((id) => ({ probe: id, saw: found(results, id) ? ('found' as const) : ('empty' as const) }));
    const looked = whereLooked(reasons, results);
    const probes = reasons.map((r, i) => ({ id: r.probe, found: r.saw === 'found', via: looked[i]!.probe === r.probe ? null : looked[i]!.probe }));
    const hits = probes.filter((p) => p.found).length;
    claims.push({
      text: s.text,
      source: source(s.line),
      verdict: hits === probes.length ? 'holds' : hits > 0 ? 'partly' : 'not-found',
      matched: matched.map((m) => ({ matcher: m.id, pattern: m.pattern })),
      probes,
      evidence: evidenceFor(looked, results, base, rubricDir, looked.length),
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
