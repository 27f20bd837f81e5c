import type { Snapshot } from '../acquire/types.js';
import { lineStartsOf, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import { ENGINES, inScope, probeReads } from '../probes/run.js';
import type { Evidence } from '../report/schema.js';
import type { Probe } from '../rubric/schema.js';

/**
 * Re-reads every cited file from the snapshot (not from the copy the probes used) and marks a
 * piece of evidence verified only when the cited lines still contain the matched text, or, for a
 * search, when re-running the probe over its scope again finds nothing.
 */
export async function verifyEvidence(evidence: Evidence[], snapshot: Snapshot, probes: Map<string, Probe>, productFiles: string[], maxBytes: number): Promise<void> {
  const product = new Set(productFiles);
  const wanted = new Set<string>();
  // The same scope test the probe run used, by folder or by file as the probe's `within` says.
  const searchedIn = (e: Extract<Evidence, { kind: 'search' }>, path: string) => inScope(path, e.scope, probes.get(e.probe)?.within?.scope ?? 'dir');
  for (const e of evidence) {
    if (e.kind === 'lines') wanted.add(e.path);
    else for (const p of productFiles) if (searchedIn(e, p)) wanted.add(p);
  }
  const data = await snapshot.read([...wanted].sort(), maxBytes);
  const files = new Map<string, SourceFile>();
  for (const [path, buf] of data) {
    if (!buf) continue;
    const text = buf.toString('utf8');
    files.set(path, { path, language: languageOf(path), text, lineStarts: lineStartsOf(text) });
  }
  const searches = new Map<string, Array<Extract<Evidence, { kind: 'search' }>>>();
  for (const e of evidence) {
    if (e.kind === 'lines') {
      const f = files.get(e.path);
      if (!f) continue;
      const from = f.lineStarts[e.startLine - 1];
      const to = f.lineStarts[e.endLine] ?? f.text.length;
      e.verified = from !== undefined && f.text.slice(from, to).includes(e.text);
    } else {
      const key = `${e.probe}\0${e.scope.join('\0')}`;
      searches.set(key, [...(searches.get(key) ?? []), e]);
    }
  }
  // Each distinct search is re-run once over the re-read files, however often it is cited.
  const reread = [...files.values()].filter((f) => product.has(f.path));
  for (const engine of new Set([...searches.values()].map((g) => ENGINES[probes.get(g[0]!.probe)!.engine]))) engine.begin?.(reread);
  for (const group of searches.values()) {
    const first = group[0]!;
    const probe = probes.get(first.probe)!;
    const scoped = reread.filter((f) => searchedIn(first, f.path) && probeReads(probe, f));
    const engine = ENGINES[probe.engine];
    const clean = scoped.length === first.filesSearched && scoped.every((f) => engine.run([probe], f).length === 0);
    for (const e of group) e.verified = clean;
  }
}
