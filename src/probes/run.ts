import picomatch from 'picomatch';
import type { Inventory, SourceFile } from '../inventory/index.js';
import type { Language, Probe } from '../rubric/schema.js';
import { astGrepEngine } from './engines/astgrep.js';
import { configEngine } from './engines/config.js';
import { textEngine } from './engines/text.js';
import { tsEngine } from './engines/ts.js';
import type { Engine, Finding, ProbeResult } from './types.js';

export const ENGINES: Record<Probe['engine'], Engine> = { text: textEngine, 'ast-grep': astGrepEngine, config: configEngine, ts: tsEngine };

/** A probe written for TypeScript also reads TSX and JavaScript: the grammar and the idioms are shared. */
function languageMatches(probe: Probe, language: Language | null): boolean {
  if (!language) return false;
  if (probe.languages.includes(language)) return true;
  return (language === 'tsx' || language === 'javascript') && probe.languages.includes('typescript');
}

const globCache = new Map<string, (p: string) => boolean>();
function globMatches(probe: Probe, path: string): boolean {
  return probe.files.some((g) => {
    let m = globCache.get(g);
    if (!m) globCache.set(g, (m = picomatch(g, { dot: true, basename: !g.includes('/') })));
    return m(path);
  });
}

export function probeReads(probe: Probe, file: SourceFile): boolean {
  return languageMatches(probe, file.language) || globMatches(probe, file.path);
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

/** Runs a set of probes over the files; dependent (`within`) probes run after what they depend on. */
export function runProbes(probes: Probe[], files: SourceFile[]): Map<string, ProbeResult> {
  const results = new Map<string, ProbeResult>();
  for (const engine of Object.values(ENGINES)) engine.begin?.(files);
  let pending = [...probes];
  while (pending.length) {
    const ready = pending.filter((p) => !p.within || results.has(p.within.probe));
    if (ready.length === 0) throw new Error(`probes depend on each other in a cycle: ${pending.map((p) => p.id).join(', ')}`);
    pending = pending.filter((p) => !ready.includes(p));

    const scopes = new Map<string, string[] | null>();
    for (const p of ready) {
      if (!p.within) scopes.set(p.id, null);
      else {
        const base = results.get(p.within.probe)!.findings.map((f) => (p.within!.scope === 'dir' ? dirOf(f.path) : f.path));
        scopes.set(p.id, [...new Set(base)].sort());
      }
    }
    const found = new Map<string, Finding[]>(ready.map((p) => [p.id, []]));
    const searched = new Map<string, number>(ready.map((p) => [p.id, 0]));
    for (const file of files) {
      const byEngine = new Map<Engine, Probe[]>();
      for (const p of ready) {
        const scope = scopes.get(p.id);
        if (!probeReads(p, file) || (scope && !inScope(file.path, scope, p.within!.scope))) continue;
        searched.set(p.id, searched.get(p.id)! + 1);
        const engine = ENGINES[p.engine];
        byEngine.set(engine, [...(byEngine.get(engine) ?? []), p]);
      }
      for (const [engine, ps] of byEngine) for (const f of engine.run(ps, file)) found.get(f.probe)!.push(f);
    }
    for (const p of ready) {
      const scope = scopes.get(p.id)!;
      results.set(p.id, { probe: p, findings: found.get(p.id)!, scope, filesSearched: searched.get(p.id)!, applicable: scope === null || scope.length > 0 });
    }
  }
  return results;
}

export function runRubricProbes(probes: Probe[], inventory: Inventory): Map<string, ProbeResult> {
  return runProbes(probes, inventory.files);
}
