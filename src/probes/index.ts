import { collectFacts, type Collected, type CollectOptions } from '../facts/index.js';
import { planOf } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import { factResults } from '../model/facts.js';
import { buildModel, type AgentModel } from '../model/index.js';
import type { Probe, Rubric } from '../rubric/schema.js';
import { probeResults } from './run.js';
import type { ProbeResult } from './types.js';

export interface ProbeRun {
  results: Map<string, ProbeResult>;
  collected: Collected;
  /** The agent model, when the rubric declares one (model.yaml). */
  model: AgentModel | null;
}

/**
 * The probe stage of an audit: the facts of every file (cached, in parallel), each probe's result,
 * and the agent model joined from the same facts, whose facts join the results like probes.
 */
export async function runProbes(rubric: Pick<Rubric, 'probes' | 'model'>, files: SourceFile[], opts: CollectOptions = {}, probes: Probe[] = rubric.probes): Promise<ProbeRun> {
  const collected = await collectFacts(files, planOf(rubric, probes), opts);
  const results = probeResults(probes, files, collected.facts);
  if (!rubric.model) return { results, collected, model: null };
  const runners = rubric.model.runners ? (results.get(rubric.model.runners)?.findings ?? []).map((f) => ({ path: f.path, finding: f })) : [];
  const model = buildModel(rubric.model, files, collected.facts, runners);
  for (const [id, r] of factResults(rubric.model, model, files.filter((f) => f.language).length)) results.set(id, r);
  return { results, collected, model };
}
