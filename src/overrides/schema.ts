import { z } from 'zod';
import { TARGET_TEXT_KEYS } from '../inventory/metadata.js';
import { DIMENSIONS, type Rubric } from '../rubric/schema.js';

/**
 * A reviewer's corrections to a draft scorecard. Every change carries a reason; evidence is a list of
 * links or notes. The criterion, dimension and surface keys come from the rubric, so an overrides
 * file is checked against the rubric it will be applied to.
 */

const reason = z
  .string({ error: "a 'reason': text saying why the level is what it is" })
  .trim()
  .min(1, { error: "a non-empty 'reason'" });

const evidence = z.array(z.string({ error: 'a link or a note as text' }), { error: 'a list of links or notes, e.g. ["https://…", "checked by hand"]' }).default([]);

const level = z
  .number({ error: "a 'level': an integer from 0 to 4" })
  .int({ error: "a 'level': an integer from 0 to 4" })
  .min(0, { error: "a 'level' from 0 to 4" })
  .max(4, { error: "a 'level' from 0 to 4" });

export const levelOverrideSchema = z.strictObject({ level, reason, evidence }, { error: 'a mapping {level, reason, evidence}, e.g. {level: 2, reason: "…"}' });
export type LevelOverride = z.infer<typeof levelOverrideSchema>;

export const surfaceOverrideSchema = z.strictObject({
  value: z.enum(['yes', 'no', 'opt-in'], { error: "a 'value': yes, no or opt-in" }),
  reason,
  evidence,
}, { error: 'a mapping {value, reason, evidence}, e.g. {value: yes, reason: "…"}' });
export type SurfaceOverride = z.infer<typeof surfaceOverrideSchema>;

export const legOverrideSchema = z.strictObject({
  holds: z.boolean({ error: "'holds': true or false" }),
  reason,
  evidence,
}, { error: 'a mapping {holds, reason, evidence}, e.g. {holds: true, reason: "…"}' });
export type LegOverride = z.infer<typeof legOverrideSchema>;

const text = z.string({ error: 'text' }).trim().min(1, { error: 'non-empty text' });
// Every message above is a phrase that reads after "expected", so the loader can say what was wanted.

/** Header text a reviewer may restate; the same keys a target's `.audit.yaml` may claim. */
export const TEXT_KEYS = TARGET_TEXT_KEYS;
export type TextKey = (typeof TEXT_KEYS)[number];

export interface Overrides {
  levels: Record<string, Partial<Record<(typeof DIMENSIONS)[number], LevelOverride>>>;
  surface: Record<string, SurfaceOverride>;
  ruleOfTwo: Partial<Record<'A' | 'B' | 'C', LegOverride>>;
  text: Partial<Record<TextKey, string>> & { surfacesScored?: string[] };
}

/** The file's schema for one rubric: criteria and surface property ids are the rubric's own. */
export function overridesSchema(rubric: Rubric) {
  const dims = z.strictObject(Object.fromEntries(DIMENSIONS.map((d) => [d, levelOverrideSchema.optional()])) as Record<(typeof DIMENSIONS)[number], z.ZodOptional<typeof levelOverrideSchema>>, {
    error: 'a mapping of dimensions, e.g. S: {level: 2, reason: "…"}',
  });
  const criteria = Object.fromEntries(rubric.file.criteria.map((id) => [id, dims.optional()]));
  const surface = z.strictObject(Object.fromEntries(rubric.surface.properties.map((p) => [p.id, surfaceOverrideSchema.optional()])), {
    error: 'a mapping of surface properties, e.g. sub-agents: {value: yes, reason: "…"}',
  });
  const ruleOfTwo = z.strictObject({ A: legOverrideSchema.optional(), B: legOverrideSchema.optional(), C: legOverrideSchema.optional() }, {
    error: 'a mapping of legs, e.g. A: {holds: true, reason: "…"}',
  });
  return z.strictObject({
    ...criteria,
    surface: surface.optional(),
    ruleOfTwo: ruleOfTwo.optional(),
    name: text.optional(),
    whatItIs: text.optional(),
    category: text.optional(),
    scoredConfiguration: text.optional(),
    surfacesScored: z.array(text, { error: 'a list of the product surfaces scored, e.g. [desktop app, local API server]' }).optional(),
  }, { error: 'a mapping of criteria to dimensions, e.g. C10: {S: {level: 2, reason: "…"}}' });
}

/** What a key at this path may be, for "unknown key" messages. */
export function expectedKeys(rubric: Rubric, path: ReadonlyArray<PropertyKey>): string {
  const [first, second] = path;
  if (path.length === 0)
    return `a criterion (${rubric.file.criteria.join(', ')}), surface, ruleOfTwo, ${TEXT_KEYS.join(', ')} or surfacesScored`;
  if (path.length === 1 && first === 'surface') return `an agent surface property (${rubric.surface.properties.map((p) => p.id).join(', ')})`;
  if (path.length === 1 && first === 'ruleOfTwo') return 'a Rule-of-Two leg (A, B or C)';
  if (path.length === 1) return `a dimension (${DIMENSIONS.join(', ')})`;
  if (path.length === 2 && first === 'surface') return 'value, reason or evidence';
  if (path.length === 2 && first === 'ruleOfTwo') return 'holds, reason or evidence';
  if (path.length === 2 && typeof second === 'string') return 'level, reason or evidence';
  return 'no other key';
}
