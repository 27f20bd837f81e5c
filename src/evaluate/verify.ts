import type { Snapshot } from '../acquire/types.js';
import { lineStartsOf, linesText, sourceText, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import { probeReads } from '../facts/extract.js';
import type { CollectOptions } from '../facts/index.js';
import { inScope } from '../probes/run.js';
import { TsChecker } from '../probes/engines/ts.js';
import type { Evidence } from '../report/schema.js';
import type { Probe, Rubric } from '../rubric/schema.js';

/** A place to re-check: cited lines and the probe (or agent-model matcher) that found them. */
export type Checkable = Pick<Extract<Evidence, { kind: 'lines' }>, 'probe' | 'path' | 'startLine' | 'endLine' | 'text'> & { verified: boolean };

/**
 * "(verified)" means the tool re-read what it cites and found it there. Each cited file is read
 * again from the snapshot (not from the copy the probes used), and the cited lines must exist and
 * hold the cited text: a link can never point at lines that do not read as the report says. The
 * lines were cited because a probe matched code on the syntax tree, so a comment or message was
 * never cited in the first place. Evidence of a probe or matcher the rubric does not know is not
 * verified. A search is verified when it covered every product file in its scope that the probe
 * reads (a type-checked search: every such file that names its callees, each re-run and still
 * without a hit). Evidence that fails stays unverified, and the scorecard says how many pieces of
 * a level are.
 *
 * Reading the lines, not running the probes again, is what the speed issue asks for: re-running
 * every cited probe on its file compiled their rules once more, 0.6-0.9 s of a first audit of
 * gemini-cli.
 */
export async function verifyEvidence(
  evidence: Array<Evidence | Checkable>,
  snapshot: Snapshot,
  rubric: Pick<Rubric, 'probes' | 'model'>,
  product: SourceFile[],
  maxBytes: number,
  cache: CollectOptions = {},
): Promise<void> {
  const productFiles = product.map((f) => f.path);
  const probes = new Map(rubric.probes.map((p) => [p.id, p]));
  // Model facts, the model's own matchers (`@…`) and the places a gate's check names (`@line`).
  const facts = new Set((rubric.model?.facts ?? []).map((f) => f.id));
  const known = (id: string) => probes.has(id) || facts.has(id) || id.startsWith('@');
  const isLines = (e: Evidence | Checkable): e is Checkable => !('kind' in e) || e.kind === 'lines';
  const scopeOf = (e: Extract<Evidence, { kind: 'search' }>, probe: Probe) =>
    productFiles.filter((p) => inScope(p, e.scope, probe.within?.scope ?? 'dir') && probeReads(probe, { path: p, language: languageOf(p) }));
  // A type-checked search read only the files that name its callees: those are read again and re-run.
  const typed = evidence.flatMap((e) => (!isLines(e) && probes.get(e.probe)?.engine === 'ts' ? scopeOf(e, probes.get(e.probe)!) : []));
  const wanted = [...new Set([...evidence.filter(isLines).map((e) => e.path), ...typed])].sort();
  // A file the inventory read holds the commit's bytes already: reading its blob again (a git
  // process the audit then waits on, 0.1-0.25 s on gemini-cli) would give the same text.
  const read = new Map(product.map((f) => [f.path, f]));
  const files = new Map<string, SourceFile>();
  for (const path of wanted) if (read.has(path)) files.set(path, read.get(path)!);
  const data = await snapshot.read(wanted.filter((p) => !files.has(p)), maxBytes);
  for (const [path, buf] of data) {
    if (!buf) continue;
    const text = sourceText(buf);
    files.set(path, { path, language: languageOf(path), text, lineStarts: lineStartsOf(text) });
  }
  const checker = new TsChecker([...files.values()], cache.cache && { ...cache.cache, purpose: 'verify' });
  for (const e of evidence) {
    if (isLines(e)) {
      const f = files.get(e.path);
      e.verified = !!f && known(e.probe) && readsAsCited(f, e);
      continue;
    }
    const probe = probes.get(e.probe);
    if (!probe) {
      // A model fact searched every code file the model was built from.
      e.verified = facts.has(e.probe) && e.filesSearched > 0;
      continue;
    }
    const scoped = scopeOf(e, probe);
    if (probe.engine === 'ts') {
      const naming = scoped.map((p) => files.get(p)).filter((f): f is SourceFile => !!f && probe.calls!.some((c) => f.text.includes(c)));
      e.verified = e.filesSearched > 0 && naming.length === e.filesSearched && naming.every((f) => checker.run(probe, f).length === 0);
    } else e.verified = e.filesSearched > 0 && scoped.length === e.filesSearched;
  }
}

/** Whether the cited lines exist in the file and hold the cited text (its first line, as evidence shows it). */
function readsAsCited(f: SourceFile, e: Pick<Checkable, 'startLine' | 'endLine' | 'text'>): boolean {
  if (e.startLine < 1 || e.endLine < e.startLine || e.endLine > f.lineStarts.length) return false;
  return linesText(f, e.startLine, e.endLine).includes(e.text.slice(0, 120));
}
