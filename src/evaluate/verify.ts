import type { Snapshot } from '../acquire/types.js';
import { lineStartsOf, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import { extractFacts, probeReads } from '../facts/extract.js';
import { planProbe } from '../facts/plan.js';
import { inScope } from '../probes/run.js';
import { TsChecker } from '../probes/engines/ts.js';
import type { Evidence } from '../report/schema.js';
import type { Probe } from '../rubric/schema.js';

/**
 * "(verified)" means the tool re-read what it cites and found there what the probe claims. Each
 * cited file is read again from the snapshot (not from the copy the probes used) and the probe is
 * run again on it alone: the cited lines must hold the same match, found on the syntax tree, so a
 * comment, docstring or log message can never verify. A search is verified when it covered every
 * product file in its scope that the probe reads. Evidence that fails stays unverified, and the
 * scorecard says how many pieces of a level are.
 */
export async function verifyEvidence(evidence: Evidence[], snapshot: Snapshot, probes: Map<string, Probe>, productFiles: string[], maxBytes: number): Promise<void> {
  const wanted = [...new Set(evidence.filter((e) => e.kind === 'lines').map((e) => (e as Extract<Evidence, { kind: 'lines' }>).path))].sort();
  const data = await snapshot.read(wanted, maxBytes);
  const files = new Map<string, SourceFile>();
  for (const [path, buf] of data) {
    if (!buf) continue;
    const text = buf.toString('utf8');
    files.set(path, { path, language: languageOf(path), text, lineStarts: lineStartsOf(text) });
  }
  const checker = new TsChecker([...files.values()]);
  const rerun = new Map<string, Array<{ startLine: number; endLine: number; text: string }>>();
  const again = (probe: Probe, file: SourceFile) => {
    const key = `${probe.id}\0${file.path}`;
    let got = rerun.get(key);
    if (!got) {
      got = probe.engine === 'ts' ? checker.run(probe, file) : extractFacts(file, { key: '', probes: [planProbe(probe)] }).findings;
      rerun.set(key, got);
    }
    return got;
  };
  for (const e of evidence) {
    const probe = probes.get(e.probe);
    if (e.kind === 'lines') {
      const f = files.get(e.path);
      e.verified = !!probe && !!f && again(probe, f).some((g) => g.startLine === e.startLine && g.endLine === e.endLine && g.text === e.text);
    } else {
      const scoped = productFiles.filter((p) => inScope(p, e.scope, probe?.within?.scope ?? 'dir') && !!probe && probeReads(probe, { path: p, language: languageOf(p) }));
      e.verified = !!probe && e.filesSearched > 0 && scoped.length === e.filesSearched;
    }
  }
}
