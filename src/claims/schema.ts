import { z } from 'zod';
import { evidenceSchema } from '../report/schema.js';

export const sourceSchema = z.object({
  path: z.string(),
  line: z.number().int().min(1),
  /** Permalink at the pinned commit for GitHub targets, else path#Ln. */
  link: z.string(),
});

/** What a claim's verdict can be; `contradicted`: a probe found what the claim says is not there. */
export const VERDICTS = ['holds', 'partly', 'not-found', 'contradicted'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * One probe behind a claim. `control`: its finding shows the claimed control (`oneOf`: alternatives,
 * one finding of which is enough); `contradicts`: its finding shows what the claim denies;
 * `bypass`: its finding is a path around the control, which contradicts an absolute claim.
 */
export const claimProbeSchema = z.object({
  id: z.string(),
  found: z.boolean(),
  /** The probe whose empty search stands in, when this one only looks `within` files that probe found and it found none. */
  via: z.string().nullable(),
  role: z.enum(['control', 'contradicts', 'bypass']),
  oneOf: z.array(z.string()).nullable(),
});
export type ClaimProbe = z.infer<typeof claimProbeSchema>;

/** A sentence of the target's security documents that a matcher maps to probes. */
export const claimSchema = z.object({
  text: z.string(),
  source: sourceSchema,
  /**
   * contradicted: a contradicting or (for an absolute claim) bypassing probe found something;
   * otherwise holds when every control was found, partly when some were, not-found when none was.
   */
  verdict: z.enum(VERDICTS),
  /** Which matchers of claims.yaml matched the sentence, with the regex, so the mapping is explainable. */
  matched: z.array(z.object({ matcher: z.string(), pattern: z.string() })),
  /** The words that made it an absolute claim (never, only, every …) and the pattern, or null. */
  absolute: z.object({ text: z.string(), pattern: z.string() }).nullable(),
  probes: z.array(claimProbeSchema),
  evidence: z.array(evidenceSchema),
});
export type Claim = z.infer<typeof claimSchema>;

/** A sentence that looks like a claim but that no matcher maps: listed for a person, never dropped. */
export const unmappedSchema = z.object({
  text: z.string(),
  source: sourceSchema,
  verdict: z.literal('unmapped'),
  /** Each candidate pattern that made it look like a claim, and the words it matched. */
  matched: z.array(z.object({ candidate: z.string(), pattern: z.string(), text: z.string() })),
  /** The same in a sentence: what made it look like a claim, and that no matcher covers it. */
  reason: z.string(),
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
