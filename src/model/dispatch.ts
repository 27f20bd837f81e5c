/**
 * Where the model's tool calls are dispatched, and whether each call is recorded there: the one
 * place every tool call passes through, so a log line there covers them all (C9 coverage).
 */
import type { SourceFile } from '../inventory/index.js';
import { enclosing, lineAt, lineText } from '../inventory/lines.js';
import type { Site } from './gates.js';
import { callParts, resolve, type Fn, type Graph } from './graph.js';
import { WORD } from './replies.js';

/** A place that dispatches the model's tool calls, and the call there that records each (C9 coverage), if any. */
export interface Dispatch {
  site: Site;
  record: Site | null;
}

/**
 * The calls that dispatch the model's tool calls: a call of the name tools store their handler
 * under (`tool.execute(…)`) that no single definition answers, a call of a variable named for the
 * tool it holds (`tool_obj(**args)`, defined nowhere), or a call through a table named for tools or
 * handlers (`TOOLS[name](…)`). Each with the call in the same unit that records an event
 * (`records`), where there is one: every tool call passes through it.
 */
export function dispatchSites(graph: Graph, toolEntries: string[], records: RegExp | null): Dispatch[] {
  const entries = new Set(toolEntries);
  const out: Dispatch[] = [];
  const importsOf = new Map<string, Set<string>>();
  for (const fn of graph.fns) {
    const file = graph.files.get(fn.path);
    // A module's top level dispatches nothing the model asks for: a tool run there is a script's demo (`if __name__ == "__main__":`).
    if (!file || fn.name.startsWith('<')) continue;
    let imported = importsOf.get(fn.path);
    if (!imported) importsOf.set(fn.path, (imported = new Set((graph.facts.get(fn.path)?.imports ?? []).map(([n]) => n))));
    const at = fn.calls.find(([call, offset]) => {
      const { name, recv } = callParts(call);
      if (call === '') return TOOL_TABLE.test(file.text.slice(offset, offset + 80));
      // An imported function (the AI SDK's `tool({…})`, which defines a tool) is no variable holding one.
      if (recv === null) return TOOL_VARIABLE.test(name) && !graph.byName.has(name) && !imported!.has(name);
      return entries.has(name) && TOOL_RECEIVER.test(recv) && (graph.byName.get(name) ?? []).length !== 1;
    })?.[1];
    if (at === undefined) continue;
    const line = lineAt(file, at);
    // The record may be the unit's own call or that of a helper named for showing or recording
    // (`self._display_tool_usage(…)`, which prints); a record written only when a call fails (in an
    // `except` or `catch` block, after `if err != nil`) covers the failures, not every call.
    // It runs with every call only where it sits in the dispatch's own block or one around it (not
    // in a branch beside it), inside the loop that dispatches when there is one (not once before
    // it), and says what it records: a tool or a call, or a name the dispatch line uses.
    const blocks = enclosing(file, at, fn.start);
    const around = new Set(blocks);
    const loop = blocks.find((l) => LOOP_HEADER.test(lineText(file, l)));
    const named = new Set([...lineText(file, line).matchAll(WORD)].map((w) => w[0]).filter((w) => !PLAIN_WORDS.has(w)));
    const recording = (unit: Fn) => !!records && (records.test(unit.name.replace(/^_+/, '')) || RECORDING_HELPER.test(unit.name));
    const rec = records
      ? fn.calls.find(([call, offset]) => {
          const own = enclosing(file, offset, fn.start);
          if ((own[0] !== undefined && !around.has(own[0])) || (loop !== undefined && !own.includes(loop)) || (own[0] !== undefined && opensOnFailure(lineText(file, own[0])))) return false;
          const text = lineText(file, lineAt(file, offset));
          if (!SAYS_CALL.test(text) && ![...text.matchAll(WORD)].some((w) => named.has(w[0]))) return false;
          return records.test(call) || resolve(graph, fn, call).some((c) => c.id !== fn.id && recording(c) && c.calls.some(([inner]) => records.test(inner)));
        })
      : undefined;
    // Each re-verifies as the line it cites.
    const lineSite = (l: number): Site => ({ path: fn.path, line: l, endLine: l, text: lineText(file, l).trim(), check: '@line' });
    out.push({ site: lineSite(line), record: rec ? lineSite(lineAt(file, rec[1])) : null });
  }
  return out;
}
// A registry of tool classes (`TOOL_REGISTRY[name](cfg)`) builds a tool; it does not run one.
const TOOL_TABLE = /^(?:self\.|this\.)?(?!\w*(?:registry|class|type|factor))\w*(?:tool|function|handler|action|command)s?\w*\s*\[/i;
const LOOP_HEADER = /^\s*(?:(?:async\s+)?for\b|while\b)|\.forEach\(|\bfor\s*\(/;
const SAYS_CALL = /tool|call|action|command|function|invok|execut/i;
const PLAIN_WORDS = new Set(['self', 'this', 'await', 'return', 'result', 'results', 'response', 'err', 'error', 'ctx', 'context', 'const', 'let', 'var', 'async', 'new', 'if', 'else', 'None', 'null', 'nil', 'true', 'false', 'in', 'of', 'for', 'res', 'out', 'output', 'asyncio', 'iscoroutinefunction', 'kwargs', 'args']);
/** A variable that holds the tool it calls (`tool(**tool_input)`, `handler(ctx, req)`, `tool_obj(…)`). */
const TOOL_VARIABLE = /^_?(?:tool|handler|action|skill|plugin)(?:_?[A-Za-z]\w*)?$/;
const RECORDING_HELPER = /log|record|display|show|print|trace|audit|track|report/i;
const FAILURE_BLOCK = /^\s*(?:except\b|catch\b|\}\s*catch\b|if\s+err\s*!=\s*nil\b|if\s*\(?\s*(?:err|error)\s*(?:!=|\)|\{))/;
/** Whether a block's opening line runs it when something failed (`except`, `catch`, `if err != nil`, `.catch(`). */
const opensOnFailure = (header: string) => FAILURE_BLOCK.test(header) || /\.catch\(/.test(header);
/** A receiver named for a tool (`tool`, `tool_instance`, `this.handler`): `cmd.Run()` is a process, not a dispatch. */
const TOOL_RECEIVER = /tool|handler|action|skill|plugin|function/i;
