import type { FileFacts, RawFinding } from '../facts/extract.js';
import { ASKS, SINK } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';

/**
 * A unit of code the call graph links: a function or method, a handler written in place, or a
 * file's top-level code. Calls, sinks and asks are assigned to the innermost unit they sit in.
 */
export interface Fn {
  id: number;
  path: string;
  name: string;
  start: number;
  end: number;
  line: number;
  calls: Array<[string, number]>;
  sinks: RawFinding[];
  asks: RawFinding[];
  /** A sandbox probe matched inside it: the commands it runs go through that sandbox. */
  isolated: boolean;
}

export interface Graph {
  fns: Fn[];
  byName: Map<string, Fn[]>;
  byFile: Map<string, Fn[]>;
  files: Map<string, SourceFile>;
  facts: Map<string, FileFacts>;
  /** Calls that named several definitions in other files: not followed, counted for the Limitations. */
  ambiguous: number;
}

/** A call is followed to at most this many definitions of its name; more means the name is too common to resolve. */
const MAX_TARGETS = 4;

function lineOf(file: SourceFile, offset: number): number {
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Units of one file, innermost-last when nested: functions, then the file's top-level code. */
function unitsOf(file: SourceFile, facts: FileFacts, isolation: Set<string>, nextId: () => number): Fn[] {
  const fns: Fn[] = facts.definitions
    .filter((d) => d.role === 'function')
    .map((d) => ({ id: nextId(), path: file.path, name: d.name, start: d.start, end: d.end, line: lineOf(file, d.start), calls: [], sinks: [], asks: [], isolated: false }));
  const top: Fn = { id: nextId(), path: file.path, name: `<${file.path}>`, start: 0, end: file.text.length + 1, line: 1, calls: [], sinks: [], asks: [], isolated: false };
  const all = [top, ...fns];
  const innermost = (offset: number) => {
    let best = top;
    for (const f of fns) if (f.start <= offset && offset < f.end && f.start >= best.start) best = f;
    return best;
  };
  for (const c of facts.calls ?? []) innermost(c[1]).calls.push(c);
  for (const f of facts.findings) {
    if (f.probe.startsWith(SINK)) innermost(f.at).sinks.push(f);
    else if (f.probe === ASKS) innermost(f.at).asks.push(f);
    else if (isolation.has(f.probe)) innermost(f.at).isolated = true;
  }
  return all;
}

export function buildGraph(files: SourceFile[], facts: Map<string, FileFacts>, isolation: string[]): Graph {
  let id = 0;
  const nextId = () => id++;
  const iso = new Set(isolation);
  const fns: Fn[] = [];
  const byFile = new Map<string, Fn[]>();
  const byPath = new Map<string, SourceFile>();
  for (const file of files) {
    const f = facts.get(file.path);
    if (!f || !file.language) continue;
    byPath.set(file.path, file);
    const units = unitsOf(file, f, iso, nextId);
    byFile.set(file.path, units);
    fns.push(...units);
  }
  const byName = new Map<string, Fn[]>();
  for (const fn of fns) {
    if (fn.name.startsWith('<')) continue;
    let list = byName.get(fn.name);
    if (!list) byName.set(fn.name, (list = []));
    list.push(fn);
  }
  return { fns, byName, byFile, files: byPath, facts, ambiguous: 0 };
}

/** The definitions a call may run: same-file definitions first; a name defined too often elsewhere is not followed. */
export function resolve(graph: Graph, from: Fn, name: string): Fn[] {
  if (!name) return [];
  const all = graph.byName.get(name);
  if (!all) return [];
  const local = all.filter((f) => f.path === from.path);
  if (local.length) return local;
  if (all.length > MAX_TARGETS) {
    graph.ambiguous++;
    return [];
  }
  return all;
}

/** A unit for a handler written in place: what lies in the range belongs to it. */
export function unitForRange(graph: Graph, path: string, start: number, end: number, name: string): Fn | null {
  const units = graph.byFile.get(path);
  const file = graph.files.get(path);
  if (!units || !file) return null;
  const existing = units.find((u) => u.start === start && u.end === end);
  if (existing) return existing;
  const inside = (o: number) => start <= o && o < end;
  const all = units.filter((u) => u.start <= start && end <= u.end);
  const around = all[all.length - 1];
  const fn: Fn = {
    id: -1,
    path,
    name,
    start,
    end,
    line: lineOf(file, start),
    calls: units.flatMap((u) => u.calls.filter((c) => inside(c[1]))),
    sinks: units.flatMap((u) => u.sinks.filter((s) => inside(s.at))),
    asks: units.flatMap((u) => u.asks.filter((s) => inside(s.at))),
    isolated: !!around?.isolated || units.some((u) => u.isolated && start <= u.start && u.end <= end),
  };
  fn.calls.sort((a, b) => a[1] - b[1]);
  return fn;
}

export { lineOf };
