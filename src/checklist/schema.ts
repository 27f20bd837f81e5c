import { z } from 'zod';
import { evidenceSchema } from '../report/schema.js';

/** One item of the rubric's release checklist, decided. */
export const itemSchema = z.object({
  id: z.string(),
  criterion: z.string(),
  text: z.string(),
  /** pass/fail: a probe rule decided it, with evidence; manual: only a person can check it (`how`). */
  status: z.enum(['pass', 'fail', 'manual']),
  evidence: z.array(evidenceSchema),
  how: z.string().nullable(),
});
export type Item = z.infer<typeof itemSchema>;
