import { readFileSync } from 'node:fs';
import { InputError } from '../acquire/types.js';
import type { Claim } from '../claims/schema.js';
import type { Item } from '../checklist/schema.js';
import { baselineSchema, type Baseline, type Regression } from './schema.js';

/** Reads a previous `checklist --format json` output; anything else is bad input (exit 2). */
export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read baseline ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'} (expected a file written by checklist --format json)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InputError(`baseline ${file} is not JSON (expected the output of checklist --format json)`);
  }
  const parsed = baselineSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`baseline ${file}: at ${issue.path.join('.') || '(top level)'}: ${issue.message} (expected the output of checklist --format json)`);
  }
  return parsed.data;
}

// A claim is the same claim when the same document says the same sentence, wherever the line moved.
const claimKey = (c: { text: string; source: { path: string } }) => `${c.source.path}\0${c.text}`;

/** Items that passed at the baseline and fail now; claims that held at the baseline and no longer do. */
export function regressionsSince(baseline: Baseline, items: Item[], claims: Claim[]): Regression[] {
  const wasPass = new Set(baseline.items.filter((i) => i.status === 'pass').map((i) => i.id));
  const heldBefore = new Set(baseline.claims.filter((c) => c.verdict === 'holds').map(claimKey));
  const out: Regression[] = [];
  for (const i of items) {
    if (i.status === 'fail' && wasPass.has(i.id)) out.push({ kind: 'item', id: i.id, text: i.text, was: 'pass', now: 'fail', evidence: i.evidence });
  }
  for (const c of claims) {
    if (c.verdict !== 'holds' && heldBefore.has(claimKey(c))) out.push({ kind: 'claim', text: c.text, source: c.source, was: 'holds', now: c.verdict, evidence: c.evidence });
  }
  return out;
}
