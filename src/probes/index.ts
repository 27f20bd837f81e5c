import { collectFacts, type Collected, type CollectOptions } from '../facts/index.js';
import { planOf } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import { factResults } from '../model/facts.js';
import { buildModel, type AgentModel } from '../model/index.js';
import type { Probe, Rubric } from '../rubric/schema.js';
import { liveOnce, probeResults } from './run.js';
import { unimportedModules } from '../facts/usage.js';
import type { ProbeResult } from './types.js';

export interface ProbeRun {
  results: Map<string, ProbeResult>;
  collected: Collected;
  /** The agent model, when the rubric declares one (model.yaml). */
  model: AgentModel | null;
  /** Python modules nothing imports or runs, whose matches decide nothing (sorted paths). */
  unimported: string[];
}

/**
 * The probe stage of an audit: the facts of every file (cached, in parallel), each probe's result,
 * and the agent model joined from the same facts, whose facts join the results like probes.
 */
export async function runProbes(rubric: Pick<Rubric, 'probes' | 'model'>, files: SourceFile[], opts: CollectOptions = {}, probes: Probe[] = rubric.probes): Promise<ProbeRun> {
  const collected = await collectFacts(files, planOf(rubric, probes), opts);
  const typed = opts.cache;
  const unimported = unimportedModules(files);
  const skipped = [...unimported].sort();
  if (!rubric.model) return { results: probeResults(probes, files, collected.facts, { unimported, typed }), collected, model: null, unimported: skipped };
  // Probes the model reads (runners, isolation) first; probes confined `within` a model fact after it.
  const factIds = new Set(rubric.model.facts.map((f) => f.id));
  const byId = new Map(probes.map((p) => [p.id, p]));
  const needsModel = (p: Probe | undefined): boolean => !!p?.within && (factIds.has(p.within.probe) || needsModel(byId.get(p.within.probe)));
  const live = liveOnce(files, collected.facts);
  const first = probeResults(probes.filter((p) => !needsModel(p)), files, collected.facts, { live, unimported, typed });
  // The findings of a probe the model reads (its code runners, its loops), each with its file.
  const found = (id: string | undefined) => (id ? (first.get(id)?.findings ?? []).map((f) => ({ path: f.path, finding: f })) : []);
  const otherLoops = Object.fromEntries(rubric.model.facts.flatMap((f) => (typeof f.paths.loop === 'string' ? [[f.paths.loop, found(f.paths.loop)]] : [])));
  const bounding = found(rubric.model.boundingLoops);
  const inside = (l: { path: string; finding: { startLine: number; endLine: number } }) => bounding.some((b) => b.path === l.path && b.finding.startLine < l.finding.startLine && l.finding.endLine <= b.finding.endLine);
  const model = buildModel(rubric.model, files.filter((f) => !unimported.has(f.path)), collected.facts, found(rubric.model.runners), found(rubric.model.loops).filter((l) => !inside(l)), otherLoops);
  for (const [id, r] of factResults(rubric.model, model, files.filter((f) => f.language).map((f) => f.path))) first.set(id, r);
  const results = probeResults(probes.filter(needsModel), files, collected.facts, { known: first, live, unimported, typed });
  return { results, collected, model, unimported: skipped };
}
