import { NAME_FIELD, type Definition, type FileFacts, type RawFinding } from '../facts/extract.js';
import { SINK, TOOL } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import { enclosing, indentOf, lineAt, lineText } from '../inventory/lines.js';
import type { ModelSpec } from '../rubric/schema.js';
import { askingUnits, declarationPattern, declaredGate, drivenAgent, gateBefore, gateHolds, optInBranch, postedRequest, raisedAsk, switchedBranch, switchedOff, type Gate, type Site } from './gates.js';
import { buildGraph, callParts, classAround, resolve, uncounted, unitAt, unitForRange, type Fn, type Graph } from './graph.js';
import { BROWSER_DRIVER, CODE_RUNNER, EXTENSION_CALL, FILE_WRITER, HARNESS_PATHS, OWN_EXEC, OWN_WRITE, PASSIVE, STATEMENT } from './kinds.js';
import { calleeInput, calleePrograms, checkTakesInput, fixedCommand, handedOwnCommand, namedProgram, handlerInput, noteBuiltObjects, ownCommand, statementTakesInput, writeTakesInput, type BuiltFields, type Input } from './inputs.js';
import { dispatchSites, type Dispatch } from './dispatch.js';
import { argumentListOf, callersByUnit, modelCallers, modelCallSites, parametersOf, replyRunners, replyWriters, writtenRunners, type ReplyRunner } from './replies.js';

export type { Gate, Site } from './gates.js';

/** One way a tool reaches a sink: through which functions, and what stands in the way. */
export interface ToolPath {
  kind: string;
  sink: Site;
  /** A call that waits for the user's answer comes before the step that leads here, and holds in the defaults. */
  gated: boolean;
  /** The ask on the path (whether or not it holds for this tool), as classified. */
  gate: Gate | null;
  /** The sink sits in code that runs it inside a sandbox. */
  isolated: boolean;
  /** A branch that refuses some values of the tool's input comes before the step that leads here. */
  check: Site | null;
  via: string[];
  /** The sink runs a database statement: whether the tool's own input reaches it, so the model writes the query (not in the report). */
  statement?: boolean;
}

/** A tool offered to the model (or a code runner: the harness's path that runs what the model wrote). */
export interface AgentTool {
  name: string;
  construct: string;
  site: Site;
  handler: Site | null;
  reaches: string[];
  paths: ToolPath[];
  /** No handler could be found for the name, or it reaches no sink but through calls the graph could not follow: what it reaches is unknown. */
  unresolved: boolean;
  /** The variable the construct is assigned to, and the name its handler is referenced by. */
  binding?: string;
  reference?: string;
  /** The key or method its handler is stored under: what a dispatcher calls. */
  entry?: string;
  /** Named by the function that builds its tool, and the function that returns this construct (not in the report). */
  builder?: boolean;
  returnedBy?: string;
  /** The settings its construct gives by string (`approval_tier="read"`): a tier the dispatcher's ask tests (not in the report). */
  declared?: Record<string, string>;
  /** Its input has a name the rubric's `commandInput` matches (not in the report). */
  takesCommand?: boolean;
}

export interface AgentModel {
  tools: AgentTool[];
  /** Places that call a language model: none, and no tool either, means the target is no agent. */
  modelCalls: Site[];
  /** Calls that could not be followed because their name has too many definitions. */
  ambiguousCalls: number;
  /** Every sink in the code the model was built from, whether a tool reaches it or not (model calls left out). */
  allSinks: Array<{ kind: string; site: Site }>;
  /** Unconditional loops (the `loops` probe's) whose body calls the model: the harness's own agent loop. */
  loops: Site[];
  /** The same for other loop probes a fact names (`paths.loop: <probe>`), by probe id. */
  loopsBy: Record<string, Site[]>;
  /** Where the model's tool calls are dispatched, with the call there that records each, if any. */
  dispatches: Dispatch[];
  /**
   * Asks the call graph cannot place, while some tool path runs unasked: each in a function that
   * waits for the user itself, that no code calls by name (a graph node, a handler handed on as a
   * value) and that is no entry point. Where one guards that path by such a route, the approval
   * levels understate the harness; the Limitations say so rather than guess.
   */
  strandedAsks: Site[];
}

type Found = { path: string; finding: Pick<RawFinding, 'startLine' | 'endLine' | 'text'> & { at?: number } };

/**
 * The loops whose body calls the model, directly or through the repository's own calls
 * (`while True: agent.think()`, where `think` calls the model): such a loop ends only when the
 * model says so, unless something else in it counts.
 */
function modelLoops(graph: Graph, loops: Found[]): Site[] {
  if (!loops.length) return [];
  return uncounted(graph, () => {
    const callers = modelCallers(graph);
    const out: Site[] = [];
    for (const { path, finding } of loops) {
      const file = graph.files.get(path);
      if (!file) continue;
      const start = finding.at ?? file.lineStarts[finding.startLine - 1]!;
      const end = file.lineStarts[finding.endLine] ?? file.text.length;
      const fn = unitAt(graph, path, start);
      if (fn && modelCallSites(graph, fn, callers).some((at) => at >= start && at < end)) out.push(siteOf(file, finding, path));
    }
    return out;
  });
}

const MAX_DEPTH = 6;
/** Tool constructs that are a branch of a dispatcher the model's calls go through. */
const BRANCHES = new Set(['dispatch-branch']);

/** A loop over the model's tool calls (`for call in tool_calls:`, `for (const call of message.toolCalls)`). */
const TOOL_CALL_LOOP = /^\s*(?:async\s+)?for\b.*\b(?:in|of)\b.*(?:tool_?calls?|tool_?uses?|function_?calls?)\b/i;

/** Whether a line sits in a loop over the model's tool calls: a loop header above it, indented less, before the function around it starts. */
function inToolCallLoop(graph: Graph, site: Site): boolean {
  const file = graph.files.get(site.path);
  if (!file) return false;
  const at = file.lineStarts[site.line - 1]!;
  for (const n of enclosing(file, at, unitAt(graph, site.path, at)?.start ?? 0)) {
    const line = lineText(file, n);
    if (TOOL_CALL_LOOP.test(line)) return true;
    if (/^\s*(?:async\s+)?(?:def|function|class)\b|=>\s*\{?\s*$/.test(line)) return false;
  }
  return false;
}

/** An ask named for the decision it asks for (not a prompt for the next message), read from its first lines. */
const DECISION_ASK = /confirm|approv|permission|consent|can_?use_?tool/i;
function decisionAsk(graph: Graph, site: Site): boolean {
  const file = graph.files.get(site.path);
  return !!file && DECISION_ASK.test(file.text.slice(file.lineStarts[site.line - 1] ?? 0, file.lineStarts[site.line + 2] ?? file.text.length));
}

/** Tool constructs whose handler is a method of an object built for the call: its fields hold the input. */
const CLASS_HANDLED = new Set(['class-tool']);
const BROWSE = 'browse';

const siteOf = (file: SourceFile | undefined, f: Pick<RawFinding, 'startLine' | 'endLine' | 'text' | 'alias'>, path: string): Site => ({ path: file?.path ?? path, line: f.startLine, endLine: f.endLine, text: f.text, ...(f.alias ? { check: '@line' } : {}) });
/** A path found as a sink (a reply handed to a command or a file write, an extension call) re-verifies as that sink, not as a match of the runners probe. */
const sinkSite = (file: SourceFile | undefined, f: Pick<RawFinding, 'startLine' | 'endLine' | 'text' | 'alias'> & Partial<Pick<RawFinding, 'probe'>>, path: string): Site => ({ ...siteOf(file, f, path), ...(f.probe?.startsWith('@') && !f.alias ? { check: f.probe } : {}) });

/**
 * Where a unit refuses some values of its input, by offset: its own checks whose test reads the
 * input, and its calls that hand the input to a function that checks it first
 * (`resolved = self._inside_root(path)`, which raises outside the root).
 */
function inputChecks(graph: Graph, fn: Fn, input: Input, built: BuiltFields): Array<[number, Site]> {
  const file = graph.files.get(fn.path);
  const out: Array<[number, Site]> = fn.checks.filter((c) => checkTakesInput(graph, fn, c, input, built)).map((c) => [c.at, siteOf(file, c, fn.path)]);
  for (const [name, at] of fn.calls) {
    for (const callee of resolve(graph, fn, name)) {
      if (callee.id === fn.id || !callee.checks.length) continue;
      const given = calleeInput(graph, fn, at, callee, input, built);
      if (given !== null && !given.size) continue;
      const c = callee.checks.find((x) => checkTakesInput(graph, callee, x, given, built));
      if (c) out.push([at, siteOf(graph.files.get(callee.path), c, callee.path)]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Every sink a unit reaches through calls, depth-bounded, with the gate and isolation on the way; `input` is the start's (`handlerInput`). */
function pathsFrom(graph: Graph, start: Fn, asking: Set<number>, gatedAtStart: Gate | null, toolName: string, input: Input, unfollowed: RegExp | null = null, blind?: { ambiguous: boolean }): ToolPath[] {
  const out: ToolPath[] = [];
  // Each state with the least depth it was walked at: a state first met deep down (its callees cut
  // off by MAX_DEPTH) is walked again when a shorter chain reaches it.
  const seen = new Map<string, number>();
  const built: BuiltFields = new Set();
  const walk = (fn: Fn, gate: Gate | null, isolated: boolean, via: string[], depth: number, input: Input, checked: Site | null, programs: ReadonlyMap<string, string> | null) => {
    const key = `${fn.id}:${fn.start}:${gate?.site.line ?? 0}:${isolated}:${checked ? 1 : 0}:${input ? [...input].sort().join(',') : '*'}:${programs ? [...programs].join(',') : ''}`;
    if ((seen.get(key) ?? Infinity) <= depth || depth > MAX_DEPTH) return;
    seen.set(key, depth);
    const iso = isolated || fn.isolated;
    const file = graph.files.get(fn.path);
    noteBuiltObjects(graph, fn, input, built);
    // A gate that does not hold for this tool (not on its list, opt-in) does not end the search for one that does.
    const next = (g: Gate | null, at: number, kind: string) => (g && gateHolds(g, toolName, kind) ? g : (gateBefore(graph, fn, at, asking) ?? g));
    const checks = checked ? [] : inputChecks(graph, fn, input, built);
    const checkBefore = (at: number) => checked ?? checks.find(([o]) => o < at)?.[1] ?? null;
    for (const s of fn.sinks) {
      // (A step only a setting that is off by default opens is not the shipped default's.)
      if (optInBranch(graph, fn, s.at)) continue;
      const sunk = s.probe.slice(SINK.length);
      // A write at a path the code chose (a log, a screenshot, a cache) is the harness's, not one the model directs.
      // A command is a program with arguments where the caller named a program that runs no command (`execProcess('git', args)`).
      const kind =
        sunk === 'write' && !writeTakesInput(graph, fn, s, input, built)
          ? OWN_WRITE
          : sunk === 'exec' && (handedOwnCommand(graph, fn, s.at, input, built) || fixedCommand(graph, fn, s.at))
            ? OWN_EXEC
            : sunk === 'exec' && namedProgram(graph, fn, s.at, programs)
              ? 'spawn'
              : sunk === STATEMENT
                ? 'remote'
                : sunk;
      const statement = sunk === STATEMENT ? { statement: statementTakesInput(graph, fn, s, input, built) } : {};
      const g = next(gate, s.at, kind) ?? switchedBranch(graph, fn, s.at, asking);
      // (A change made in a remote service through its client is made there, whatever sandbox the unit builds.)
      out.push({ kind, sink: siteOf(file, s, fn.path), gated: !!g && gateHolds(g, toolName, kind), gate: g, isolated: iso && kind !== 'remote', check: checkBefore(s.at), via: [...via, fn.name], ...statement });
    }
    for (const [name, at] of fn.calls) {
      if (unfollowed?.test(name.slice(name.lastIndexOf('.') + 1))) continue;
      const targets = resolve(graph, fn, name);
      if (targets.length && optInBranch(graph, fn, at)) continue;
      // (A call of a method the repository defines too often to tell which one runs: what lies behind it is not seen.)
      if (blind && !targets.length && graph.resolved.get(fn)?.get(name) === null) blind.ambiguous = true;
      for (const callee of targets) {
        if (callee.id === fn.id) continue;
        walk(callee, next(gate, at, 'exec') ?? switchedBranch(graph, fn, at, asking), iso, [...via, fn.name], depth + 1, calleeInput(graph, fn, at, callee, input, built), checkBefore(at), calleePrograms(graph, fn, at, callee));
      }
      // A function the unit defines and hands to the call (`executeAdd(options, context, executor)`)
      // runs when the callee calls it back: what it reaches, the unit reaches there. (What it is
      // given is the callee's to choose: its input is not narrowed.)
      for (const handed of handedFunctions(graph, fn, at, name)) walk(handed, next(gate, at, 'exec') ?? switchedBranch(graph, fn, at, asking), iso, [...via, fn.name], depth + 1, null, checkBefore(at), null);
    }
  };
  walk(start, gatedAtStart, false, [], 0, input, null, null);
  return out;
}

/** The settings a tool's construct gives by string, keyword or key (`approval_tier="read"`, `tier: 'exec'`). */
function declaredSettings(text: string): { declared: Record<string, string> } | null {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(?:^|[\s,({])([A-Za-z_]\w*)\s*[=:]\s*["']([\w-]{1,40})["']/g)) if (m[1] !== 'name' && !(m[1]! in out)) out[m[1]!] = m[2]!;
  return Object.keys(out).length ? { declared: out } : null;
}

/**
 * A dispatcher's ask taken only for some tiers (`if tier in ("write", "exec"): approved = await
 * ask_approval(…)`) that each tool declares (`AgentTool(name="read", approval_tier="read", …)`): the
 * ask is a list of the tools whose declared tier it tests, and a tool of another tier runs unasked.
 * The tier is the one setting some tool gives one of the tested values.
 */
function tierGates(tools: AgentTool[]): void {
  const lists = new Map<Gate, Gate | null>();
  const listFor = (g: Gate): Gate | null => {
    if (lists.has(g)) return lists.get(g)!;
    let list: Gate | null = null;
    const m = /\bin\s*[([{]\s*((?:["'][\w-]+["']\s*,?\s*)+)[)\]}]/.exec(g.guard ?? '');
    const tested = m ? new Set([...m[1]!.matchAll(/["']([\w-]+)["']/g)].map((v) => v[1]!)) : null;
    const key = tested ? [...new Set(tools.flatMap((t) => Object.entries(t.declared ?? {}).filter(([, v]) => tested.has(v)).map(([k]) => k)))] : [];
    if (tested && key.length === 1) list = { ...g, kind: 'list', names: tools.filter((t) => tested.has(t.declared?.[key[0]!] ?? '')).map((t) => t.name) };
    lists.set(g, list);
    return list;
  };
  for (const t of tools) {
    for (const p of t.paths) {
      if (p.gate?.kind !== 'condition') continue;
      const list = listFor(p.gate);
      if (!list) continue;
      p.gate = { ...list, listAt: t.site };
      p.gated = gateHolds(list, t.name, p.kind);
    }
  }
}

/** The functions defined inside each unit, found once per unit: the walks ask at every call. */
const innerMemo = new WeakMap<Fn, Fn[]>();
function innerUnits(graph: Graph, fn: Fn): Fn[] {
  let inner = innerMemo.get(fn);
  if (!inner) innerMemo.set(fn, (inner = (graph.byFile.get(fn.path) ?? []).filter((f) => f.id !== fn.id && f.start > fn.start && f.end <= fn.end)));
  return inner;
}

// Calls that run the function they are handed (`asyncio.to_thread(write_file, path, text)`,
// `executor.submit(job)`, `Thread(target=job)`, `tokio::task::spawn_blocking(f)`).
const RUNS_ITS_ARGUMENT = /^(to_thread|run_in_executor|run_sync|submit|apply_async|spawn_blocking|Thread|Process|start_new_thread)$/;

/**
 * The functions a call is handed by name: those defined inside the unit, and, where the call runs
 * what it is handed (`asyncio.to_thread(_write_file, …)`), any function the name resolves to.
 */
function handedFunctions(graph: Graph, fn: Fn, at: number, call: string): Fn[] {
  const callee = callParts(call).name;
  const runs = RUNS_ITS_ARGUMENT.test(callee);
  const inner = innerUnits(graph, fn);
  if (!inner.length && !runs) return [];
  const file = graph.files.get(fn.path);
  if (!file) return [];
  const args = argumentListOf(file, at, callee).map((a) => a.trim());
  const names = new Set(args.filter((a) => /^[A-Za-z_$][\w$]*$/.test(a)));
  const out = names.size ? inner.filter((f) => names.has(f.name)) : [];
  if (!runs) return out;
  for (const a of args) {
    const ref = /^(?:target\s*=\s*)?([A-Za-z_$][\w$.]*)$/.exec(a)?.[1];
    if (ref) for (const f of resolve(graph, fn, ref)) if (!out.includes(f)) out.push(f);
  }
  return out;
}

/**
 * How the callers of a code runner stand. A runner is reached from several places, most of them
 * the user's own commands (`/run`, a configured lint or test command); the model's code reaches it
 * through the one the harness guards. So a runner is gated when some chain of callers asks first
 * (the gate found), ungated when every chain reaches an entry point with nothing asked, and
 * 'unknown' when a chain breaks where no caller can be found for a function nothing calls by name
 * (a dynamic call, a generator, a plugin hook: the path cannot be resolved).
 */
type CallerVerdict = Gate | 'ungated' | 'unknown';
function gatedByCallers(graph: Graph, fn: Fn, offset: number, asking: Set<number>, depth: number, seen: Set<number>): CallerVerdict {
  const here = gateBefore(graph, fn, offset, asking);
  if (here) return here;
  if (fn.name.startsWith('<') || fn.entry) return 'ungated';
  if (depth >= 5 || seen.has(fn.id)) return 'unknown';
  seen.add(fn.id);
  const callers: Array<[Fn, number]> = [];
  // A method whose every definition sits in the runner's file (a base class and its overrides) is
  // that family's: a call of it on any receiver may run this one, though it resolves to none alone.
  const family = fn.method && (graph.byName.get(fn.name) ?? []).every((d) => d.path === fn.path);
  for (const other of graph.fns) {
    // (Its own calls, `session.call_tool(…)` inside `call_tool`, are not who reaches it.)
    if (other.id === fn.id) continue;
    for (const [call, at] of other.calls) {
      const { name, recv } = callParts(call);
      if (name !== fn.name) continue;
      const targets = resolve(graph, other, call);
      if (targets.includes(fn) || (family && recv !== null && targets.length === 0)) callers.push([other, at]);
    }
  }
  // A function decorated only to bind it (`@staticmethod`) is gated by an ask its callers make
  // first; where no chain of callers can be followed to its end, it is read as any decorated
  // function is: called by the runtime, with nobody asked on the way.
  const unresolved = fn.bound ? 'ungated' : 'unknown';
  if (callers.length === 0) return unresolved;
  let unknown = false;
  for (const [caller, at] of callers) {
    const v = gatedByCallers(graph, caller, at, asking, depth + 1, seen);
    if (typeof v !== 'string') return v;
    if (v === 'unknown') unknown = true;
  }
  return unknown ? unresolved : 'ungated';
}

/**
 * Dispatchers that ask first: a unit that waits for the user's answer and then calls a tool's
 * handler by a name it cannot resolve to one definition (`spec.run(…)`, `tool.execute(…)`,
 * `handlers[name](…)`). Every tool whose handler is stored under that name is gated there. Keyed by
 * the name called ('' for a callee computed at run time), with the ask it waits on.
 */
function dispatchers(graph: Graph, asking: Set<number>): Map<string, Gate> {
  const out = new Map<string, Gate>();
  for (const fn of graph.fns) {
    if (fn.asks.length === 0 && !fn.calls.some(([n]) => resolve(graph, fn, n).some((t) => asking.has(t.id)))) continue;
    // The dispatch may sit a few helpers down: a request posted to the UI is answered on a later
    // pass of the loop, which then dispatches through helpers of its own (`c.DispatchToolCalls(ctx)`
    // → `call.InvokeTool(…)` → `t.tool.Run(…)`), and a helper named for running the tool does so
    // too (`self._invoke_tool(…)` → `tool.invoke(…)` → `self.run(…)`). (Any other helper after an
    // ask, such as the turn that follows reading the user's next message, is no dispatch it gates.)
    const posts = fn.asks.some(postedRequest);
    for (const [call, at] of fn.calls) {
      const name = callParts(call).name;
      const names = handlerCall(graph, fn, call, at) ? [name] : posts || TOOL_STEP.test(name) ? handlerCallsBelow(graph, fn, call, asking) : [];
      if (names.every((n) => out.has(n))) continue;
      const gate = gateBefore(graph, fn, at, asking);
      if (gate) for (const n of names) if (!out.has(n)) out.set(n, gate);
    }
  }
  return out;
}

/**
 * The ask of a wrapper the harness puts around a Python tool's function before offering it: a
 * decorator on its definition (`@with_permission("run a command")`) or a wrapper it is handed to
 * as it is listed (`tools = [with_permission("run a command")(run_shell)]`). The wrapper's inner
 * function waits for the user and only then calls the function it was given (`func(*args,
 * **kwargs)`): every call the model makes passes that ask first.
 */
function wrapperGate(graph: Graph, path: string, at: number, handler: Fn, asking: Set<number>): Gate | null {
  const file = graph.files.get(path);
  const own = graph.files.get(handler.path);
  if (file?.language !== 'python' || !own) return null;
  // Each wrapper's name with the unit it is resolved from: the list's for a wrapper applied there,
  // the function's own for its decorators.
  const names: Array<[string, Fn]> = [];
  const listed = /([A-Za-z_][\w.]*)\s*\([^()]*\)\s*\(\s*$/.exec(file.text.slice(Math.max(0, at - 200), at));
  if (listed) names.push([listed[1]!, unitAt(graph, path, at) ?? handler]);
  let line = lineAt(own, handler.start);
  while (line > 1 && !/^\s*(?:async\s+)?def\b/.test(lineText(own, line)) && line < handler.line) line++;
  for (let l = line - 1; l >= 1 && /^\s*@/.test(lineText(own, l)); l--) {
    const name = /^\s*@([A-Za-z_][\w.]*)/.exec(lineText(own, l))?.[1];
    if (name) names.push([name, handler]);
  }
  for (const [name, from] of names) {
    for (const wrapper of resolve(graph, from, name)) {
      const units = [wrapper, ...innerUnits(graph, wrapper)];
      const params = new Set(units.flatMap((u) => parametersOf(graph, u)));
      for (const inner of units) {
        const call = inner.calls.find(([n]) => params.has(n));
        const gate = call && gateBefore(graph, inner, call[1], asking);
        if (gate) return gate;
      }
    }
  }
  return null;
}

/** A helper named for running one tool call (`_invoke_tool`, `execute_tool_call`, `runToolCall`). */
const TOOL_STEP = /^_?(?:invoke|execute|run|call|dispatch|perform)_?(?:the_?|single_?|one_?)?tool(?:_?call)?(?:_?(?:internal|impl|inner))?$/i;

/**
 * The handler calls a call leads to a few calls down, through helpers that ask nothing themselves
 * and have one definition each, or a few where one type wraps another: the dispatch an ask before
 * that call stands in front of.
 */
function handlerCallsBelow(graph: Graph, fn: Fn, call: string, asking: Set<number>, depth = 3, asker = fn): string[] {
  const targets = resolve(graph, fn, call);
  // (A method several types define, one wrapping another, `toolService.ExecuteTool(…)`: each may run.)
  if (depth === 0 || targets.length === 0 || targets.length > MAX_IMPLEMENTATIONS || targets.some((t) => t === fn || asksApart(graph, t, asker, asking))) return [];
  const names = new Set<string>();
  for (const unit of targets) {
    for (const [c, at] of unit.calls) {
      if (handlerCall(graph, unit, c, at)) names.add(callParts(c).name);
      else for (const n of handlerCallsBelow(graph, unit, c, asking, depth - 1, asker)) names.add(n);
    }
  }
  return [...names];
}

/**
 * Whether a unit waits for the user by an ask other than `asker`'s: one of its own, or a helper's
 * that does not lead back to `asker`. A tool step that starts a sub-agent (`"task" =>
 * self.run_subagent(…)`, which runs the same loop) asks only through the loop that calls it.
 */
function asksApart(graph: Graph, unit: Fn, asker: Fn, asking: Set<number>, depth = 2): boolean {
  if (!asking.has(unit.id)) return false;
  if (unit.asks.length || depth === 0) return true;
  return unit.calls.some(([c]) => resolve(graph, unit, c).some((t) => t !== asker && t !== unit && asksApart(graph, t, asker, asking, depth - 1)));
}
const MAX_IMPLEMENTATIONS = 3;

/**
 * Whether a call runs a stored tool handler: a handler's name no single definition has. (A Rust
 * call of a module's function, `forage::execute(args)`, is that module's, however many others
 * define the name: a path of modules names one function, never a tool the code looked up.)
 */
function handlerCall(graph: Graph, fn: Fn, call: string, at: number): boolean {
  const name = callParts(call).name;
  if (!HANDLER_NAME.test(name)) return false;
  const targets = graph.byName.get(name) ?? [];
  if (name !== '' && targets.length === 1) return false;
  const file = graph.files.get(fn.path);
  if (file?.language === 'rust' && MODULE_PATH_CALL.test(file.text.slice(at, at + 200))) return false;
  // (A method of the caller's own file, `m.Execute(actions, …)` beside `func (m *MigrateInstance)
  // Execute`, is that type's step, not a tool the code looked up; one called on an object the
  // unit's own holds, `self.tool_executor.execute(…)`, runs whatever executor it was handed.)
  if (HELD_RECEIVER.test(call)) return true;
  const resolved = name === '' ? [] : uncounted(graph, () => resolve(graph, fn, call));
  return !(resolved.length === 1 && resolved[0]!.path === fn.path && resolved[0] !== fn);
}
const HELD_RECEIVER = /^(?:self|this)\.\w+\.\w+$/;
const MODULE_PATH_CALL = /^(?:(?:crate|self|super|[a-z_][a-z0-9_]*)::)+[A-Za-z_]\w*\s*(?:::<[^>]*>\s*)?\(/;
const HANDLER_NAME = /^(|execute|run|call|invoke|handle|handler|func|fn|callback|implementation|_run|arun|__call__|Run|Execute|Call|Invoke|Handle|Handler|Func|Fn|Callback)$/;

/**
 * The tool name given by the one class of the file that creates this one (`class ShellTool { static
 * readonly Name = SHELL_TOOL_NAME; … createInvocation() { return new ShellToolInvocation(…) } }`):
 * a name field among the creator's own members, a literal or a constant's value.
 */
function creatorName(graph: Graph, path: string, className: string, constantOf: (path: string, n: string) => string | undefined): string | undefined {
  const file = graph.files.get(path);
  if (!file) return undefined;
  const owners = new Set<Definition>();
  for (let at = file.text.indexOf(`new ${className}(`); at >= 0; at = file.text.indexOf(`new ${className}(`, at + 1)) {
    const owner = classAround(graph, path, at, at);
    if (owner) owners.add(owner);
  }
  const [owner] = owners;
  if (owners.size !== 1 || owner!.name === className) return undefined;
  // Its own members: the lines at the body's shallowest indentation (a method's locals sit deeper).
  const open = path.endsWith('.py') ? file.text.indexOf('\n', owner!.start) : file.text.indexOf('{', owner!.start);
  const lines = file.text.slice(open + 1, owner!.end).split('\n').filter((l) => l.trim() && !/^\s*[})\]]/.test(l));
  const depth = Math.min(...lines.map(indentOf));
  for (const line of lines) {
    if (indentOf(line) !== depth) continue;
    const m = NAME_FIELD.exec(line.trim());
    if (m) return m[1] || (m[2] ? constantOf(path, m[2]) : undefined);
  }
  return undefined;
}

/**
 * Whether a table of handlers is a menu a person picks from: every lookup of it in its file
 * (`ACTIONS.get(answer)`, `ACTIONS[choice]`) is keyed by a name the unit assigned from an ask
 * (`answer = questionary.select(…)`, or a helper of the repository's own that asks), never by a
 * name the model gives.
 */
function personKeyed(graph: Graph, asking: Set<number>, path: string, table: string): boolean {
  const file = graph.files.get(path);
  if (!file || !/^[A-Za-z_$][\w$]*$/.test(table)) return false;
  const lookups = [...file.text.matchAll(new RegExp(`(?<![\\w$.])${table.replace(/\$/g, '\\$')}\\s*(?:\\.get\\(|\\[)([^)\\]\\n]{1,120})`, 'g'))];
  return (
    lookups.length > 0 &&
    lookups.every((m) => {
      // The key's last name (`cast(str, answer)` → `answer`).
      const key = /([A-Za-z_$][\w$]*)\s*$/.exec(m[1]!.split(',').pop()!)?.[1];
      const unit = unitAt(graph, path, m.index!);
      if (!key || !unit) return false;
      const before = file.text.slice(unit.start, m.index!);
      const assigned = [...before.matchAll(new RegExp(`(?:^|\\n)[ \\t]*${key.replace(/\$/g, '\\$')}[ \\t]*(?::[^=\\n]*)?=(?!=)[ \\t]*(?:await[ \\t]+)?([\\w$.]+)[ \\t]*\\(`, 'g'))].pop();
      if (!assigned) return false;
      const at = unit.start + assigned.index! + assigned[0].length - assigned[1]!.length - 1;
      return unit.asks.some((a) => Math.abs(a.at - at) <= assigned[1]!.length + 1) || resolve(graph, unit, assigned[1]!).some((t) => asking.has(t.id));
    })
  );
}

/** The names a class's first line derives it from (`class Shell(BaseTool[P], ABC):`, `class X extends Base<T>`). */
function superclassesOf(line: string): string[] {
  const m = /\bclass\s+[\w$]+\s*(?:<[^>]*>\s*)?(?:\(([^)]*)\)|extends\s+([\w$.]+))/.exec(line);
  const from = m?.[1] ?? m?.[2] ?? '';
  return [...from.matchAll(/[A-Za-z_$][\w$]*/g)].map((n) => n[0]);
}

/** The string a type's name method returns (`func (ShellTool) Name() string { return "run_shell" }`, `fn name(&self) -> &str { "x" }`), or the name its declaration gives. */
function namedByMethod(graph: Graph, t: AgentTool): string | undefined {
  if (t.construct !== 'class-tool') return undefined;
  const file = graph.files.get(t.site.path);
  if (!file || !/^[A-Za-z_]\w*$/.test(t.name)) return undefined;
  const go = new RegExp(`func\\s*\\(\\s*\\w*\\s*\\*?${t.name}\\s*\\)\\s*Name\\s*\\(\\s*\\)\\s*string\\s*\\{\\s*return\\s*"([\\w.-]+)"`);
  // (or the declaration a method of it returns, `func (b *BashTool) Declaration() *ai.FunctionDeclaration { return &ai.FunctionDeclaration{Name: "bash", …} }`)
  const declared = new RegExp(`func\\s*\\(\\s*\\w*\\s*\\*?${t.name}\\s*\\)\\s*(?:Declaration|Definition|Spec|Schema|Info|Function)\\s*\\(\\s*\\)[^{\\n]*\\{\\s*return\\s*&?[\\w.]+\\s*\\{\\s*Name:\\s*"([\\w.-]+)"`);
  const rust = new RegExp(`impl[^{\\n]*\\b${t.name}\\b[^{\\n]*\\{[\\s\\S]{0,2000}?fn\\s+name\\s*\\(\\s*&?self\\s*\\)[^{]*\\{\\s*"([\\w.-]+)"`);
  return (go.exec(file.text) ?? declared.exec(file.text) ?? rust.exec(file.text))?.[1];
}

function handlerUnit(graph: Graph, path: string, site: NonNullable<RawFinding['tool']>, from: Fn | undefined): Fn | null {
  if (site.body) return unitForRange(graph, path, site.body[0], site.body[1], site.name);
  if (site.instanceOf) return typeHandler(graph, site.instanceOf);
  // A handler given as a method reference (`h.RunShell`, `self.run`) is kept by its last name: where no
  // plain function has it, it is the method of that name, resolved as a call on a receiver would be.
  // (Of an interface's implementations, `executor.press_key` on an abstract `Executor`, one that does
  // something: the abstract method's empty body runs nothing.)
  const first = (fns: Fn[]) => fns.find((f) => f.calls.length || f.sinks.length) ?? fns[0];
  const named = site.handler ? (from ? (first(resolve(graph, from, site.handler)) ?? first(resolve(graph, from, `.${site.handler}`))) : graph.byName.get(site.handler)?.[0]) : undefined;
  // (Else the function a handler-making call names, `tools.HandleRun(client)`: what it returns runs.)
  return named ?? (site.factory && from ? (resolve(graph, from, site.factory)[0] ?? null) : null);
}

/**
 * The method of a tool type (given as an empty value of it, `"kubectl": KubectlTool{}`) that runs
 * the tool: one named for running it, else the one method that takes anything (its description
 * and schema getters take nothing; what runs the tool takes the model's input).
 */
const RUN_METHOD = /^(run|execute|call|invoke|handle)\w*$/i;
function typeHandler(graph: Graph, type: string): Fn | null {
  const receiver = new RegExp(`^func\\s*\\(\\s*\\w*\\s*\\*?\\s*${type}\\s*\\)\\s*\\w+\\s*\\(\\s*(\\S?)`);
  const methods = graph.fns.flatMap((f) => {
    if (!f.method || graph.files.get(f.path)?.language !== 'go') return [];
    const m = receiver.exec(graph.files.get(f.path)!.text.slice(f.start, f.start + 300));
    return m ? [{ f, takes: m[1] !== ')' }] : [];
  });
  const named = methods.filter((m) => RUN_METHOD.test(m.f.name));
  const taking = methods.filter((m) => m.takes);
  return (named.length === 1 ? named[0]! : taking.length === 1 ? taking[0]! : null)?.f ?? null;
}

/** Whether the product code reads a key off an object (`target?.approval`, `entry["approval"]`, `tool.get("approval")`): a key of the harness's own that it honours. */
function readOffTools(graph: Graph, key: string): boolean {
  const read = new RegExp(`\\??\\.${key}\\b(?!\\s*(?::|=(?!=)|\\())|\\[\\s*["']${key}["']\\s*\\](?!\\s*=(?!=))|\\.get\\(\\s*["']${key}["']`);
  for (const file of graph.files.values()) if (file.text.includes(key) && read.test(file.text)) return true;
  return false;
}

/**
 * The agent model: the tools offered to the model with every sink each can reach and what guards
 * each path, plus the code runners (a shell or interpreter that runs what the model wrote, found
 * by the `runners` probe) that no tool reaches.
 */
export function buildModel(spec: ModelSpec, files: SourceFile[], facts: Map<string, FileFacts>, found: Found[], loops: Found[] = [], otherLoops: Record<string, Found[]> = {}): AgentModel {
  let runners = found;
  const graph = buildGraph(files, facts, spec.isolation);
  const asking = askingUnits(graph);
  const dispatchGates = dispatchers(graph, asking);
  const declaredNames = [...(spec.declaredApproval ? [spec.declaredApproval] : []), ...spec.declaredApprovalRead];
  const declaration = declaredNames.length ? declarationPattern(declaredNames.join('|')) : null;
  // A key of the harness's own counts where its code reads it (looked for once per key, when a tool declares it).
  const readKeys = new Map<string, boolean>();
  const honoured = (key: string): boolean => {
    if (!spec.declaredApprovalRead.includes(key)) return true;
    let read = readKeys.get(key);
    if (read === undefined) readKeys.set(key, (read = readOffTools(graph, key)));
    return read;
  };
  // The approval an entry that registers a tool declares (`{ name, tool: gitAddCoreTool, approval }`),
  // handed on to the tool it names.
  const declaredBy = new Map<AgentTool, Gate>();
  const unseenReach = new Set<AgentTool>();
  const unfollowed = spec.unfollowed ? new RegExp(spec.unfollowed) : null;
  const commandInput = spec.commandInput ? new RegExp(spec.commandInput, 'i') : null;
  const unattended = spec.unattended ? { switches: new RegExp(spec.unattended.switches, 'gi'), unless: new RegExp(spec.unattended.unless, 'i') } : null;
  const driven = spec.drivenAgent ? { calls: new RegExp(spec.drivenAgent.calls), programs: new RegExp(spec.drivenAgent.programs) } : null;
  let tools: AgentTool[] = [];
  // A constant's value by its name: the tool's own file's, else the repository's when every file
  // that defines the name gives it the same value (`NAME` is defined in many modules).
  const constants = new Map<string, Set<string>>();
  for (const f of facts.values()) for (const [n, v] of f.constants ?? []) constants.set(n, (constants.get(n) ?? new Set()).add(v));
  const constantOf = (path: string, n: string): string | undefined => {
    const own = facts.get(path)?.constants?.find(([m]) => m === n)?.[1];
    const all = constants.get(n);
    return own ?? (all?.size === 1 ? [...all][0] : undefined);
  };
  const callerVerdicts = new Map<number, ReturnType<typeof gatedByCallers>>();
  const byCallers = (fn: Fn) => {
    let v = callerVerdicts.get(fn.id);
    if (v === undefined) callerVerdicts.set(fn.id, (v = gatedByCallers(graph, fn, -1, asking, 0, new Set())));
    return v;
  };
  // Whether a table is a menu, once per table: a table's every entry is a finding of its own.
  const menuTables = new Map<string, boolean>();
  const menus = (path: string, table: string): boolean => {
    const key = `${path}\0${table}`;
    let menu = menuTables.get(key);
    if (menu === undefined) menuTables.set(key, (menu = personKeyed(graph, asking, path, table)));
    return menu;
  };
  // A tool class that names no tool and that other tool classes extend is their base (`class
  // BaseTool: name = ""`), not a tool the model is offered.
  const bases = new Set<string>();
  for (const f of facts.values()) for (const finding of f.findings) if (finding.tool && finding.probe === `${TOOL}class-tool`) for (const n of superclassesOf(finding.text)) bases.add(n);
  // The functions that build a tool whose registration is off by default: the tool they return is not offered either.
  const optedOut = new Set<string>();
  for (const file of files) {
    const f = facts.get(file.path);
    if (!f) continue;
    for (const finding of f.findings) {
      if (!finding.probe.startsWith(TOOL) || !finding.tool) continue;
      if (finding.tool.unnamed && bases.has(finding.tool.name)) continue;
      if (finding.probe === `${TOOL}dispatch-map` && finding.tool.binding && menus(file.path, finding.tool.binding)) continue;
      const from = unitAt(graph, file.path, finding.at);
      // (A tool registered only on a branch a setting that is off by default opens, `if cfg.EnableDelete
      // { s.AddTool(…) }`, is not offered in the shipped defaults.)
      if (from && optInBranch(graph, from, finding.at)) {
        if (finding.tool.builder) optedOut.add(finding.tool.name);
        continue;
      }
      const handler = handlerUnit(graph, file.path, finding.tool, from);
      const atDispatch = finding.tool.entry ? (dispatchGates.get(finding.tool.entry) ?? dispatchGates.get('') ?? null) : null;
      const declared = !atDispatch && declaration ? declaredGate(graph, file.path, finding.at, finding.endLine, declaration, honoured) : null;
      // A tool class named by a constant is called by the constant's value, as an approval list names
      // it; one that names no tool goes by the name of the tool class that creates it.
      const name = (finding.tool.constant && constantOf(file.path, finding.tool.constant)) || (finding.tool.unnamed && creatorName(graph, file.path, finding.tool.name, constantOf)) || finding.tool.name;
      // The names the handler takes from the model: where its paths start, and whether one carries a command.
      const input = handler ? handlerInput(graph, handler, CLASS_HANDLED.has(finding.probe.slice(TOOL.length))) : null;
      // A branch of a dispatcher is run by the dispatcher's callers: an ask one of them waits on
      // before it hands over the model's call (`if not confirm(call): break`) stands in front of it.
      // (Only an ask inside the loop over the model's tool calls: the chat loop's prompt for the
      // next message also comes before every dispatch, and decides nothing about one call.)
      // (Its callers' verdict is the same for every branch of one dispatcher: asked once per unit.)
      const branch = !atDispatch && !declared && from && BRANCHES.has(finding.probe.slice(TOOL.length));
      const before = branch ? gateBefore(graph, from, finding.at, asking) : null;
      const calledGate = branch ? (before ?? byCallers(from)) : null;
      // (So does an ask named for a decision in the dispatcher itself, before the branch:
      // `approver.request_approval(tool_name, args)` ahead of the `match` on the name.)
      const callerGate = calledGate && typeof calledGate !== 'string' && (inToolCallLoop(graph, calledGate.site) || (calledGate === before && decisionAsk(graph, before.site))) ? calledGate : null;
      const blind = { ambiguous: false };
      const wrapped = handler && !atDispatch && !declared && !callerGate ? wrapperGate(graph, file.path, finding.at, handler, asking) : null;
      const paths = handler ? pathsFrom(graph, handler, asking, atDispatch ?? declared ?? callerGate ?? wrapped, name, input, unfollowed, blind) : [];
      const tool: AgentTool = {
        name,
        construct: finding.probe.slice(TOOL.length),
        site: siteOf(file, finding, file.path),
        handler: handler ? { path: handler.path, line: handler.line, endLine: handler.line, text: handler.name } : null,
        reaches: [...new Set(paths.map((p) => p.kind))].sort(),
        paths,
        unresolved: !handler,
        ...(finding.tool.binding ? { binding: finding.tool.binding } : {}),
        ...(finding.tool.handler ? { reference: finding.tool.handler } : {}),
        ...(finding.tool.entry ? { entry: finding.tool.entry } : {}),
        ...(finding.tool.builder ? { builder: true } : {}),
        ...(declaredSettings(file.text.slice(finding.at, file.lineStarts[finding.endLine] ?? file.text.length)) ?? {}),
        ...(finding.tool.returnedBy ? { returnedBy: finding.tool.returnedBy } : {}),
        ...(commandInput && [...(input ?? [])].some((n) => commandInput.test(n)) ? { takesCommand: true } : {}),
      };
      if (declared) declaredBy.set(tool, declared);
      if (!paths.length && blind.ambiguous) unseenReach.add(tool);
      tools.push(tool);
    }
  }
  // Constructs that are tools only where they reach something (a comparison on a name) are dropped otherwise.
  const needsReach = new Set(spec.tools.filter((t) => t.needsReach).map((t) => t.id));
  tools = tools.filter((t) => !needsReach.has(t.construct) || t.paths.some((p) => p.kind !== 'llm' && !PASSIVE.has(p.kind)));
  // Constructs that name a function only by reference (an entry of a list of tools) are tools only
  // where the repository defines it: a list of tool objects built elsewhere adds none.
  const needsDefinition = new Set(spec.tools.filter((t) => t.needsDefinition).map((t) => t.id));
  tools = tools.filter((t) => !needsDefinition.has(t.construct) || !t.unresolved);
  // Constructs that stand for every tool a server lists (a generic call-tool handler) are a tool only
  // where the repository defines no other: beside named tools (in a monorepo, often in packages of
  // their own) they are the dispatcher that hands the calls on to them.
  const alone = new Set(spec.tools.filter((t) => t.alone).map((t) => t.id));
  if (tools.some((t) => !alone.has(t.construct))) tools = tools.filter((t) => !alone.has(t.construct));
  // Each pass below looks tools up by key, not by a search of every tool for each one: a
  // repository can define thousands of tools.
  const byKey = (list: AgentTool[], key: (t: AgentTool) => string | undefined) => {
    const out = new Map<string, AgentTool[]>();
    for (const t of list) {
      const k = key(t);
      if (k !== undefined) (out.get(k) ?? out.set(k, []).get(k)!).push(t);
    }
    return out;
  };
  // A registry entry ({ name: 'bash', tool: bashTool }) names a tool object defined elsewhere: the
  // tool takes that name; the entry is no tool of its own.
  // So does any entry whose handler is a tool object bound to a name ({ exec: execTool } in a tool map).
  const entries = new Set(tools.filter((t) => t.construct === 'registry-entry' || (t.unresolved && t.reference)));
  // (An entry with no reference takes the first tool bound to no name, as a search comparing the two would.)
  const bindingKey = (b: string | undefined) => (b === undefined ? '' : `=${b}`);
  const bound = byKey(
    tools.filter((t) => !entries.has(t)),
    (t) => bindingKey(t.binding),
  );
  const named = new Set<AgentTool>();
  for (const e of entries) {
    const target = bound.get(bindingKey(e.reference))?.[0];
    if (target) {
      target.name = e.name;
      named.add(e);
      // Declared before the tool runs, it stands first on every path (as a definition's own does).
      const gate = declaredBy.get(e);
      if (gate && !declaredBy.has(target)) for (const p of target.paths) Object.assign(p, { gate, gated: true });
    }
  }
  tools = tools.filter((t) => !named.has(t));
  // A registration naming its tool by a variable (`s.AddTool(readTool, readNote)`) that holds a tool
  // built by a call (`readTool := mcp.NewTool("read_note", …)`) is that tool: it takes the built
  // tool's name, and the built tool, which has no handler of its own, is no second tool.
  const builtBy = byKey(
    tools.filter((t) => t.unresolved),
    (t) => (t.binding === undefined ? undefined : `${t.binding}\0${t.site.path}`),
  );
  // So is one handed its tool by a function that builds it (`s.AddTool(tools.CreateRunTool(), …)`,
  // where `CreateRunTool` returns `mcp.NewTool("run_command", …)`), wherever that function is.
  const returned = byKey(
    tools.filter((t) => t.unresolved),
    (t) => t.returnedBy,
  );
  const taken = new Set<AgentTool>(tools.filter((t) => t.unresolved && t.returnedBy !== undefined && optedOut.has(t.returnedBy)));
  for (const t of tools) {
    if (t.unresolved) continue;
    const built = builtBy.get(`${t.name}\0${t.site.path}`)?.find((d) => !taken.has(d)) ?? (t.builder ? returned.get(t.name)?.find((d) => !taken.has(d)) : undefined);
    if (built) {
      t.name = built.name;
      taken.add(built);
    }
  }
  tools = tools.filter((t) => !taken.has(t));
  tierGates(tools);
  // One tool matched by several constructs (a tool() call and the object it is given, a decorator
  // and its registration call) is one tool: an unresolved match next to a resolved one of that name goes.
  const resolvedAt = byKey(
    tools.filter((t) => !t.unresolved),
    (t) => `${t.name}\0${t.site.path}`,
  );
  tools = tools.filter((t) => !t.unresolved || !(resolvedAt.get(`${t.name}\0${t.site.path}`) ?? []).some((o) => Math.abs(o.site.line - t.site.line) <= 2));
  const seen = new Set<string>();
  tools = tools.filter((t) => {
    const key = `${t.name}\0${t.handler ? `${t.handler.path}:${t.handler.line}` : `${t.site.path}:${t.site.line}`}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A tool named by a constant (`NewAgentTool(BashToolName, …)`) or by its type (`ShellTool`, whose
  // Name() method returns "run_shell") takes the string the code gives it.
  for (const t of tools) {
    const value = constantOf(t.site.path, t.name) ?? namedByMethod(graph, t);
    if (value) t.name = value;
  }
  // Code runners no tool path already reaches: each is a path of its own, gated when a caller asks
  // first. Only where no tool reaches a command: there the tools are how the model runs commands,
  // and a shell started elsewhere (a sandbox launcher, an editor, a hook) is the harness's own.
  const reached = new Set(tools.flatMap((t) => t.paths.map((p) => `${p.sink.path}:${p.sink.line}`)));
  // The model's reply handed to a command: gated only by an ask between the reply and the command.
  const replyChains = new Map<string, Array<[Fn, number]>>();
  const replyFed = new Set<string>();
  if (tools.some((t) => t.paths.some((p) => p.kind === 'exec' || p.kind === OWN_EXEC))) runners = [];
  else {
    const known = new Set(runners.map((x) => `${x.path}:${x.finding.startLine}`));
    // The model's reply handed to a command, and a command run after the reply was written to a
    // file (it runs what the model wrote).
    for (const r of [...replyRunners(graph), ...writtenRunners(graph)]) {
      const key = `${r.fn.path}:${r.sink.startLine}`;
      if (replyChains.has(key) || replyFed.has(key)) continue;
      // A runner the probe found already keeps its gate from its callers; that the reply reaches
      // it is what matters here (a command built in its own function from a reply is no own command).
      if (known.has(key)) {
        replyFed.add(key);
        continue;
      }
      runners = [...runners, { path: r.fn.path, finding: r.sink }];
      replyChains.set(key, r.chain);
    }
  }
  // (An ask raised to the app gates only the steps after it in its own unit: no broken chain hides one.)
  const neverAsks = graph.fns.every((fn) => fn.asks.every(raisedAsk));
  // The projects of a monorepo the agent lives in: those that call a model or define a tool. A
  // command run by another program of the repository (a setup wizard, a release script) that no
  // chain of calls connects to them is not one the model reaches.
  const agentProjects = new Set([...graph.fns.filter((f) => f.sinks.some((s) => s.probe === `${SINK}llm`)).map((f) => graph.project(f.path)), ...tools.map((t) => graph.project(t.site.path))]);
  const inAgent = (fn: Fn): boolean => {
    if (!agentProjects.size || agentProjects.has(graph.project(fn.path))) return true;
    const callers = callersByUnit(graph);
    const seen = new Set([fn.id]);
    let level = [fn];
    for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
      const next: Fn[] = [];
      for (const unit of level) {
        for (const [caller] of callers.get(unit.id) ?? []) {
          if (seen.has(caller.id)) continue;
          if (agentProjects.has(graph.project(caller.path))) return true;
          seen.add(caller.id);
          next.push(caller);
        }
      }
      level = next;
    }
    return false;
  };
  // The ask on a chain from the unit that takes the model's reply down to the sink, if any.
  const chainGate = (chain: Array<[Fn, number]>) => chain.map(([unit, at]) => gateBefore(graph, unit, at, asking)).find((g) => g) ?? null;
  // A sink the model's reply reaches as a path: gated only by an ask on the chain down to it.
  const chainPath = (r: ReplyRunner, kind: string): ToolPath => {
    const gate = chainGate(r.chain);
    return { kind, sink: sinkSite(graph.files.get(r.fn.path), r.sink, r.fn.path), gated: !!gate && gateHolds(gate, r.fn.name, kind), gate, isolated: r.fn.isolated, check: null, via: r.chain.map(([unit]) => unit.name).reverse() };
  };
  // Such a path as an entry of the Tools section, named for the function it sits in.
  const harnessTool = (r: ReplyRunner, construct: string, path: ToolPath): AgentTool => ({ name: r.fn.name.startsWith('<') ? construct : r.fn.name, construct, site: path.sink, handler: { path: r.fn.path, line: r.fn.line, endLine: r.fn.line, text: r.fn.name }, reaches: [path.kind], paths: [path], unresolved: false });
  // Files the model names, written by the harness: where no tool writes files (through a tool, the
  // model writes them itself), each write whose path a model reply carries is a path of its own.
  if (!tools.some((t) => t.paths.some((p) => p.kind === 'write' || p.kind === OWN_WRITE))) {
    const writers = new Set<string>();
    for (const r of replyWriters(graph)) {
      const key = `${r.fn.path}:${r.sink.startLine}`;
      if (reached.has(key) || writers.has(key)) continue;
      writers.add(key);
      tools.push(harnessTool(r, FILE_WRITER, chainPath(r, 'write')));
    }
  }
  // Browser actions the model's reply chooses (`CLICK 12` parsed and clicked): where no tool drives
  // the browser, each is a path of its own, gated by an ask between the reply and the action.
  if (!tools.some((t) => t.paths.some((p) => p.kind === BROWSE))) {
    // One path per action, one entry per function that acts (`type` clicks the field, then types).
    const drivers = new Map<number, AgentTool>();
    const done = new Set<string>();
    for (const r of replyRunners(graph, BROWSE)) {
      const key = `${r.fn.path}:${r.sink.startLine}`;
      if (reached.has(key) || done.has(key)) continue;
      done.add(key);
      const path = chainPath(r, BROWSE);
      const known = drivers.get(r.fn.id);
      if (known) known.paths.push(path);
      else {
        const tool = harnessTool(r, BROWSER_DRIVER, path);
        drivers.set(r.fn.id, tool);
        tools.push(tool);
      }
    }
  }
  const sinkRunners = graph.fns.flatMap((fn) => fn.sinks.filter((s) => spec.sinkRunners.includes(s.probe.slice(SINK.length))).map((s) => ({ path: fn.path, finding: s, kind: s.probe.slice(SINK.length) })));
  for (const r of [...runners.map((x) => ({ ...x, kind: 'exec' })), ...sinkRunners]) {
    const key = `${r.path}:${r.finding.startLine}`;
    if (reached.has(key)) continue;
    const file = graph.files.get(r.path);
    const offset = r.finding.at ?? (file ? file.lineStarts[r.finding.startLine - 1]! : 0);
    const fn = unitAt(graph, r.path, offset);
    if (!fn) continue;
    const chain = replyChains.get(key);
    // A command none of its function's input reaches is the harness's own (a notifier, an opener):
    // the model's reply does not flow into it, so it is no path the model drives.
    // (A runner that starts a coding agent is an agent itself, whatever project of the repository it sits in.)
    if (!chain && r.kind === 'exec' && !replyFed.has(key) && (ownCommand(graph, fn, offset) || (!inAgent(fn) && !(driven && file && drivenAgent(file, fn, r.finding.text, offset, driven))))) continue;
    const callers = chain ? (chainGate(chain) ?? 'ungated') : gatedByCallers(graph, fn, offset, asking, 0, new Set());
    // A broken chain could hide an ask only where the code has one: with nothing in the repository
    // that waits for the user, what runs the model's code runs it unasked, whoever calls it. Nor
    // where the runner starts a coding agent whose approvals are the ask the path had: switched off
    // by the code, or left as they ship and run headless, where they ask no one.
    // (Read only where no caller's ask decides the path.)
    const drives = typeof callers === 'string' && r.kind === 'exec' && file;
    const agent = drives ? ((unattended && switchedOff(file, fn, unattended)) || (driven && drivenAgent(file, fn, r.finding.text, offset, driven)) || null) : null;
    const verdict = callers === 'unknown' && !neverAsks && !agent ? 'unknown' : callers === 'unknown' ? 'ungated' : callers;
    const gate = typeof verdict === 'string' ? agent : verdict;
    const site = sinkSite(file, r.finding, r.path);
    tools.push({
      name: fn.name.startsWith('<') ? (r.kind === 'exec' ? CODE_RUNNER : EXTENSION_CALL) : fn.name,
      construct: r.kind === 'exec' ? CODE_RUNNER : EXTENSION_CALL,
      site,
      handler: { path: fn.path, line: fn.line, endLine: fn.line, text: fn.name },
      reaches: [r.kind],
      paths: [{ kind: r.kind, sink: site, gated: !!gate && gateHolds(gate, fn.name, r.kind), gate, isolated: fn.isolated, check: null, via: [fn.name] }],
      // Nothing found calls it: whether the model can reach it, and through what, is unknown.
      unresolved: verdict === 'unknown',
    });
  }
  // A tool whose handler reaches no sink, but only through calls the graph could not follow (a
  // method of an injected provider, defined by many classes), reaches what is unknown, not nothing.
  for (const t of tools) if (unseenReach.has(t)) t.unresolved = true;
  tools.sort((a, b) => a.site.path.localeCompare(b.site.path) || a.site.line - b.site.line || a.name.localeCompare(b.name));
  const modelCalls = graph.fns.flatMap((fn) => fn.sinks.filter((s) => s.probe === `${SINK}llm`).map((s) => siteOf(graph.files.get(fn.path), s, fn.path)));
  // Model calls are what make a tool path an agent's; they are no consequential sink of a tool.
  for (const t of tools) {
    t.paths = t.paths.filter((p) => p.kind !== 'llm');
    t.reaches = t.reaches.filter((k) => k !== 'llm');
  }
  const allSinks = graph.fns.flatMap((fn) => fn.sinks.filter((s) => s.probe !== `${SINK}llm`).map((s) => ({ kind: s.probe.slice(SINK.length), site: sinkSite(graph.files.get(fn.path), s, fn.path) })));
  const dispatches = dispatchSites(graph, tools.flatMap((t) => (t.entry ? [t.entry] : [])), spec.records ? new RegExp(spec.records) : null);
  return { tools, modelCalls, ambiguousCalls: graph.unresolvedCalls.size, allSinks, loops: modelLoops(graph, loops), loopsBy: Object.fromEntries(Object.entries(otherLoops).map(([id, l]) => [id, modelLoops(graph, l)])), dispatches, strandedAsks: strandedAsks(graph, asking, tools) };
}

function strandedAsks(graph: Graph, asking: Set<number>, tools: AgentTool[]): Site[] {
  if (!tools.some((t) => !t.unresolved && t.paths.some((p) => !p.gated && !p.isolated && !PASSIVE.has(p.kind)))) return [];
  const called = new Set(graph.fns.flatMap((f) => f.calls.map(([c]) => callParts(c).name)));
  const gates = new Set(tools.flatMap((t) => t.paths.flatMap((p) => (p.gate ? [`${p.gate.site.path}:${p.gate.site.line}`] : []))));
  const out: Site[] = [];
  for (const f of graph.fns) {
    if (!asking.has(f.id) || !f.asks.length || f.entry || f.name.startsWith('<') || called.has(f.name)) continue;
    if (f.asks.some((a) => gates.has(`${f.path}:${a.startLine}`))) continue;
    out.push(siteOf(graph.files.get(f.path), f.asks[0]!, f.path));
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
}

/** The paths of the model that a fact's query selects; tools whose reach could not be resolved decide nothing. */
export function pathsMatching(model: AgentModel, q: ModelSpec['facts'][number]['paths']): Array<{ tool: AgentTool; path: ToolPath | null }> {
  if (q.tools) return model.tools.filter((t) => !HARNESS_PATHS.has(t.construct) && (q.commandInput === undefined || !!t.takesCommand === q.commandInput)).map((tool) => ({ tool, path: null }));
  const matches = model.tools.filter((t) => !t.unresolved).flatMap((tool) =>
    tool.paths
      .filter(
        (p) =>
          (q.reach === 'any' || ((q.reach === undefined || q.reach === 'consequential') && !PASSIVE.has(p.kind)) || p.kind === q.reach) &&
          (q.gated === undefined || p.gated === q.gated) &&
          (q.asked === undefined || (p.gated || p.gate?.kind === 'safe-list') === q.asked) &&
          (q.isolated === undefined || p.isolated === q.isolated) &&
          (q.showsInput === undefined || (p.gated && !!p.gate?.showsInput) === q.showsInput) &&
          (q.checked === undefined || !!p.check === q.checked) &&
          (q.statement === undefined || (p.statement === true) === q.statement) &&
          (q.gate === undefined || p.gate?.kind === q.gate),
      )
      .map((path) => ({ tool, path })),
  );
  // (A control most tools have, not one: found only where paths of at least `minTools` tools match.)
  return q.minTools && new Set(matches.map((m) => m.tool)).size < q.minTools ? [] : matches;
}
