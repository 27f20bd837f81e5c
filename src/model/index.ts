import type { FileFacts, RawFinding } from '../facts/extract.js';
import { SINK, TOOL } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import type { ModelSpec } from '../rubric/schema.js';
import { buildGraph, lineOf, resolve, unitForRange, type Fn, type Graph } from './graph.js';

/** A place where code does something consequential. */
export interface Site {
  path: string;
  line: number;
  endLine: number;
  text: string;
}

/** One way a tool reaches a sink: through which functions, and what stands in the way. */
export interface ToolPath {
  kind: string;
  sink: Site;
  /** A call that waits for the user's answer comes before the step that leads here. */
  gated: boolean;
  ask: Site | null;
  /** The sink sits in code that runs it inside a sandbox. */
  isolated: boolean;
  via: string[];
}

/** A tool offered to the model (or a code runner: the harness's path that runs what the model wrote). */
export interface AgentTool {
  name: string;
  construct: string;
  site: Site;
  handler: Site | null;
  reaches: string[];
  paths: ToolPath[];
  /** No handler could be found for the name: what it reaches is unknown. */
  unresolved: boolean;
  /** The variable the construct is assigned to, and the name its handler is referenced by. */
  binding?: string;
  reference?: string;
  /** The key or method its handler is stored under: what a dispatcher calls. */
  entry?: string;
}

export interface AgentModel {
  tools: AgentTool[];
  /** Calls that could not be followed because their name has too many definitions. */
  ambiguousCalls: number;
}

const MAX_DEPTH = 6;
const CODE_RUNNER = 'code runner';

const siteOf = (file: SourceFile | undefined, f: Pick<RawFinding, 'startLine' | 'endLine' | 'text'>, path: string): Site => ({ path: file?.path ?? path, line: f.startLine, endLine: f.endLine, text: f.text });

function askBefore(graph: Graph, fn: Fn, offset: number, asking: Set<number>): Site | null {
  const direct = fn.asks.find((a) => a.at < offset);
  if (direct) return siteOf(graph.files.get(fn.path), direct, fn.path);
  for (const [name, at] of fn.calls) {
    if (at >= offset) break;
    if (resolve(graph, fn, name).some((t) => asking.has(t.id))) {
      const file = graph.files.get(fn.path)!;
      const line = lineOf(file, at);
      return { path: fn.path, line, endLine: line, text: file.text.slice(file.lineStarts[line - 1], file.lineStarts[line] ?? file.text.length).trim().slice(0, 160) };
    }
  }
  return null;
}

/** Units that wait for the user's answer, directly or through a helper they call (two levels). */
function askingUnits(graph: Graph): Set<number> {
  const asking = new Set(graph.fns.filter((f) => f.asks.length > 0).map((f) => f.id));
  for (let round = 0; round < 2; round++) {
    for (const fn of graph.fns) {
      if (asking.has(fn.id) || fn.name.startsWith('<')) continue;
      if (fn.calls.some(([name]) => resolve(graph, fn, name).some((t) => asking.has(t.id)))) asking.add(fn.id);
    }
  }
  return asking;
}

/** Every sink a unit reaches through calls, depth-bounded, with the gate and isolation on the way. */
function pathsFrom(graph: Graph, start: Fn, asking: Set<number>, gatedAtStart: Site | null): ToolPath[] {
  const out: ToolPath[] = [];
  const seen = new Set<string>();
  const walk = (fn: Fn, ask: Site | null, isolated: boolean, via: string[], depth: number) => {
    const key = `${fn.id}:${fn.start}:${!!ask}:${isolated}`;
    if (seen.has(key) || depth > MAX_DEPTH) return;
    seen.add(key);
    const iso = isolated || fn.isolated;
    const file = graph.files.get(fn.path);
    for (const s of fn.sinks) {
      const gate = ask ?? askBefore(graph, fn, s.at, asking);
      out.push({ kind: s.probe.slice(SINK.length), sink: siteOf(file, s, fn.path), gated: !!gate, ask: gate, isolated: iso, via: [...via, fn.name] });
    }
    for (const [name, at] of fn.calls) {
      for (const next of resolve(graph, fn, name)) {
        if (next.id === fn.id) continue;
        walk(next, ask ?? askBefore(graph, fn, at, asking), iso, [...via, fn.name], depth + 1);
      }
    }
  };
  walk(start, gatedAtStart, false, [], 0);
  return out;
}

/** Whether every chain of callers up to the top asks before calling into `fn` (code runners have no tool entry). */
function gatedByCallers(graph: Graph, fn: Fn, offset: number, asking: Set<number>, depth: number, seen: Set<number>): Site | null {
  const here = askBefore(graph, fn, offset, asking);
  if (here) return here;
  if (depth >= 4 || fn.name.startsWith('<') || seen.has(fn.id)) return null;
  seen.add(fn.id);
  const callers: Array<[Fn, number]> = [];
  for (const other of graph.fns) for (const [name, at] of other.calls) if (name === fn.name && resolve(graph, other, name).includes(fn)) callers.push([other, at]);
  if (callers.length === 0) return null;
  let first: Site | null = null;
  for (const [caller, at] of callers) {
    const g = gatedByCallers(graph, caller, at, asking, depth + 1, seen);
    if (!g) return null;
    first ??= g;
  }
  return first;
}

/**
 * Dispatchers that ask first: a unit that waits for the user's answer and then calls a tool's
 * handler by a name it cannot resolve to one definition (`spec.run(…)`, `tool.execute(…)`,
 * `handlers[name](…)`). Every tool whose handler is stored under that name is gated there. Keyed by
 * the name called ('' for a callee computed at run time), with the ask it waits on.
 */
function dispatchers(graph: Graph, asking: Set<number>): Map<string, Site> {
  const out = new Map<string, Site>();
  for (const fn of graph.fns) {
    if (fn.asks.length === 0 && !fn.calls.some(([n]) => resolve(graph, fn, n).some((t) => asking.has(t.id)))) continue;
    for (const [name, at] of fn.calls) {
      if (out.has(name)) continue;
      const targets = graph.byName.get(name) ?? [];
      const dynamic = name === '' || targets.length === 0 || targets.length > 1;
      if (!dynamic || !/^(|execute|run|call|invoke|handle|handler|func|fn|callback|implementation|_run|arun|__call__|Run|Execute|Call|Invoke|Handle)$/.test(name)) continue;
      const ask = askBefore(graph, fn, at, asking);
      if (ask) out.set(name, ask);
    }
  }
  return out;
}

function handlerUnit(graph: Graph, path: string, site: NonNullable<RawFinding['tool']>, from: Fn | undefined): Fn | null {
  if (site.body) return unitForRange(graph, path, site.body[0], site.body[1], site.name);
  if (site.handler && from) return resolve(graph, from, site.handler)[0] ?? null;
  if (site.handler) return graph.byName.get(site.handler)?.[0] ?? null;
  return null;
}

/**
 * The agent model: the tools offered to the model with every sink each can reach and what guards
 * each path, plus the code runners (a shell or interpreter that runs what the model wrote, found
 * by the `runners` probe) that no tool reaches.
 */
export function buildModel(spec: ModelSpec, files: SourceFile[], facts: Map<string, FileFacts>, runners: Array<{ path: string; finding: Pick<RawFinding, 'startLine' | 'endLine' | 'text'> & { at?: number } }>): AgentModel {
  const graph = buildGraph(files, facts, spec.isolation);
  const asking = askingUnits(graph);
  const dispatchGates = dispatchers(graph, asking);
  const tools: AgentTool[] = [];
  for (const file of files) {
    const f = facts.get(file.path);
    if (!f) continue;
    for (const finding of f.findings) {
      if (!finding.probe.startsWith(TOOL) || !finding.tool) continue;
      const units = graph.byFile.get(file.path) ?? [];
      const from = units.filter((u) => u.start <= finding.at && finding.at < u.end).pop();
      const handler = handlerUnit(graph, file.path, finding.tool, from);
      const atDispatch = finding.tool.entry ? (dispatchGates.get(finding.tool.entry) ?? dispatchGates.get('') ?? null) : null;
      const paths = handler ? pathsFrom(graph, handler, asking, atDispatch) : [];
      tools.push({
        name: finding.tool.name,
        construct: finding.probe.slice(TOOL.length),
        site: siteOf(file, finding, file.path),
        handler: handler ? { path: handler.path, line: handler.line, endLine: handler.line, text: handler.name } : null,
        reaches: [...new Set(paths.map((p) => p.kind))].sort(),
        paths,
        unresolved: !handler,
        ...(finding.tool.binding ? { binding: finding.tool.binding } : {}),
        ...(finding.tool.handler ? { reference: finding.tool.handler } : {}),
        ...(finding.tool.entry ? { entry: finding.tool.entry } : {}),
      });
    }
  }
  // A registry entry ({ name: 'bash', tool: bashTool }) names a tool object defined elsewhere: the
  // tool takes that name; the entry is no tool of its own.
  const entries = tools.filter((t) => t.construct === 'registry-entry');
  for (const e of entries) {
    const target = tools.find((t) => t !== e && t.construct !== 'registry-entry' && t.binding === e.reference);
    if (target) {
      target.name = e.name;
      tools.splice(tools.indexOf(e), 1);
    }
  }
  // One tool matched by several constructs (a tool() call and the object it is given) is one tool.
  const seen = new Map<string, AgentTool>();
  for (const t of [...tools]) {
    const key = `${t.name}\0${t.handler ? `${t.handler.path}:${t.handler.line}` : `${t.site.path}:${t.site.line}`}`;
    if (seen.has(key)) tools.splice(tools.indexOf(t), 1);
    else seen.set(key, t);
  }
  // Code runners no tool path already reaches: each is a path of its own, gated when every caller asks first.
  const reached = new Set(tools.flatMap((t) => t.paths.map((p) => `${p.sink.path}:${p.sink.line}`)));
  for (const r of runners) {
    if (reached.has(`${r.path}:${r.finding.startLine}`)) continue;
    const units = graph.byFile.get(r.path) ?? [];
    const file = graph.files.get(r.path);
    const offset = r.finding.at ?? (file ? file.lineStarts[r.finding.startLine - 1]! : 0);
    const fn = units.filter((u) => u.start <= offset && offset < u.end).pop();
    if (!fn) continue;
    const gate = gatedByCallers(graph, fn, offset, asking, 0, new Set());
    const site = siteOf(file, r.finding, r.path);
    tools.push({
      name: fn.name.startsWith('<') ? CODE_RUNNER : fn.name,
      construct: CODE_RUNNER,
      site,
      handler: { path: fn.path, line: fn.line, endLine: fn.line, text: fn.name },
      reaches: ['exec'],
      paths: [{ kind: 'exec', sink: site, gated: !!gate, ask: gate, isolated: fn.isolated, via: [fn.name] }],
      unresolved: false,
    });
  }
  tools.sort((a, b) => a.site.path.localeCompare(b.site.path) || a.site.line - b.site.line || a.name.localeCompare(b.name));
  return { tools, ambiguousCalls: graph.ambiguous };
}

/** The paths of the model that a fact's query selects. */
export function pathsMatching(model: AgentModel, q: ModelSpec['facts'][number]['paths']): Array<{ tool: AgentTool; path: ToolPath | null }> {
  if (q.tools) return model.tools.filter((t) => t.construct !== CODE_RUNNER).map((tool) => ({ tool, path: null }));
  return model.tools.flatMap((tool) =>
    tool.paths
      .filter((p) => (q.reach === undefined || p.kind === q.reach) && (q.gated === undefined || p.gated === q.gated) && (q.isolated === undefined || p.isolated === q.isolated))
      .map((path) => ({ tool, path })),
  );
}
