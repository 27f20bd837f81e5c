import { collectFacts, type Collected, type CollectOptions } from '../facts/index.js';
import { planOf } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import type { Probe } from '../rubric/schema.js';
import { probeResults } from './run.js';
import type { ProbeResult } from './types.js';

/** Facts of every file (cached, in parallel), then each probe's result: the probe stage of an audit. */
export async function runProbes(probes: Probe[], files: SourceFile[], opts: CollectOptions = {}): Promise<{ results: Map<string, ProbeResult>; collected: Collected }> {
  const collected = await collectFacts(files, planOf({ probes }), opts);
  return { results: probeResults(probes, files, collected.facts), collected };
}
