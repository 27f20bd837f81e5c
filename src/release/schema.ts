import { z } from 'zod';
import { itemSchema } from '../checklist/schema.js';
import { claimSchema, disclaimerSchema, documentSchema, sourceSchema, unmappedSchema, VERDICTS } from '../claims/schema.js';
import { evidenceSchema } from '../report/schema.js';

export const regressionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('item'), id: z.string(), text: z.string(), was: z.literal('pass'), now: z.literal('fail'), evidence: z.array(evidenceSchema) }),
  z.object({ kind: z.literal('claim'), text: z.string(), source: sourceSchema, was: z.literal('holds'), now: z.enum(['partly', 'not-found', 'contradicted']), evidence: z.array(evidenceSchema) }),
]);
export type Regression = z.infer<typeof regressionSchema>;

/** `audit checklist --format json`: the checklist items and the claims; also what `--baseline` reads back. */
export const releaseReportSchema = z.object({
  tool: z.object({ name: z.string(), version: z.string() }),
  rubric: z.object({ id: z.string(), version: z.string(), hash: z.string() }),
  target: z.object({ name: z.string(), repo: z.string(), webUrl: z.string().nullable(), commit: z.string().nullable(), kind: z.enum(['git', 'folder']) }),
  criteria: z.array(z.object({ id: z.string(), title: z.string() })),
  summary: z.object({
    pass: z.number().int(),
    fail: z.number().int(),
    manual: z.number().int(),
    holds: z.number().int(),
    partly: z.number().int(),
    notFound: z.number().int(),
    /** Claims a probe finding contradicts (absent from outputs of earlier versions). */
    contradicted: z.number().int().default(0),
    unmapped: z.number().int(),
    regressions: z.number().int(),
  }),
  items: z.array(itemSchema),
  documents: z.array(documentSchema),
  claims: z.array(claimSchema),
  unmapped: z.array(unmappedSchema),
  disclaimers: z.array(disclaimerSchema),
  /** Against `--baseline`: items that passed and now fail, claims that held and now do not. */
  baseline: z.string().nullable(),
  regressions: z.array(regressionSchema),
});
export type ReleaseReport = z.infer<typeof releaseReportSchema>;

/** What a baseline must carry to be compared: only ids, texts and outcomes (older outputs may hold more). */
export const baselineSchema = z.object({
  items: z.array(z.object({ id: z.string(), status: z.enum(['pass', 'fail', 'manual']) })),
  claims: z.array(z.object({ text: z.string(), source: z.object({ path: z.string() }), verdict: z.enum(VERDICTS) })),
});
export type Baseline = z.infer<typeof baselineSchema>;
