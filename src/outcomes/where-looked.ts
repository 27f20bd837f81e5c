import type { Reason } from '../evaluate/rules.js';
import type { ProbeResult } from '../probes/types.js';

/** Whether a probe found something (a probe that did not run found nothing). */
export const found = (results: Map<string, ProbeResult>, id: string): boolean => (results.get(id)?.findings.length ?? 0) > 0;

/**
 * A probe confined `within` another probe that found nothing had nowhere to look, so its own empty
 * result shows nothing; the other probe's empty search is what decided the outcome, and is the
 * evidence to print.
 */
export function whereLooked(reasons: Reason[], results: Map<string, ProbeResult>): Reason[] {
  return reasons.map((r) => {
    let cur = r;
    for (let res = results.get(cur.probe); cur.saw === 'empty' && res && !res.applicable && res.probe.within; res = results.get(cur.probe)) {
      cur = { probe: res.probe.within.probe, saw: 'empty' };
    }
    return cur;
  });
}
