import type { ReleaseReport } from './schema.js';

/** What `--fail-on` can stop a release for. */
export const GATES = ['not-found', 'partly', 'fail', 'regression'] as const;
export type Gate = (typeof GATES)[number];

/**
 * One line per reason the release gate fails: a claimed control missing from the code or a claim
 * the code contradicts (`not-found`; `partly` also counts claims with some control missing), a
 * checklist item that fails (`fail`), or anything worse than at the baseline (`regression`).
 */
export function gateFailures(report: ReleaseReport, gates: ReadonlySet<Gate>): string[] {
  const at = (s: { path: string; line: number }) => `${s.path}:${s.line}`;
  const missing = gates.has('not-found') || gates.has('partly');
  const out: string[] = [];
  for (const c of report.claims) {
    if (c.verdict === 'not-found' && missing) out.push(`claim not found in the code (${at(c.source)})`);
    if (c.verdict === 'contradicted' && missing) out.push(`claim contradicted by the code (${at(c.source)})`);
    if (c.verdict === 'partly' && gates.has('partly')) out.push(`claim only partly found in the code (${at(c.source)})`);
  }
  if (gates.has('fail')) for (const i of report.items) if (i.status === 'fail') out.push(`checklist item ${i.id} fails`);
  if (gates.has('regression')) {
    for (const r of report.regressions) out.push(r.kind === 'item' ? `regression: ${r.id} passed at the baseline` : `regression: claim held at the baseline (${at(r.source)})`);
  }
  return out;
}
