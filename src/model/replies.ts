import { SINK } from '../facts/plan.js';
import { lineAt } from '../inventory/lines.js';
import { callParts, resolve, type Fn, type Graph } from './graph.js';

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
/** An ambiguous call counts as a model call when at least half of at most this many definitions are. */
const MAX_AMBIGUOUS = 12;

/** Units that call the model, directly or through at most MODEL_DEPTH calls. */
function modelCallers(graph: Graph): Set<number> {
  const set = new Set(graph.fns.filter((f) => f.sinks.some((s) => s.probe === `${SINK}llm`)).map((f) => f.id));
  for (let round = 0; round < MODEL_DEPTH; round++) {
    const added = graph.fns.filter((f) => !set.has(f.id) && f.calls.some(([call]) => callsModel(graph, f, call, set)));
    if (!added.length) break;
    for (const f of added) set.add(f.id);
  }
  return set;
}

function callsModel(graph: Graph, from: Fn, call: string, set: Set<number>): boolean {
  // A call that resolves only to its own unit is mostly a same-named method of another object
  // (`self._generator.generate_code` inside `generate_code`): read it as unresolved.
  const targets = resolve(graph, from, call).filter((t) => t.id !== from.id);
  if (targets.length) return targets.some((t) => set.has(t.id));
  // A wrapper method every provider class defines (`self.llm.inference`, `client.generate`): the
  // name alone cannot pick one, but when at least half of its definitions call the model, so does this call.
  const all = (graph.byName.get(callParts(call).name) ?? []).filter((t) => t.id !== from.id);
  return all.length > 1 && all.length <= MAX_AMBIGUOUS && all.filter((t) => set.has(t.id)).length * 2 >= all.length;
}

const WORD = /[A-Za-z_][\w]*/g;
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
  if (!file) return false;
  const lineText = (line: number) => file.text.slice(file.lineStarts[line - 1], (file.lineStarts[line] ?? file.text.length + 1) - 1);
  const first = lineAt(file, modelAt);
  const head = assigned(lineText(first));
  if (!head) return false;
  const tainted = new Set(head.names);
  const named = (text: string) => [...text.matchAll(WORD)].some((w) => tainted.has(w[0]));
  const last = lineAt(file, to);
  for (let line = first + 1; line < last && file.lineStarts[line - 1]! < fn.end; line++) {
    const text = lineText(line);
    const a = assigned(text);
    if (a && named(a.value)) for (const n of a.names) tainted.add(n);
    const l = LOOP.exec(text);
    if (l && named(l[2] ?? l[4] ?? '')) tainted.add((l[1] ?? l[3])!);
  }
  return named(argumentsAt(file.text, to));
}

/** The argument list of the call at `at`, across lines, to its closing parenthesis (bounded). */
function argumentsAt(text: string, at: number): string {
  const open = text.indexOf('(', at);
  if (open < 0 || open - at > 200) return '';
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 4000); i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1, open + 4000);
}

/** Where in `fn` a model call is made: its own model-call sinks and its calls of model-calling units. */
function modelCallSites(graph: Graph, fn: Fn, set: Set<number>): number[] {
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

/**
 * The `exec` sinks the model's reply is handed to. Callers are found by name over the whole graph,
 * so this runs only where no tool already runs commands.
 */
export function replyRunners(graph: Graph): ReplyRunner[] {
  const ambiguous = graph.ambiguous;
  const models = modelCallers(graph);
  const callers = new Map<number, Array<[Fn, number]>>();
  for (const f of graph.fns) for (const [call, at] of f.calls) for (const t of resolve(graph, f, call)) if (t.id !== f.id) (callers.get(t.id) ?? callers.set(t.id, []).get(t.id)!).push([f, at]);
  const out: ReplyRunner[] = [];
  for (const fn of graph.fns) {
    for (const sink of fn.sinks) {
      if (sink.probe !== `${SINK}exec`) continue;
      const chain = chainFromTaker(graph, fn, sink.at, models, callers);
      if (chain) out.push({ fn, sink, chain });
    }
  }
  graph.ambiguous = ambiguous;
  return out;
}

/** The nearest unit, from `fn` up its callers, where a model reply flows into the step toward the sink, with the steps down from it. */
function chainFromTaker(graph: Graph, fn: Fn, at: number, models: Set<number>, callers: Map<number, Array<[Fn, number]>>): Array<[Fn, number]> | null {
  type Step = { unit: Fn; offset: number; down: Step | null };
  const seen = new Set<number>();
  let level: Step[] = [{ unit: fn, offset: at, down: null }];
  for (let depth = 0; depth <= CALLER_DEPTH && level.length; depth++) {
    const next: Step[] = [];
    for (const step of level) {
      const { unit, offset } = step;
      if (seen.has(unit.id)) continue;
      seen.add(unit.id);
      if (models.has(unit.id) && modelCallSites(graph, unit, models).some((m) => m < offset && replyReaches(graph, unit, m, offset))) {
        const chain: Array<[Fn, number]> = [];
        for (let s: Step | null = step; s; s = s.down) chain.push([s.unit, s.offset]);
        return chain;
      }
      for (const [caller, callAt] of callers.get(unit.id) ?? []) next.push({ unit: caller, offset: callAt, down: step });
    }
    level = next;
  }
  return null;
}
