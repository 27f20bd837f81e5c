import type { ModelReads, ModelSpec, Probe, Rubric } from '../rubric/schema.js';
import type { Finding, ProbeResult } from '../probes/types.js';
import { topFolders } from '../probes/run.js';
import { pathsMatching, type AgentModel } from './index.js';

/** A model fact as a probe, so rules, evidence and explain read it like any other. */
export function factProbe(f: ModelSpec['facts'][number]): Probe {
  const reads: ModelReads = f.paths.loop ? 'loops' : f.paths.recorded !== undefined ? 'dispatches' : f.paths.sink !== undefined ? 'sinks' : 'tool paths';
  // A fact has no match snippets: it is read from the model, never run on a snippet.
  return { id: f.id, title: f.title, ...(f.found ? { found: f.found } : {}), absent: f.absent, criteria: f.criteria, engine: 'model', reads, languages: [], files: [], ignoreCase: false, tests: { match: [], noMatch: [] } } as unknown as Probe;
}

/** Everything a rule may name: the rubric's probes and the agent model's facts, as probes. */
export function ruleSubjects(rubric: Pick<Rubric, 'probes' | 'model'>): Probe[] {
  return [...rubric.probes, ...(rubric.model?.facts ?? []).map(factProbe)];
}

/** A fact about the ask on a path (that one holds, what it shows, its kind) is shown where the ask is, not at the sink it guards. */
const aboutAsk = (q: ModelSpec['facts'][number]['paths']): boolean => q.gated === true || q.asked === true || q.showsInput === true || q.gate !== undefined;

/**
 * Each fact's outcome: found at every sink (or tool definition) a matching path ends at, or at its
 * ask or check when the fact is about those, one finding per place. An empty outcome searched
 * every code file the model was built from.
 */
export function factResults(spec: ModelSpec, model: AgentModel, codeFiles: string[]): Map<string, ProbeResult> {
  const out = new Map<string, ProbeResult>();
  for (const f of spec.facts) {
    const seen = new Set<string>();
    const findings: Finding[] = [];
    const sites = f.paths.loop
      ? typeof f.paths.loop === 'string' ? (model.loopsBy[f.paths.loop] ?? []) : model.loops
      : f.paths.recorded !== undefined
        ? model.dispatches.filter((d) => !!d.record === f.paths.recorded).map((d) => d.record ?? d.site)
      : f.paths.sink !== undefined
        ? model.allSinks.filter((x) => x.kind === f.paths.sink).map((x) => x.site)
        : pathsMatching(model, f.paths).map(({ tool, path }) => (f.paths.checked && path?.check ? path.check : aboutAsk(f.paths) && path?.gate ? path.gate.site : path ? path.sink : tool.site));
    for (const site of sites) {
      const key = `${site.path}:${site.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push({ probe: f.id, path: site.path, startLine: site.line, endLine: site.endLine, text: site.text });
    }
    findings.sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine);
    out.set(f.id, { probe: factProbe(f), findings, scope: null, filesSearched: codeFiles.length, applicable: true, folders: topFolders(codeFiles) });
  }
  return out;
}
