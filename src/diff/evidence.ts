import type { Evidence } from '../report/schema.js';

/**
 * What makes two pieces of evidence the same: the probe, the file and the matched text for a finding,
 * the probe and the exact search for an empty one. Line numbers and file counts are left out, so code
 * that only moved (or a tree that only grew) is not reported as a change.
 */
export function evidenceKey(e: Evidence): string {
  return e.kind === 'lines' ? JSON.stringify(['lines', e.probe, e.path, e.text]) : JSON.stringify(['search', e.probe, e.command, e.scope]);
}

export interface EvidenceDelta {
  /** In the new report only, in the new report's order. */
  appeared: Evidence[];
  /** In the old report only, in the old report's order (their links point at the old commit). */
  vanished: Evidence[];
}

function only(a: Evidence[], b: Evidence[]): Evidence[] {
  const inB = new Set(b.map(evidenceKey));
  const seen = new Set<string>();
  return a.filter((e) => {
    const k = evidenceKey(e);
    if (inB.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function evidenceDelta(before: Evidence[], after: Evidence[]): EvidenceDelta {
  return { appeared: only(after, before), vanished: only(before, after) };
}
