import type { Snapshot } from '../acquire/types.js';
import { lineStartsOf, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import { probeReads, type FileFacts } from '../facts/extract.js';
import { collectFacts, type CollectOptions } from '../facts/index.js';
import { planKey, planOf, type PlanProbe } from '../facts/plan.js';
import { aliasSinks } from '../model/graph.js';
import { inScope } from '../probes/run.js';
import { TsChecker } from '../probes/engines/ts.js';
import type { Evidence } from '../report/schema.js';
import type { Probe, Rubric } from '../rubric/schema.js';

/** A place to re-check: cited lines and the probe (or agent-model matcher) that found them. */
export type Checkable = Pick<Extract<Evidence, { kind: 'lines' }>, 'probe' | 'path' | 'startLine' | 'endLine' | 'text'> & { verified: boolean };

/**
 * "(verified)" means the tool re-read what it cites and found there what the probe claims. Each
 * cited file is read again from the snapshot (not from the copy the probes used) and the probe is
 * run again on it alone: the cited lines must hold the same match, found on the syntax tree, so a
 * comment, docstring or log message can never verify. What the agent model cites (a tool, a sink,
 * a fact's path) re-verifies against the model's own matchers. A search is verified when it covered
 * every product file in its scope that the probe reads (a type-checked search: every such file that
 * names its callees, each re-run and still without a hit). Evidence that fails stays unverified, and
 * the scorecard says how many pieces of a level are.
 *
 * A re-search depends only on the file's content and the rules searched for, so with a facts cache
 * it is kept by both (a plan of just the cited probes, never the audit's own plan): re-auditing the
 * next commit searches again only the cited files whose content changed.
 */
export async function verifyEvidence(
  evidence: Array<Evidence | Checkable>,
  snapshot: Snapshot,
  rubric: Pick<Rubric, 'probes' | 'model'>,
  productFiles: string[],
  maxBytes: number,
  cache: CollectOptions = {},
): Promise<void> {
  const probes = new Map(rubric.probes.map((p) => [p.id, p]));
  const facts = new Set((rubric.model?.facts ?? []).map((f) => f.id));
  // Model facts and the model's own matchers re-verify against every matcher the model is built from.
  // The audit's own plan, resolved once per rubric: the model's matchers and every probe's rules.
  const planned = planOf(rubric).probes;
  const modelPlan: PlanProbe[] = rubric.model ? planned.filter((p) => p.id.startsWith('@') || p.id === rubric.model!.runners) : [];
  const isLines = (e: Evidence | Checkable): e is Checkable => !('kind' in e) || e.kind === 'lines';
  const scopeOf = (e: Extract<Evidence, { kind: 'search' }>, probe: Probe) =>
    productFiles.filter((p) => inScope(p, e.scope, probe.within?.scope ?? 'dir') && probeReads(probe, { path: p, language: languageOf(p) }));
  // A type-checked search read only the files that name its callees: those are read again and re-run.
  const typed = evidence.flatMap((e) => (!isLines(e) && probes.get(e.probe)?.engine === 'ts' ? scopeOf(e, probes.get(e.probe)!) : []));
  const wanted = [...new Set([...evidence.filter(isLines).map((e) => e.path), ...typed])].sort();
  const data = await snapshot.read(wanted, maxBytes);
  const files = new Map<string, SourceFile>();
  for (const [path, buf] of data) {
    if (!buf) continue;
    const text = buf.toString('utf8');
    files.set(path, { path, language: languageOf(path), text, lineStarts: lineStartsOf(text) });
  }
  const checker = new TsChecker([...files.values()], cache.cache && { ...cache.cache, purpose: 'verify' });
  // Every cited file is searched again at once, with every probe cited in it: one scan compiles
  // the rules once, and a probe's findings do not depend on which other probes ran beside it.
  const cited = evidence.filter(isLines).filter((e) => e.probe !== '@line' && files.has(e.path));
  const isModel = (id: string) => facts.has(id) || id.startsWith('@');
  const citedIds = new Set(cited.map((e) => e.probe));
  const rubricPlan = planned.filter((p) => citedIds.has(p.id) && !p.id.startsWith('@'));
  const searchAgain = async (wanted: (e: Checkable) => boolean, plan: PlanProbe[], calls: boolean) => {
    const inputs = [...new Set(cited.filter(wanted).map((e) => e.path))].sort().map((p) => files.get(p)!);
    if (!plan.length || !inputs.length) return new Map<string, FileFacts>();
    return (await collectFacts(inputs, { key: planKey(plan, calls, 'verify'), probes: plan, calls }, cache)).facts;
  };
  const byRubric = await searchAgain((e) => probes.has(e.probe) && probes.get(e.probe)!.engine !== 'ts', rubricPlan, false);
  const byModel = await searchAgain((e) => !probes.has(e.probe) && isModel(e.probe), modelPlan, true);
  const rerun = new Map<string, Array<{ startLine: number; endLine: number; text: string }>>();
  const again = (id: string, file: SourceFile) => {
    const key = `${id}\0${file.path}`;
    let got = rerun.get(key);
    if (got) return got;
    const probe = probes.get(id);
    if (probe?.engine === 'ts') got = checker.run(probe, file);
    else if (probe) got = (byRubric.get(file.path)?.findings ?? []).filter((f) => f.probe === id);
    else if (isModel(id)) {
      const found = byModel.get(file.path);
      if (!found) got = [];
      // A fact can end at a call of a name bound to a sink function: a sink the model derives from the calls, not a match.
      else got = facts.has(id) ? [...found.findings, ...aliasSinks(file, found)] : found.findings.filter((f) => f.probe === id);
    } else got = [];
    rerun.set(key, got);
    return got;
  };
  for (const e of evidence) {
    if (isLines(e)) {
      const f = files.get(e.path);
      if (f && e.probe === '@line') {
        // A call of an asking helper: the cited line must still read as cited.
        e.verified = f.text.slice(f.lineStarts[e.startLine - 1], f.lineStarts[e.startLine] ?? f.text.length).includes(e.text.slice(0, 120));
        continue;
      }
      e.verified = !!f && again(e.probe, f).some((g) => g.startLine === e.startLine && g.endLine === e.endLine && g.text === e.text);
    } else {
      const probe = probes.get(e.probe);
      if (!probe) {
        // A model fact searched every code file the model was built from.
        e.verified = facts.has(e.probe) && e.filesSearched > 0;
        continue;
      }
      const scoped = scopeOf(e, probe);
      if (probe.engine === 'ts') {
        const naming = scoped.map((p) => files.get(p)).filter((f): f is SourceFile => !!f && probe.calls!.some((c) => f.text.includes(c)));
        e.verified = e.filesSearched > 0 && naming.length === e.filesSearched && naming.every((f) => again(probe.id, f).length === 0);
      } else e.verified = e.filesSearched > 0 && scoped.length === e.filesSearched;
    }
  }
}
