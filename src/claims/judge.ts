import { evidenceFor, type LinkBase } from '../evaluate/evidence.js';
import type { Reason } from '../evaluate/rules.js';
import { found, whereLooked } from '../outcomes/where-looked.js';
import type { ProbeResult } from '../probes/types.js';
import type { ClaimProbe as ClaimProbeSpec } from '../rubric/schema.js';
import type { Claim, ClaimProbe, Verdict } from './schema.js';

/** What a matched matcher asks of the code. */
export interface Expectation {
  probes: ClaimProbeSpec[];
  contradictedBy: string[];
  bypassedBy: string[];
}

/**
 * holds when every control group was found (one finding per `oneOf` group is enough) and nothing
 * contradicts the claim; a claim that only denies something (no control) holds while nothing
 * contradicts it.
 */
export function verdictOf(probes: ClaimProbe[]): Verdict {
  if (probes.some((p) => p.role !== 'control' && p.found)) return 'contradicted';
  const groups = new Map<string, boolean>();
  for (const p of probes.filter((x) => x.role === 'control')) {
    const key = (p.oneOf ?? [p.id]).join('\0');
    groups.set(key, (groups.get(key) ?? false) || p.found);
  }
  const met = [...groups.values()].filter(Boolean).length;
  return met === groups.size ? 'holds' : met > 0 ? 'partly' : 'not-found';
}

/**
 * The probes behind one claim, in matcher order without repeats: controls, then what contradicts,
 * then (absolute claims only) bypasses. A group of alternatives that holds a probe another matcher
 * requires on its own adds nothing (that probe satisfies it), so it is left out.
 */
function probesOf(expect: Expectation[], absolute: boolean, results: Map<string, ProbeResult>): ClaimProbe[] {
  const out: ClaimProbe[] = [];
  const seen = new Set<string>();
  const add = (id: string, role: ClaimProbe['role'], oneOf: string[] | null) => {
    const key = `${role}\0${id}\0${oneOf?.join(',') ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ id, found: found(results, id), via: null, role, oneOf });
  };
  const controls = expect.flatMap((e) => e.probes);
  const alone = new Set(controls.filter((p): p is string => typeof p === 'string'));
  for (const p of controls) {
    if (typeof p === 'string') add(p, 'control', null);
    else if (!p.any.some((id) => alone.has(id))) for (const id of p.any) add(id, 'control', p.any);
  }
  for (const e of expect) for (const id of e.contradictedBy) add(id, 'contradicts', null);
  if (absolute) for (const e of expect) for (const id of e.bypassedBy) add(id, 'bypass', null);
  return out;
}

/** The verdict of one claim and, per probe, the lines it found or the empty search that stands for it. */
export function judge(expect: Expectation[], absolute: boolean, results: Map<string, ProbeResult>, base: LinkBase, rubricDir: string): Pick<Claim, 'verdict' | 'probes' | 'evidence'> {
  const probes = probesOf(expect, absolute, results);
  const reasons: Reason[] = probes.map((p) => ({ probe: p.id, saw: p.found ? 'found' : 'empty' }));
  const looked = whereLooked(reasons, results);
  looked.forEach((r, i) => {
    if (r.probe !== probes[i]!.id) probes[i]!.via = r.probe;
  });
  return { verdict: verdictOf(probes), probes, evidence: evidenceFor(looked, results, base, rubricDir, looked.length) };
}
