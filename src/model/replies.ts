import { SINK } from '../facts/plan.js';
import { lineAt, lineText } from '../inventory/lines.js';
import { callParts, resolve, uncounted, type Fn, type Graph } from './graph.js';
import { ownCommand, startsFileRunner } from './inputs.js';

/**
 * Harnesses with no tool construct at all still run what the model wrote: the reply is parsed into
 * commands or a code block and handed to a shell or `exec` a few calls further on (a "runner"
 * agent, a code-generation loop). This finds those command sinks: an `exec` sink whose function,
 * or a caller a few levels up, takes the result of a model call and passes it on toward the sink.
 * The data flow is followed inside that one function (the reply, what is assigned from it, what a
 * loop takes from it); from there down, the arguments are taken to carry it (the parameter path is
 * not tracked).
 */

const MODEL_DEPTH = 5;
const CALLER_DEPTH = 4;
/**
 * A call that makes a safe file name of what it is given (`secure_filename`, `slugify`,
 * `sanitize_filename`, `basename`): a path built from its result stays in the folder the code chose,
 * so the reply no longer names where the file goes.
 */
const FILE_NAME_SANITIZER = /(?:^|[^\w$])[\w$.]*(?:sanitiz|secure_filename|slugify|basename)[\w$]*\s*\(/i;
/** Assignments and loops followed back inside one unit from a value to the names it is built from. */
const BOUND_DEPTH = 4;
/** An ambiguous call counts as a model call when at least half of at most this many definitions are. */
const MAX_AMBIGUOUS = 12;

/** Model callers by graph: the code runners, the file writers and the agent loops all ask, and the graph does not change once built. */
const modelCallersMemo = new WeakMap<Graph, ReadonlySet<number>>();

/** Units that call the model, directly or through at most MODEL_DEPTH calls. */
export function modelCallers(graph: Graph): ReadonlySet<number> {
  const known = modelCallersMemo.get(graph);
  if (known) return known;
  const set = withCallers(graph, `${SINK}llm`, MODEL_DEPTH, (f, call, found) => callsModel(graph, f, call, found));
  modelCallersMemo.set(graph, set);
  return set;
}

/**
 * Units with a sink of one kind, and the units that reach one through at most `depth` calls: each
 * round adds every unit one of whose calls `reaches` a unit found in the rounds before.
 */
function withCallers(graph: Graph, probe: string, depth: number, reaches: (from: Fn, call: string, found: ReadonlySet<number>) => boolean): Set<number> {
  const set = new Set(graph.fns.filter((f) => f.sinks.some((s) => s.probe === probe)).map((f) => f.id));
  for (let round = 0; round < depth; round++) {
    const added = graph.fns.filter((f) => !set.has(f.id) && f.calls.some(([call]) => reaches(f, call, set)));
    if (!added.length) break;
    for (const f of added) set.add(f.id);
  }
  return set;
}

function callsModel(graph: Graph, from: Fn, call: string, set: ReadonlySet<number>): boolean {
  // A call that resolves only to its own unit is mostly a same-named method of another object
  // (`self._generator.generate_code` inside `generate_code`): read it as unresolved.
  const targets = resolve(graph, from, call).filter((t) => t.id !== from.id);
  if (targets.length) return targets.some((t) => set.has(t.id));
  // A wrapper method every provider class defines (`self.llm.inference`, `client.generate`): the
  // name alone cannot pick one, but when at least half of its definitions call the model, so does this call.
  const named = graph.byName.get(callParts(call).name) ?? [];
  // More than that many, less the unit itself, decides nothing: not worth filtering.
  if (named.length > MAX_AMBIGUOUS + 1) return false;
  const all = named.filter((t) => t.id !== from.id);
  return all.length > 1 && all.length <= MAX_AMBIGUOUS && all.filter((t) => set.has(t.id)).length * 2 >= all.length;
}

export const WORD = /[A-Za-z_][\w]*/g;
const ASSIGN = /^\s*(?:(?:const|let|var|mut)\s+)*(?:\(?\s*)?([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*\)?\s*(?::\s*[^=\n]+?)?\s*(?::=|=(?!=))\s*(.*)$/;
// `const { readScript } = await complete(…)`, `const [code, lang] = parse(reply)`: every name the pattern binds.
const DESTRUCTURE = /^\s*(?:const|let|var)\s+([{[][^=]*[}\]])\s*(?::\s*[^=\n]+?)?\s*=(?!=)\s*(.*)$/;

/** The names a line assigns and the text it assigns from, or null when it assigns nothing. */
function assigned(text: string): { names: string[]; value: string } | null {
  const a = ASSIGN.exec(text);
  if (a) return { names: [a[1]!], value: a[2]! };
  const d = DESTRUCTURE.exec(text);
  // In `{ key: name }` the binding is the name after the colon; a default (`= x`) cannot appear before the `=` matched.
  if (d) return { names: [...d[1]!.replace(/[\w$]+\s*:/g, '').matchAll(WORD)].map((w) => w[0]), value: d[2]! };
  return null;
}
const LOOP = /^\s*for\s*\(?\s*(?:(?:const|let|var)\s+)?(?:[A-Za-z_]\w*\s*,\s*)?([A-Za-z_]\w*)\s+(?:in|of)\s+(.*)$|^\s*for\s+(?:[A-Za-z_]\w*\s*,\s*)?([A-Za-z_]\w*)\s*:?=\s*range\s+(.*)$/;

/**
 * Whether, inside `fn`, the value a model call returns reaches the call at offset `to`: assigned
 * from the model call, carried by later assignments and loop variables, and named in that call's
 * arguments. Line-based: a statement spread over several lines is read by its first.
 */
function replyReaches(graph: Graph, fn: Fn, modelAt: number, to: number): boolean {
  const file = graph.files.get(fn.path);
  return !!file && replyNamed(graph, fn, modelAt, to, argumentsOf(file, to));
}

const ITEM_ASSIGNMENT = /^[A-Za-z_][\w.]*\[([^\]\n]*)\]\s*=(?!=)\s*([^\n]*)/;
const namedCalls = new Map<string, RegExp>();
/** A call of `name`, not of a longer name ending in it (at the text's start, or after another character). */
function namedCall(name: string, textStart: boolean): RegExp {
  const key = `${textStart ? '^' : ''}${name}`;
  let re = namedCalls.get(key);
  if (!re) {
    if (namedCalls.size >= 4096) namedCalls.clear();
    namedCalls.set(key, (re = new RegExp(`(?:${textStart ? '^|' : ''}[^\\w$])${name.replace(/\$/g, '\\$')}\\s*\\(`)));
  }
  return re;
}

/**
 * The argument list of the call at `at`, across lines, to its closing parenthesis (bounded). Given
 * the called name, the list is the one after that name: a call on a receiver built by a call
 * (`Manager().apply(edits)`) starts where the receiver does, and its first parenthesis is the receiver's.
 */
export function argumentsAt(text: string, at: number, name?: string): string {
  // An item assignment read as a call of its item setter (`workspace[name] = content`): its key and value.
  const item = ITEM_ASSIGNMENT.exec(text.slice(at, at + 400));
  if (item) return `${item[1]}, ${item[2]}`;
  // Only a list opening within 200 characters is read, and only a name starting within 400 counts,
  // so only those stretches are searched: a scan to the end of a large file per call site adds up.
  const first = text.slice(at, at + 201).indexOf('(');
  let open = first < 0 ? -1 : at + first;
  if (name) {
    const from = Math.max(0, at - 1);
    const m = namedCall(name, from === 0).exec(text.slice(from, at + 401 + name.length + 256));
    if (m && from + m.index - at <= 400) open = from + m.index + m[0].length - 1;
  }
  if (open < 0 || open - at > 200) return '';
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 4000); i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1, open + 4000);
}

/** Where in `fn` a model call is made: its own model-call sinks and its calls of model-calling units. */
export function modelCallSites(graph: Graph, fn: Fn, set: ReadonlySet<number>): number[] {
  const out = fn.sinks.filter((s) => s.probe === `${SINK}llm`).map((s) => s.at);
  for (const [call, at] of fn.calls) if (callsModel(graph, fn, call, set)) out.push(at);
  return out.sort((a, b) => a - b);
}

/** An `exec` sink the model's reply is handed to, and the calls from the unit that takes the reply down to it. */
export interface ReplyRunner {
  fn: Fn;
  sink: Fn['sinks'][number];
  /** From the unit that takes the reply to the sink's unit, each with the offset of its step down (the sink's, last). */
  chain: Array<[Fn, number]>;
}

/** Each unit's callers, with the offset of the call: once per graph (commands, writes and browser actions all ask). */
const callersMemo = new WeakMap<Graph, Map<number, Array<[Fn, number]>>>();
export function callersByUnit(graph: Graph): Map<number, Array<[Fn, number]>> {
  let callers = callersMemo.get(graph);
  if (callers) return callers;
  callers = new Map();
  for (const f of graph.fns) for (const [call, at] of f.calls) for (const t of resolve(graph, f, call)) if (t.id !== f.id) (callers.get(t.id) ?? callers.set(t.id, []).get(t.id)!).push([f, at]);
  callersMemo.set(graph, callers);
  return callers;
}

/**
 * Sinks of one kind reached from a model reply, each with its chain from the unit that takes the
 * reply. Callers are found by name over the whole graph, so the model runs this only where no tool
 * already reaches that kind.
 */
function replyChains(graph: Graph, kind: string, chainOf: (fn: Fn, sink: Fn['sinks'][number], models: ReadonlySet<number>, callers: Map<number, Array<[Fn, number]>>) => Array<[Fn, number]> | null): ReplyRunner[] {
  const probe = `${SINK}${kind}`;
  if (!graph.fns.some((f) => f.sinks.some((s) => s.probe === probe))) return [];
  return uncounted(graph, () => {
    const models = modelCallers(graph);
    const callers = callersByUnit(graph);
    const out: ReplyRunner[] = [];
    for (const fn of graph.fns) {
      for (const sink of fn.sinks) {
        if (sink.probe !== probe) continue;
        const chain = chainOf(fn, sink, models, callers);
        if (chain) out.push({ fn, sink, chain });
      }
    }
    return out;
  });
}

/** The sinks of a kind (`exec`: commands; `browse`: browser actions) the model's reply is handed to. */
export const replyRunners = (graph: Graph, kind = 'exec'): ReplyRunner[] => replyChains(graph, kind, (fn, sink, models, callers) => chainFromTaker(graph, fn, sink.at, models, callers));

/**
 * Commands run after the model's reply was written to a file: a unit writes the reply (itself or
 * through a helper) and then, further on, starts a command (`outputFile(path, code)` then
 * `test(options)`, which runs the user's test command). The command runs the code the model wrote,
 * whatever its own text: the user's test command, an interpreter or a build tool. A fixed command
 * of the harness's own (`git add .`) runs nothing the model wrote and does not count.
 */
export const writtenRunners = (graph: Graph): ReplyRunner[] => {
  // Found once, and only where some command could run a written file: inside the pass, whose
  // unresolved calls are no limitation of the model.
  let writers: ReadonlySet<number> | undefined;
  return replyChains(graph, 'exec', (fn, sink, models, callers) => (runsWrittenCode(graph, fn, sink.at) ? chainAfterWrite(graph, fn, sink.at, models, callers, (writers ??= writingUnits(graph))) : null));
};

/**
 * Whether a command can run a file another step wrote: it starts an interpreter or a build or test
 * runner, or it is a command line chosen outside the code (the user's test command, a setting),
 * with no program of its own written into it. `cp`, `git add`, `open` run nothing the model wrote.
 */
function runsWrittenCode(graph: Graph, fn: Fn, at: number): boolean {
  const file = graph.files.get(fn.path);
  if (!file || ownCommand(graph, fn, at)) return false;
  return startsFileRunner(file, fn, at) || !/["'`]/.test(argumentAt(file, at, 0));
}

/** Units that write a file, directly or through at most WRITE_DEPTH calls. */
const WRITE_DEPTH = 2;
const writingUnits = (graph: Graph): ReadonlySet<number> => withCallers(graph, `${SINK}write`, WRITE_DEPTH, (f, call, found) => resolve(graph, f, call).some((t) => t.id !== f.id && found.has(t.id)));

/** The nearest unit, from `fn` up its callers, that writes a model reply to a file before its step toward the sink, with the steps down from it. */
function chainAfterWrite(graph: Graph, fn: Fn, at: number, models: ReadonlySet<number>, callers: Map<number, Array<[Fn, number]>>, writers: ReadonlySet<number>): Array<[Fn, number]> | null {
  return chainUp(fn, at, callers, (unit, offset) => {
    if (!models.has(unit.id)) return false;
    const writes = [
      ...unit.sinks.filter((s) => s.probe === `${SINK}write` && s.at < offset).map((s) => s.at),
      ...unit.calls.filter(([call, callAt]) => callAt < offset && resolve(graph, unit, call).some((t) => t.id !== unit.id && writers.has(t.id))).map(([, callAt]) => callAt),
    ];
    const sites = modelCallSites(graph, unit, models);
    return writes.some((w) => sites.some((m) => m < w && replyReaches(graph, unit, m, w)));
  });
}

/** The nearest unit, from `fn` up its callers, where a model reply flows into the step toward the sink, with the steps down from it. */
function chainFromTaker(graph: Graph, fn: Fn, at: number, models: ReadonlySet<number>, callers: Map<number, Array<[Fn, number]>>): Array<[Fn, number]> | null {
  return chainUp(
    fn,
    at,
    callers,
    (unit, offset) => models.has(unit.id) && modelCallSites(graph, unit, models).some((m) => m < offset && replyReaches(graph, unit, m, offset)),
    // A reply taken further up reaches the sink only through the unit's input: not where the
    // call's arguments carry none of it (a command of the unit's own).
    (unit, offset, depth) => !(depth === 0 && ownCommand(graph, unit, offset)),
  );
}

/**
 * From the call at `at` in `fn` up its callers (at most CALLER_DEPTH levels), the first unit `takes`
 * accepts at its step toward the sink, with each step down from it (the sink's, last). By unit and
 * call site: a unit that reaches the sink through two of its calls (a user's command and the
 * model's) is asked about each. `climbs` stops the walk above a unit.
 */
function chainUp(fn: Fn, at: number, callers: Map<number, Array<[Fn, number]>>, takes: (unit: Fn, offset: number) => boolean, climbs: (unit: Fn, offset: number, depth: number) => boolean = () => true): Array<[Fn, number]> | null {
  type Step = { unit: Fn; offset: number; down: Step | null };
  const seen = new Set<string>();
  let level: Step[] = [{ unit: fn, offset: at, down: null }];
  for (let depth = 0; depth <= CALLER_DEPTH && level.length; depth++) {
    const next: Step[] = [];
    for (const step of level) {
      const { unit, offset } = step;
      const key = `${unit.id}:${offset}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (takes(unit, offset)) {
        const chain: Array<[Fn, number]> = [];
        for (let s: Step | null = step; s; s = s.down) chain.push([s.unit, s.offset]);
        return chain;
      }
      if (!climbs(unit, offset, depth)) continue;
      for (const [caller, callAt] of callers.get(unit.id) ?? []) next.push({ unit: caller, offset: callAt, down: step });
    }
    level = next;
  }
  return null;
}

/**
 * A call's argument text and its top-level parts in a file the model holds, remembered per file
 * object (so per audit): the walks ask for the same call many times (26,654 asks for 3,312 calls in
 * a re-audit of gemini-cli).
 */
const argumentMemo = new WeakMap<object, Map<string, { text: string; parts?: string[] }>>();
function remembered(file: { text: string }, at: number, name?: string): { text: string; parts?: string[] } {
  let calls = argumentMemo.get(file);
  if (!calls) argumentMemo.set(file, (calls = new Map()));
  const key = name === undefined ? `${at}` : `${at} ${name}`;
  let got = calls.get(key);
  if (!got) calls.set(key, (got = { text: argumentsAt(file.text, at, name) }));
  return got;
}
/** `argumentsAt` over a file of the model, remembered. */
export const argumentsOf = (file: { text: string }, at: number, name?: string): string => remembered(file, at, name).text;
/** `splitArguments(argumentsAt(…))` over a file of the model, remembered: the parts are shared, not to be changed. */
export function argumentListOf(file: { text: string }, at: number, name?: string): readonly string[] {
  const got = remembered(file, at, name);
  return (got.parts ??= splitArguments(got.text));
}

/** An argument list's top-level parts (commas inside brackets and strings do not split). */
export function splitArguments(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(args.slice(start).trim());
  return parts.filter((p) => p);
}

/** The expression text of a call's argument at `index`, or '' when it has fewer. */
const argumentAt = (file: { text: string }, callAt: number, index: number, name?: string): string => argumentListOf(file, callAt, name)[index] ?? '';

/** A unit's parameters as written in its header, in order (null where it has no parameter list). */
export function parameterList(graph: Graph, fn: Fn): string[] | null {
  const file = graph.files.get(fn.path);
  if (!file) return null;
  const head = file.text.slice(fn.start, Math.min(fn.end, fn.start + 600));
  // A Go method's receiver comes first: `func (s *Server) write(path string)`; a function literal
  // (`func(ctx context.Context, …) (…, error)`) has none, its first list is its parameters.
  const receiver = /^func\s*\([^)]*\)(?=\s*[A-Za-z_]\w*\s*[[(])/.exec(head);
  const open = head.indexOf('(', receiver ? receiver[0].length : 0);
  return open < 0 ? null : splitArguments(argumentsAt(head, open));
}

/** A unit's parameter names, in order, read from its header; a method's receiver (self, cls) left out. */
export function parametersOf(graph: Graph, fn: Fn): string[] {
  const names = (parameterList(graph, fn) ?? []).map((p) => /^[*&\s]*(?:mut\s+)?([A-Za-z_$][\w$]*)/.exec(p)?.[1] ?? '');
  return names[0] && /^(self|cls|this)$/.test(names[0]) ? names.slice(1) : names;
}

/**
 * File writes whose path the model's reply names: a write sink whose path argument is carried,
 * argument by argument up a short chain of callers, from a name assigned from a model call (a
 * generator that writes each file the model's plan lists). Content alone is not enough: a log or
 * a saved conversation writes the reply to a path the code chose.
 */
export const replyWriters = (graph: Graph): ReplyRunner[] =>
  replyChains(graph, 'write', (fn, sink, models, callers) => {
    const file = graph.files.get(fn.path);
    if (!file) return null;
    // A path object's own method (`report_path.write_text(content)`) writes where the object points: the receiver is the path.
    const receiver = PATH_METHOD.exec(sink.text)?.[1];
    return pathFromTaker(graph, fn, sink.at, receiver ?? argumentAt(file, sink.at, 0), models, callers);
  });

export const PATH_METHOD = /^([\w$.]+(?:\((?:[^()]|\([^()]*\))*\))?)\.(?:write_text|write_bytes|touch|unlink|rmdir|rename|replace|mkdir)\s*\(/;

function pathFromTaker(graph: Graph, fn: Fn, at: number, carried: string, models: ReadonlySet<number>, callers: Map<number, Array<[Fn, number]>>): Array<[Fn, number]> | null {
  type Step = { unit: Fn; offset: number; carried: string; down: Step | null };
  const seen = new Set<string>();
  let level: Step[] = [{ unit: fn, offset: at, carried, down: null }];
  for (let depth = 0; depth <= CALLER_DEPTH && level.length; depth++) {
    const next: Step[] = [];
    for (const step of level) {
      const { unit, offset } = step;
      const key = `${unit.id}:${step.carried}`;
      if (!step.carried || seen.has(key)) continue;
      seen.add(key);
      if (models.has(unit.id) && modelCallSites(graph, unit, models).some((m) => m < offset && replyNamed(graph, unit, m, offset, step.carried, FILE_NAME_SANITIZER))) {
        const chain: Array<[Fn, number]> = [];
        for (let s: Step | null = step; s; s = s.down) chain.push([s.unit, s.offset]);
        return chain;
      }
      // Up to the callers: the argument in the position of each parameter the path is built from.
      const params = parametersOf(graph, unit);
      const from = boundFrom(graph, unit, offset, step.carried);
      const used = params.map((p, i) => [p, i] as const).filter(([p]) => new RegExp(`(^|[^\\w$])${p.replace(/\$/g, '\\$')}([^\\w$]|$)`).test(from));
      for (const [caller, callAt] of callers.get(unit.id) ?? []) {
        const file = graph.files.get(caller.path);
        if (!file) continue;
        for (const [, i] of used) next.push({ unit: caller, offset: callAt, carried: argumentAt(file, callAt, i, unit.name), down: step });
      }
    }
    level = next;
  }
  return null;
}

/**
 * What `carried` is built from inside `fn`, before offset `to`: the text itself plus, for each name
 * in it, what the unit assigned to that name or the collection a loop took it from, followed back
 * a few steps (`file_path = edit.new_path or edit.path` inside `for edit in edits:` is built from
 * `edits`). Line-based, as replyNamed is.
 */
function boundFrom(graph: Graph, fn: Fn, to: number, carried: string): string {
  const file = graph.files.get(fn.path);
  if (!file) return carried;
  const sources = new Map<string, string[]>();
  const bind = (name: string, value: string) => (sources.get(name) ?? sources.set(name, []).get(name)!).push(value);
  for (let line = lineAt(file, fn.start) + 1, last = lineAt(file, to); line < last; line++) {
    const text = lineText(file, line);
    const a = assigned(text);
    if (a) for (const n of a.names) bind(n, a.value);
    // Every name a loop binds takes from its collection (`for key, value in tree.items():`).
    const l = LOOP.exec(text);
    const targets = l ? /^\s*for\s*\(?\s*(?:(?:const|let|var)\s+)?(.*?)\s+(?:in|of|:?=\s*range)\s/.exec(text)?.[1] ?? (l[1] ?? l[3])! : '';
    for (const w of targets.matchAll(WORD)) bind(w[0], l![2] ?? l![4] ?? '');
  }
  let out = carried;
  const done = new Set<string>();
  for (let round = 0; round < BOUND_DEPTH; round++) {
    const names = [...out.matchAll(WORD)].map((w) => w[0]).filter((n) => sources.has(n) && !done.has(n));
    if (!names.length) break;
    for (const n of names) {
      done.add(n);
      out += ` ${sources.get(n)!.join(' ')}`;
    }
  }
  return out;
}

/**
 * The names that carry `seed` on inside `fn`, from line `first` up to (not including) line `last`:
 * what is assigned from them (unless through a `stop` call), the variable of a loop over them, and,
 * with `pointers`, what a line naming them fills through a pointer (`json.Unmarshal(raw, &in)`).
 * Line-based: a statement spread over several lines is read by its first.
 */
export function carriedForward(file: { text: string; lineStarts: number[] }, fn: Fn, first: number, last: number, seed: Iterable<string>, opts: { stop?: RegExp; pointers?: boolean } = {}): Set<string> {
  return new Set(carriedFrom(file, fn, first, last, seed, opts).keys());
}

// A list filled from a carried name: `gitArgs.push(...args.files)`, `cmd.append(path)`.
const FILLED = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*(?:push|append|extend|unshift|insert|add)\s*\(([^)]*)/g;

/** Lines a value may run on to when its line leaves a bracket open (`x = parse(⏎ reply,⏎ )`). */
const CONTINUED_LINES = 4;

/** An assigned value with the lines it runs on to while a bracket it opened is still open (a call's arguments written below it). */
function continued(file: { text: string; lineStarts: number[] }, line: number, value: string): string {
  let depth = opened(value);
  let out = value;
  for (let next = line + 1; depth > 0 && next <= line + CONTINUED_LINES && next <= file.lineStarts.length; next++) {
    const more = lineText(file, next);
    depth += opened(more);
    out += ` ${more.trim()}`;
  }
  return out;
}

/** Brackets a text opens, less those it closes. */
function opened(text: string): number {
  let depth = 0;
  for (const ch of text) depth += ch === '(' || ch === '[' || ch === '{' ? 1 : ch === ')' || ch === ']' || ch === '}' ? -1 : 0;
  return depth;
}

/**
 * Each name that carries `seed` on, with the line where it first does (the seed's: −Infinity).
 * The pass only adds names, so the names carried up to any line are those added before it: one
 * pass through a unit answers every later question about it.
 */
export function carriedFrom(file: { text: string; lineStarts: number[] }, fn: Fn, first: number, last: number, seed: Iterable<string>, opts: { stop?: RegExp; pointers?: boolean } = {}): Map<string, number> {
  const out = new Map<string, number>();
  for (const n of seed) out.set(n, -Infinity);
  const carries = (text: string) => [...text.matchAll(WORD)].some((w) => out.has(w[0]));
  const add = (name: string, line: number) => {
    if (!out.has(name)) out.set(name, line);
  };
  for (let line = first; line < last && file.lineStarts[line - 1]! < fn.end; line++) {
    const text = lineText(file, line);
    const a = assigned(text);
    if (a) a.value = continued(file, line, a.value);
    if (a && carries(a.value) && !opts.stop?.test(a.value)) for (const n of a.names) add(n, line);
    if (opts.pointers && carries(text)) {
      for (const m of text.matchAll(/&\s*(?:mut\s+)?([A-Za-z_]\w*)/g)) add(m[1]!, line);
      // A list filled from it (`gitArgs.push(...args.files)`, `cmd.append(path)`) carries it too.
      for (const m of text.matchAll(FILLED)) if (carries(m[2]!)) add(m[1]!, line);
    }
    const l = LOOP.exec(text);
    if (l && carries(l[2] ?? l[4] ?? '')) add((l[1] ?? l[3])!, line);
  }
  return out;
}

/** Whether, inside `fn`, a name assigned from the model call at `modelAt` (or carried on from it) appears in `carried`. */
function replyNamed(graph: Graph, fn: Fn, modelAt: number, to: number, carried: string, stop?: RegExp): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return false;
  const first = lineAt(file, modelAt);
  let head = assigned(lineText(file, first));
  // A call wrapped onto the line after its assignment (`ops, sid = asyncio.run(⏎ next_action(…))`):
  // the names are on the line the statement starts, a few lines up.
  for (let up = 1; !head && up <= 3 && first - up >= 0 && /[([{,=\\]\s*$/.test(lineText(file, first - up)); up++) head = assigned(lineText(file, first - up));
  if (!head) return false;
  const tainted = carriedForward(file, fn, first + 1, lineAt(file, to), head.names, { stop });
  return [...carried.matchAll(WORD)].some((w) => tainted.has(w[0])) && !stop?.test(carried);
}
