import type { SourceFile } from '../inventory/index.js';
import { probeReads, type FileFacts, type RawFinding } from '../facts/extract.js';
import { enclosing, liveNames, packagedEntries, reexportedNames, unimportedModules } from '../facts/usage.js';
import type { Probe } from '../rubric/schema.js';
import { TsChecker, type TypedCache } from './engines/ts.js';
import { rerunnableTerms } from './terms.js';
import type { Finding, ProbeResult } from './types.js';

/** The folders most of these files sit in (first path segment; '.' for files at the top), at most three. */
export function topFolders(paths: string[]): string[] {
  const counts = new Map<string, number>();
  for (const p of paths) {
    const top = p.includes('/') ? p.slice(0, p.indexOf('/')) : '.';
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).map(([f]) => f);
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

/** Whether a file lies in a probe's scope: the folders (or, by 'file', the files) another probe matched in. */
export function inScope(path: string, scope: string[], by: 'dir' | 'file'): boolean {
  if (by === 'file') return scope.includes(path);
  return scope.some((d) => d === '.' || path.startsWith(`${d}/`));
}

/**
 * Keeps the findings that sit in code something uses: a match inside a function, class or
 * constant that no code calls or reads (and no framework or runtime calls) is a mention, not a
 * control; so is a match that only names such a definition. Returns what was kept and how many
 * matches each probe lost this way.
 */
function usedFindings(files: SourceFile[], facts: Map<string, FileFacts>, check: boolean, live: () => Set<string>, unimported: Set<string>): { kept: Map<string, Array<[SourceFile, RawFinding]>>; unused: Map<string, number> } {
  const unused = new Map<string, number>();
  const needs: Array<{ file: SourceFile; finding: RawFinding; names: string[] }> = [];
  for (const file of files) {
    const f = facts.get(file.path);
    if (!f) continue;
    if (check && unimported.has(file.path)) {
      for (const finding of f.findings) if (!finding.probe.startsWith('@')) unused.set(finding.probe, (unused.get(finding.probe) ?? 0) + 1);
      continue;
    }
    for (const finding of f.findings) {
      if (finding.probe.startsWith('@')) continue; // the agent model's own matchers: read by src/model/
      const around = check ? enclosing(f.definitions, finding.at).filter((d) => !d.entry).map((d) => d.name) : [];
      needs.push({ file, finding, names: finding.defines && check ? [finding.defines, ...around] : around });
    }
  }
  const used = needs.some((n) => n.names.length) ? live() : new Set<string>();
  const kept = new Map<string, Array<[SourceFile, RawFinding]>>();
  for (const n of needs) {
    if (n.names.every((name) => used.has(name))) {
      let list = kept.get(n.finding.probe);
      if (!list) kept.set(n.finding.probe, (list = []));
      list.push([n.file, n.finding]);
    } else unused.set(n.finding.probe, (unused.get(n.finding.probe) ?? 0) + 1);
  }
  return { kept, unused };
}

/**
 * The names live code uses, computed when first asked and then kept: an audit reads the probes in
 * two passes (before and after the agent model) over the same files, and one token sweep serves both.
 */
export function liveOnce(files: SourceFile[], facts: Map<string, FileFacts>): () => Set<string> {
  let live: Set<string> | null = null;
  return () =>
    (live ??= liveNames(
      files.filter((f) => f.language && facts.has(f.path)).map((f) => ({ path: f.path, text: f.text, facts: facts.get(f.path)! })),
      [...packagedEntries(files), ...reexportedNames(files)],
    ));
}

/**
 * Probe results from the per-file facts: findings in used code, `within` probes confined to where
 * the probe they depend on matched, and the type-checked (`ts`) probes, which need more than one
 * file, run here over the files their prefilter picks.
 */
export function probeResults(probes: Probe[], files: SourceFile[], facts: Map<string, FileFacts>, opts: { usage?: boolean; known?: Map<string, ProbeResult>; live?: () => Set<string>; unimported?: Set<string>; typed?: TypedCache } = {}): Map<string, ProbeResult> {
  const usage = opts.usage ?? true;
  const { kept, unused } = usedFindings(files, facts, usage, opts.live ?? liveOnce(files, facts), opts.unimported ?? (usage ? unimportedModules(files) : new Set()));
  const readers = readersOf(probes, files.filter((f) => facts.has(f.path)));
  const checker = new TsChecker(files, opts.typed);
  const results = new Map<string, ProbeResult>(opts.known ?? []);
  let pending = [...probes];
  while (pending.length) {
    const ready = pending.filter((p) => !p.within || results.has(p.within.probe));
    if (ready.length === 0) throw new Error(`probes depend on each other in a cycle: ${pending.map((p) => p.id).join(', ')}`);
    pending = pending.filter((p) => !ready.includes(p));
    for (const p of ready) {
      let scope: string[] | null = null;
      if (p.within) {
        const base = results.get(p.within.probe)!.findings.map((f) => (p.within!.scope === 'dir' ? dirOf(f.path) : f.path));
        scope = [...new Set(base)].sort();
      }
      const inside = (path: string) => scope === null || inScope(path, scope, p.within!.scope);
      const searched = p.engine === 'ts' ? checker.readers(p).filter((f) => inside(f.path)) : (readers.get(p.id) ?? []).filter((f) => inside(f.path));
      const findings: Finding[] =
        p.engine === 'ts'
          ? searched.flatMap((f) => checker.run(p, f))
          : (kept.get(p.id) ?? [])
              .filter(([file]) => inside(file.path))
              .map(([file, r]) => ({ probe: p.id, path: file.path, startLine: r.startLine, endLine: r.endLine, text: r.text }));
      const folders = topFolders(searched.map((f) => f.path));
      // Only a cited empty result needs its short search checked (most are never cited); the check keeps its answers.
      const terms = findings.length === 0 && searched.length > 0 ? () => rerunnableTerms(p, scope ?? folders, files) : undefined;
      results.set(p.id, { probe: p, findings, scope, filesSearched: searched.length, applicable: scope === null || scope.length > 0, unused: unused.get(p.id) ?? 0, folders, ...(terms ? { terms } : {}) });
    }
  }
  return results;
}

/**
 * The files each probe reads (those in its languages, or named by its globs), in file order: the
 * facts do not store them, as a file's path and language say it (a cached file's facts are its
 * path's and content's), and a list per file was half of a large repository's facts.
 */
function readersOf(probes: Probe[], files: SourceFile[]): Map<string, SourceFile[]> {
  const readers = new Map<string, SourceFile[]>();
  for (const p of probes) {
    if (p.engine === 'ts') continue;
    readers.set(p.id, files.filter((f) => probeReads(p, f)));
  }
  return readers;
}

