import { z } from 'zod';
import { evidenceSchema } from '../report/schema.js';

export const sourceSchema = z.object({
  path: z.string(),
  line: z.number().int().min(1),
  /** Permalink at the pinned commit for GitHub targets, else path#Ln. */
  link: z.string(),
});

/** A sentence of the target's security documents that a matcher maps to probes. */
export const claimSchema = z.object({
  text: z.string(),
  source: sourceSchema,
  /** holds: every mapped probe found something; partly: some did; not-found: none did. */
  verdict: z.enum(['holds', 'partly', 'not-found']),
  /** Which matchers of claims.yaml matched the sentence, with the regex, so the mapping is explainable. */
  matched: z.array(z.object({ matcher: z.string(), pattern: z.string() })),
  /** `via`: the probe whose empty search stands in, when this one only looks `within` files that probe found and it found none. */
  probes: z.array(z.object({ id: z.string(), found: z.boolean(), via: z.string().nullable() })),
  evidence: z.array(evidenceSchema),
});
export type Claim = z.infer<typeof claimSchema>;

/** A sentence that looks like a claim but that no matcher maps: listed for a person, never dropped. */
export const unmappedSchema = z.object({
  text: z.string(),
  source: sourceSchema,
  verdict: z.literal('unmapped'),
  matched: z.array(z.object({ candidate: z.string(), pattern: z.string() })),
});
export type Unmapped = z.infer<typeof unmappedSchema>;

/**
 * What the document says is NOT protected, so not read as claims: a section whose heading says so
 * (`text` is the heading), or one candidate sentence that says so of itself.
 */
export const disclaimerSchema = z.object({
  kind: z.enum(['section', 'sentence']),
  text: z.string(),
  source: sourceSchema,
  pattern: z.string(),
  /** Sentences in it that would otherwise have been candidate claims (1 for a sentence). */
  sentences: z.number().int(),
});
export type Disclaimer = z.infer<typeof disclaimerSchema>;

export const documentSchema = z.object({ path: z.string(), status: z.enum(['read', 'oversize', 'binary', 'symlink']) });
export type Document = z.infer<typeof documentSchema>;
