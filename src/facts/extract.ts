import type { NapiConfig, SgNode } from '@ast-grep/napi';
import picomatch from 'picomatch';
import { lineAt, lineStartsOf, linesText } from '../inventory/lines.js';
import type { Language } from '../rubric/schema.js';
import { configHits } from './config.js';
import { importBindings, type ImportBinding } from './imports.js';
import { parseCode } from './parse.js';
import { languageRules, scanFiles, type Scanned } from './scan.js';
import { ALIAS, ASKS, type Plan, type PlanProbe } from './plan.js';
import { linearRegex } from './re2.js';
import { IMPLICITLY_CALLED, IPC_CALLEES, isProse, SYNTAX } from './syntax.js';
import { usesOf } from './usage.js';

/** One file as the extractor sees it: its text, no I/O, so it runs the same in an audit and in a test. */
export interface FileInput {
  path: string;
  language: Language | null;
  text: string;
}

/** A probe match: lines are 1-based and inclusive; `text` is the first line of the matched node, trimmed. */
export interface RawFinding {
  probe: string;
  startLine: number;
  endLine: number;
  text: string;
  /** Character offset where the match starts: the definition it sits in is found from it. */
  at: number;
  /** The name this match defines (a function, class or constant): it counts only if code uses it. */
  defines?: string;
  /** A tool construct of the agent model: the tool's name, and its handler by name or as a body range. */
  tool?: ToolSite;
  /** For a sink alias: the name bound to the sink function. */
  alias?: string;
  /** For an ask: the condition that can skip it (`A` in `if (A && !(await ask()))`), when there is one. */
  guard?: string;
}

export interface ToolSite {
  name: string;
  handler?: string;
  body?: [number, number];
  /** The variable or key the construct is assigned to (`bashTool` in `const bashTool = tool({…})`). */
  binding?: string;
  /** The key or method name the handler is stored under (`execute`, `run`): a dispatcher calls it by that name. */
  entry?: string;
  /** The constant a tool class's name field holds (`static toolName = EXPORT_TOOL_NAME`): its value names the tool. */
  constant?: string;
  /** A tool class that names no tool itself (no name field, or an empty one): it goes by its type's name. */
  unnamed?: boolean;
  /** The function a handler-making call names (`tools.HandleRun(client)`): the handler, where what the call is handed is none. */
  factory?: string;
  /** Named by the function that builds its tool (`AddTool(tools.CreateRunTool(), …)`): the tool that function returns. */
  builder?: boolean;
  /** The function that returns this construct (`func CreateRunTool() mcp.Tool { return mcp.NewTool(…) }`). */
  returnedBy?: string;
  /** The handler is a method of this type, given as an empty value of it (`"kubectl": KubectlTool{}`). */
  instanceOf?: string;
}

/**
 * A definition in the file: a finding inside it, or naming it, counts only when code elsewhere
 * uses the name (or a framework or the runtime calls it: `entry`).
 */
export interface Definition {
  name: string;
  role: 'function' | 'class' | 'binding';
  start: number;
  end: number;
  /** Offset of the name itself. */
  nameAt: number;
  entry: boolean;
  /** A method (called on a receiver: `obj.run()`), not a plain function: a bare call never runs it. */
  method?: boolean;
  /** Decorated only to bind or cache it (`@staticmethod`): no entry, but the runtime's if nothing calls it by name. */
  bound?: boolean;
  /** A method of an object literal (`new ReadableStream({ async start(c) { … } })`): whoever is handed the object calls it, so it runs when the code around it does. */
  callback?: boolean;
}

/** Everything one file contributes, from its bytes alone: cacheable by blob id and plan key. */
export interface FileFacts {
  findings: RawFinding[];
  /** [start, end) character offsets of comments, docstrings, string literals and imports: where a name is not a use. */
  nonCode: number[];
  definitions: Definition[];
  /** Top-level names bound to a literal list/set of strings (`NEEDS_APPROVAL = {"shell", …}`): what a membership test checks. */
  collections?: Array<[string, string[]]>;
  /** Top-level names bound to one string literal (`BashToolName = "bash"`): a tool named by such a constant is named by its value. */
  constants?: Array<[string, string]>;
  /**
   * Names bound by import statements, as [name, module]: a call on an imported module's object runs
   * outside the repository unless the module is the repository's own. A name imported under another
   * (`from client import send as client_send`, `import { send as clientSend }`, `use x::send as s`)
   * carries the name it has in its module third: a call of the alias runs that definition.
   */
  imports?: ImportBinding[];
  /** Every call, as [callee name (its last segment; '' when computed at run time), offset]: the call graph's edges. */
  calls?: Array<[string, number]>;
  /** [start, end) offsets of function literals (lambdas, arrow functions, closures): a call in one runs when it is called, not in line. */
  inline?: number[];
  /** True when the parser could not read part of the file (error nodes): the Limitations count them. */
  partial?: boolean;
  /** The names its code uses (see `usesOf`): which definitions are live is decided over every file. */
  uses?: Uses;
}

/** Names a file's code uses, space-separated: at its top level, and by each definition (innermost) as [its name, names]. */
export interface Uses {
  top: string;
  inner: Array<[string, string]>;
}

/** Matches kept per probe and file: enough for evidence and `within` scopes, bounded in memory. */
export const MAX_MATCHES_PER_FILE = 1_000;

const globCache = new Map<string, (p: string) => boolean>();
function globMatches(globs: string[], path: string): boolean {
  return globs.some((g) => {
    let m = globCache.get(g);
    if (!m) globCache.set(g, (m = picomatch(g, { dot: true, basename: !g.includes('/') })));
    return m(path);
  });
}

/** Whether a probe reads a file: a code file in one of its languages (TS probes read TSX and JS), or a file its globs name. */
export function probeReads(probe: Pick<PlanProbe, 'languages' | 'files'>, file: Pick<FileInput, 'path' | 'language'>): boolean {
  const l = file.language;
  if (l && (probe.languages.includes(l) || ((l === 'tsx' || l === 'javascript') && probe.languages.includes('typescript')))) return true;
  return globMatches(probe.files, file.path);
}

const firstLine = (raw: string) => (raw.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 160);

/** Comments in config-like files (YAML, TOML, shell, Dockerfile, INI, Seatbelt): blanked before text patterns run. */
const CONFIG_COMMENT = /^[ \t]*(#|;|\/\/).*$/gm;
const blank = (s: string) => s.replace(/[^\n]/g, ' ');

function textFindings(probes: PlanProbe[], text: string, lineStarts: number[]): RawFinding[] {
  const out: RawFinding[] = [];
  let lower: string | null = null;
  // A probe confined to files where another text probe matched comes after it in the plan (see
  // planOf), and runs only where it did.
  const ids = new Set(probes.map((p) => p.id));
  const matched = new Set<string>();
  for (const p of probes) {
    if (p.inFileOf && ids.has(p.inFileOf) && !matched.has(p.inFileOf)) continue;
    const lits = p.literals;
    if (lits) {
      const hay = p.ignoreCase ? (lower ??= text.toLowerCase()) : text;
      if (!lits.some((l) => hay.includes(l))) continue;
    }
    for (const m of linearRegex(p.pattern!, p.ignoreCase).matches(text, MAX_MATCHES_PER_FILE)) {
      out.push({ probe: p.id, startLine: lineAt({ lineStarts }, m.start), endLine: lineAt({ lineStarts }, m.end - 1), text: firstLine(m.text), at: m.start });
      matched.add(p.id);
    }
  }
  return out;
}

/** The rules that can match a code file: those whose required words (one of them) it contains. */
function candidatesOf(file: FileInput, reading: PlanProbe[]): PlanProbe[] {
  const language = file.language!;
  let lower: string | null = null;
  return reading.filter((p) => {
    if (!p.rules[language]) return false;
    const need = p.words[language];
    if (!need) return true;
    const hay = p.wordsCi?.[language] ? (lower ??= file.text.toLowerCase()) : file.text;
    return need.some((w) => hay.includes(w));
  });
}

/** Hits of a language's candidate rules on one tree, one search per rule: for a file the batch scan did not report. */
function treeHits(root: SgNode, language: Language, probes: PlanProbe[]): Array<[PlanProbe, SgNode]> {
  const hits: Array<[PlanProbe, SgNode]> = [];
  for (const p of probes) for (const n of root.findAll({ rule: p.rules[language] } as unknown as NapiConfig)) hits.push([p, n]);
  return hits;
}

/** Findings from rule hits, in probe order and then document order. */
function treeFindings(hits: Array<[PlanProbe, SgNode]>, language: Language): RawFinding[] {
  const out: RawFinding[] = [];
  const perProbe = new Map<string, number>();
  const stringKinds = new Set<string>(SYNTAX[language].stringContent);
  for (const [p, n] of hits) {
    const count = perProbe.get(p.id) ?? 0;
    if (count >= MAX_MATCHES_PER_FILE) continue;
    const text = n.text();
    // A sentence in a string is prose, whatever context it sits in.
    if (stringKinds.has(String(n.kind())) && isProse(text)) continue;
    perProbe.set(p.id, count + 1);
    const r = n.range();
    const tool = p.tool ? toolSite(n, language, p.tool) : undefined;
    if (p.tool && !tool) continue;
    const alias = p.id.startsWith(ALIAS) ? bindingOf(n) : undefined;
    if (p.id.startsWith(ALIAS) && !alias) continue;
    const guard = p.id === ASKS ? guardOf(n) : undefined;
    out.push({ probe: p.id, startLine: r.start.line + 1, endLine: r.end.line + 1, text: firstLine(text), at: r.start.index, ...(tool ? { tool } : {}), ...(alias ? { alias } : {}), ...(guard ? { guard } : {}) });
  }
  return out;
}

/** The name a definition's text declares: the first identifier after its keywords (cheaper than asking the tree). */
const DEF_NAME = /^(?:(?:export|default|declare|abstract|public|private|protected|static|readonly|async|override|pub(?:\([^)]*\))?|unsafe|extern\s+"[^"]*"|const|let|var|function\*?|class|interface|def|fn|struct|enum|trait|type|func|get|set)\s+|\*\s*)*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/;

const METHOD_KINDS = new Set(['method_definition', 'public_field_definition', 'method_declaration']);

// A declarator whose value is a function: `name = async (…) =>`, `name = function`, `name: T = x =>`.
const FUNCTION_VALUE = /^[\w$]+\s*(?::[^=]{0,200})?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]{0,100})?=>|[\w$]+\s*=>)/;
// A constant at the top level: its line starts at column 0 (after `export`), as formatters leave it.
const TOP_LEVEL = /^(?:export\s+)?(?:(?:const\s+)?enum\s|const|let|var|static|pub(?:\([^)]*\))?\s+(?:const|static)|const|static|[A-Za-z_][\w]*\s*(?::[^=\n]*)?=|\t?[A-Z_][\w]*)/;

// A Go spec of a top-level `const (…)` or `var (…)` block: one tab in, as gofmt leaves it (a function's own block is two).
const GO_BLOCK_SPEC = /^\t(?!(?:var|const)\b)[A-Za-z_]\w*/;

function definitionsOf(nodes: NodesByKind, language: Language, text: string, lineStarts: number[], importsOf: () => ImportBinding[]): Definition[] {
  const kinds = SYNTAX[language].definitions;
  const out: Definition[] = [];
  const foreignClasses = new Map<number, boolean>();
  for (const [kind, n] of nodes.of(Object.keys(kinds))) {
    const r = n.range();
    const head = text.slice(r.start.index, Math.min(r.end.index, r.start.index + 300));
    let role = kinds[kind]!;
    // (A function called where it is written, `const p = (async () => { … })()`, runs now: its value
    // is what the call returns, and its body is the enclosing function's.)
    if (role === 'declarator') role = FUNCTION_VALUE.test(head) && !CALL_KINDS.has(String((n.field('value' as never) as SgNode | null)?.kind() ?? '')) ? 'function' : 'binding';
    if (role === 'binding') {
      const line = text.slice(lineStarts[r.start.line]!, Math.min(text.length, lineStarts[r.start.line]! + 200));
      if (!TOP_LEVEL.test(line) && !(language === 'go' && GO_BLOCK_SPEC.test(line))) continue;
    }
    const m = kind === 'impl_item' ? implType(n) : defName(head, r.start.index);
    if (!m) continue;
    const name = m.name;
    const nameAt = m.at;
    // A Python definition's decorators, read once: they decide its binding and who calls it.
    const decorators = language === 'python' ? pythonDecorators(textAbove(text, r.start.index, 2000)) : [];
    // (A Python `@staticmethod` takes no self but is called on its class all the same.)
    const method =
      role === 'function' &&
      (METHOD_KINDS.has(kind) ||
        /^(?:async\s+)?(?:def|fn|pub(?:\([^)]*\))?\s+(?:async\s+)?fn)\s+\w+\s*(?:<[^>]*>)?\(\s*(?:&\s*(?:mut\s+)?|mut\s+)?(?:self|cls)\b/.test(head) ||
        decorators.some((d) => /^@(?:staticmethod|classmethod)\b/.test(d)));
    const entry =
      IMPLICITLY_CALLED.has(name) ||
      (language === 'python' ? decorators.some((d) => !PLAIN_DECORATOR.test(d)) || (method && HANDLER_METHOD.test(name)) : decorated(text, r.start.index, language));
    const bound = !entry && decorators.length > 0;
    const callback = kind === 'method_definition' && (n.parent()?.kind() === 'object' || implementsForeign(n, text, foreignClasses, importsOf));
    out.push({ name, role, start: r.start.index, end: r.end.index, nameAt, entry, ...(method ? { method } : {}), ...(bound ? { bound } : {}), ...(callback ? { callback } : {}) });
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

// A class's head from `implements` to its body (`implements vscode.WebviewViewProvider, Disposable {`).
const IMPLEMENTS = /\bimplements\s+([^{]{1,300})\{/;

/**
 * Whether a method belongs to a class that implements an interface of a package
 * (`class ChatProvider implements vscode.WebviewViewProvider`, or one imported from a package by
 * name): the package's code calls it on the instance it is handed, so, like an object literal's
 * method, it is live where the class is.
 */
function implementsForeign(method: SgNode, text: string, classes: Map<number, boolean>, importsOf: () => ImportBinding[]): boolean {
  const cls = method.parent()?.kind() === 'class_body' ? method.parent()!.parent() : null;
  if (!cls || !/class_declaration$/.test(String(cls.kind()))) return false;
  // (Asked once per class: each of its methods asks the same.)
  const r = cls.range();
  let known = classes.get(r.start.index);
  if (known === undefined) classes.set(r.start.index, (known = classForeign(text, r.start.index, r.end.index, importsOf)));
  return known;
}

function classForeign(text: string, start: number, end: number, importsOf: () => ImportBinding[]): boolean {
  const list = IMPLEMENTS.exec(text.slice(start, Math.min(end, start + 400)))?.[1];
  if (!list) return false;
  return list.split(',').some((i) => {
    const name = i.replace(/<.*$/s, '').trim();
    if (/^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$.]*$/.test(name)) return true;
    // (Else the name an import binds, from a package: not a relative or aliased path of the project's own.)
    return importsOf().some(([local, module]) => local === name && !/^(?:\.|@\/|~\/)/.test(module));
  });
}

/** A definition's name and its offset in the file, from the head of its text (which starts at `start`). */
function defName(head: string, start: number): { name: string; at: number } | null {
  const m = DEF_NAME.exec(head);
  return m ? { name: m[1]!, at: start + m.index + m[0].length - m[1]!.length } : null;
}

/** The type a Rust `impl` block belongs to (`impl ExecuteCommand`, `impl<T> Tool for Shell<T>` → `Shell`), and where its name is. */
function implType(n: SgNode): { name: string; at: number } | null {
  const type = n.field('type' as never) as SgNode | null;
  if (!type) return null;
  const bare = type.text().replace(/<[\s\S]*$/, '');
  const name = /([A-Za-z_]\w*)\s*$/.exec(bare)?.[1];
  return name ? { name, at: type.range().start.index + bare.lastIndexOf(name) } : null;
}

// Python methods a framework calls by the shape of their name, never by a call in the code: event
// handlers (`on_button_pressed`, `on_message`), key-binding actions and attribute watchers
// (Textual's `action_cancel`, `watch_value`) and a widget's `compose`.
const HANDLER_METHOD = /^(?:on|action|watch)_\w+$|^compose$/;

// Python decorators that change how a function is bound or cached, not who calls it: a
// `@staticmethod` is still called by its name, so it is no entry point.
const PLAIN_DECORATOR = /^@(?:(?:functools\.)?(?:staticmethod|classmethod|property|cached_property|lru_cache|cache|wraps|total_ordering|singledispatch(?:method)?)|(?:abc\.)?abstract\w*|(?:typing(?:_extensions)?\.)?(?:overload|override|final)|[\w]+\.(?:setter|getter|deleter))(?:\(.*\))?$/;

/** The text just above a definition, where its decorators or attributes are, trailing space trimmed. */
const textAbove = (text: string, start: number, span = 400) => text.slice(Math.max(0, start - span), start).trimEnd();

/** The decorator lines directly above a Python definition (the text before it, trimmed), nearest last. */
function pythonDecorators(before: string): string[] {
  const out: string[] = [];
  // A decorator's arguments may run over several lines (`@tool(\n  description="…",\n)`): the
  // lines below its `@` line are gathered, from the bottom up, until the brackets balance.
  let pending: string[] = [];
  let depth = 0;
  for (const line of before.split('\n').reverse()) {
    const t = line.trim();
    depth += bracketBalance(t);
    pending.unshift(t);
    if (depth > 0) break; // more openers than the lines below close: not a decorator's tail
    if (depth < 0) continue; // inside a decorator's arguments
    if (!t.startsWith('@')) break;
    out.push(pending.join(' '));
    pending = [];
  }
  return out.reverse();
}

/** Openers minus closers of a line's brackets, strings and comments aside (roughly: quotes pair on one line). */
function bracketBalance(line: string): number {
  let n = 0;
  for (const c of line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '').replace(/#.*$/, '')) {
    if (c === '(' || c === '[' || c === '{') n++;
    else if (c === ')' || c === ']' || c === '}') n--;
  }
  return n;
}

/**
 * A decorator (`@tool` in TypeScript) or attribute (`#[tauri::command]`) right above a definition,
 * or a default export: a framework calls it. (Python's decorators are read by the caller.)
 */
function decorated(text: string, start: number, language: Exclude<Language, 'python'>): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (language !== 'rust' && language !== 'go' && /\bexport\s+default\s*(async\s+)?$/.test(text.slice(lineStart, start))) return true;
  const before = textAbove(text, start);
  const last = before.slice(before.lastIndexOf('\n') + 1).trim();
  // (A lint, build or inlining attribute, `#[allow(unused)]`, `#[inline]`, marks no function a framework calls.)
  if (language === 'rust') return last.startsWith('#[') && !/^#\[(?:allow|warn|deny|expect|inline|must_use|cfg|doc|deprecated|track_caller|cold)\b/.test(last);
  return last.startsWith('@');
}

const FUNCTION_KINDS = new Set(['arrow_function', 'function_expression', 'function', 'lambda', 'func_literal', 'closure_expression', 'function_definition', 'method_definition', 'function_item']);
const REFERENCE_KINDS = new Set(['identifier', 'member_expression', 'attribute', 'selector_expression', 'field_expression', 'scoped_identifier', 'property_identifier']);
const STRING_KINDS = new Set(['string', 'template_string', 'interpreted_string_literal', 'raw_string_literal', 'string_literal']);
const CALL_KINDS = new Set(['call_expression', 'call', 'new_expression']);

const lastName = (text: string) => /([A-Za-z_$][\w$]*)\s*$/.exec(text.replace(/<[^<>]*>$/, ''))?.[1] ?? '';
const unquote = (text: string) => text.replace(/^[a-zA-Z]*["'`]+|["'`]+$/g, '');

// A class member naming its tool: `name = "shell"`, `name: str = "shell"`, `static toolName =
// "update-many"`, or the same given by a constant (`static toolName = EXPORT_TOOL_NAME`).
export const NAME_FIELD = /^(?:(?:static|readonly|public|protected|private|override|declare)\s+)*(?:name|Name|NAME|toolName|tool_name|TOOL_NAME)\s*(?::[^=\n]*)?=\s*(?:["'`]([^"'`]*)["'`]|([A-Z][A-Z0-9_]*(?:\.[A-Za-z_][\w]*)*)\s*;?\s*$)/;

// The same given by a read-only property, getter or name method that returns it (`@property def
// name(self) -> str: return "write_file"`, `get name() { return 'shell'; }`, `def get_name(self)`).
const NAME_GETTER = /^(?:(?:@property\s+)?def\s+(?:name|tool_name|get_name|get_tool_name)|(?:(?:public|protected|override|static)\s+)*(?:get\s+(?:name|toolName|tool_name)|getName|getToolName))\s*\(\s*(?:self)?\s*\)\s*(?:->\s*[^:\n]+)?(?::\s*[^{\n]+)?[:{]\s*(?:(?:"""|''')[\s\S]*?(?:"""|''')\s*)?return\s+(?:["'`]([^"'`$]*)["'`]|([A-Z][A-Z0-9_]*(?:\.[A-Za-z_][\w]*)*))\s*;?\s*\}?$/;

/** The name a class member gives its tool, as a literal ([1]) or a constant ([2]); a getter that only returns it is short. */
const memberName = (text: string) => NAME_FIELD.exec(text) ?? (text.length < 400 ? NAME_GETTER.exec(text) : null);

const RECORD_KINDS = new Set(['literal_value', 'object', 'dictionary', 'composite_literal', 'tuple']);
// A key that holds a tool's parameters (`parameters`, `input_schema`, `actionParams`, `properties`, `args`).
const PARAMETER_KEY = /param|schema|propert|^["'`]?(args|arguments|inputs?)["'`]?$/i;
// A key only a tool's own spec has beside its name: its description or its parameters.
const SPEC_KEY = /^["'`]?(description|inputSchema|input_schema|parameters)["'`]?$/;
// An entry that holds the code to run: named for it, or a field whose name ends so (BuiltinFunc, on_call_handler).
const HANDLER_KEY = /^["'`]?(execute|handler|run|func|fn|call|invoke|callback|cb|implementation|Run|Handler|Fn|Func|[A-Za-z]\w*(Func|Handler|_func|_handler))["'`]?$/;

/** A handler given as a value: a function written in place (its body), or a reference to one (its name). */
function handlerOf(value: SgNode | null | undefined): Pick<ToolSite, 'handler' | 'body' | 'instanceOf'> {
  if (!value) return {};
  const kind = String(value.kind());
  if (FUNCTION_KINDS.has(kind)) return { body: [value.range().start.index, value.range().end.index] };
  if (REFERENCE_KINDS.has(kind)) return { handler: lastName(value.text()) };
  // A handler wrapped in an adapter call (`tools.NewHandler(h.RunShell)`), or in adapters given
  // other settings beside it (`withToolAuth(['tool:git:write'], createToolHandler(gitAddLogic))`):
  // the one function, reference or further adapter it is given.
  if (kind === 'unary_expression' && value.namedChildren()[0]?.kind() === 'composite_literal') return handlerOf(value.namedChildren()[0]);
  if (kind === 'call_expression' || kind === 'call') {
    const args = (value.field('arguments' as never) as SgNode | null)?.namedChildren() ?? [];
    const fns = args.filter((a) => FUNCTION_KINDS.has(String(a.kind())) || REFERENCE_KINDS.has(String(a.kind())) || a.kind() === kind);
    if (fns.length === 1 && (args.length === 1 || fns[0]!.kind() === kind)) return handlerOf(fns[0]);
  }
  // A record literal ({description, schema, runShell} in Go): its handler-named entry, else its last function or reference.
  if (RECORD_KINDS.has(kind)) {
    const pairs = pairsOf(value);
    const keyed = pairs.find((p) => HANDLER_KEY.test(p.key));
    if (keyed) return handlerOf(keyed.value);
    // The handler one record down: {ToolDef: types.ToolDef{Parameters: …, BuiltinFunc: SysExec}}.
    for (const p of pairs) {
      if (!p.value || !RECORD_KINDS.has(String(p.value.kind()))) continue;
      const inner = pairsOf(p.value).find((q) => HANDLER_KEY.test(q.key));
      if (inner) return handlerOf(inner.value);
    }
    const items = value.namedChildren().map((c) => (c.kind() === 'literal_element' ? c.namedChildren()[0] : c)).filter((c): c is SgNode => !!c);
    const last = [...items].reverse().find((c) => FUNCTION_KINDS.has(String(c.kind())) || REFERENCE_KINDS.has(String(c.kind())));
    if (last) return handlerOf(last);
    // A value of a tool type of the repository's, with nothing in it (Go's `"kubectl": KubectlTool{}`):
    // the type's method that takes the model's input is the handler (see `typeHandler` in the model).
    const type = kind === 'composite_literal' && !pairs.length ? (value.field('type' as never) as SgNode | null) : null;
    return type && /^(type_identifier|qualified_type)$/.test(String(type.kind())) ? { instanceOf: lastName(type.text()) } : {};
  }
  return {};
}

/**
 * The name a table entry keyed by a tool definition's own name (`[fetchUrlTool.name]: fetchUrl`)
 * gives its tool: the definition's `name` where it is written in the same file, else the handler's
 * name (the definition is imported; the handler is what runs either way).
 */
function computedName(key: string, value: SgNode | null, node: SgNode): string | undefined {
  const m = /^\[\s*([A-Za-z_$][\w$]*)\.name\s*\]$/.exec(key);
  if (!m) return undefined;
  const defined = node.getRoot().root().find({ rule: { kind: 'variable_declarator', all: [{ has: { field: 'name', regex: `^${m[1]!.replace(/\$/g, '\\$')}$` } }, { has: { field: 'value', kind: 'object' } }] } } as unknown as NapiConfig);
  const literal = defined ? pairsOf(defined.field('value' as never) as SgNode).find((p) => /^["'`]?name["'`]?$/.test(p.key) && isString(p.value)) : undefined;
  if (literal?.value) return unquote(literal.value.text());
  return value && REFERENCE_KINDS.has(String(value.kind())) ? lastName(value.text()) : m[1];
}

/** One entry of a literal: an object/dict pair, a Python keyword argument, a Go keyed element, an object method. */
function entryOf(c: SgNode): Array<{ key: string; value: SgNode | null }> {
  const kind = String(c.kind());
  const f = (n: SgNode, name: string) => n.field(name as never) as SgNode | null;
  if (kind === 'pair') return [{ key: f(c, 'key')?.text() ?? '', value: f(c, 'value') }];
  if (kind === 'keyword_argument') return [{ key: f(c, 'name')?.text() ?? '', value: f(c, 'value') }];
  if (kind === 'method_definition') return [{ key: f(c, 'name')?.text() ?? '', value: c }];
  if (kind === 'keyed_element') {
    const [k, v] = c.namedChildren();
    return [{ key: k?.text() ?? '', value: v?.namedChildren()[0] ?? v ?? null }];
  }
  return [];
}

/** Entries of an object/dict literal, keyword arguments of a call (Python), or fields of a composite literal (Go). */
function pairsOf(node: SgNode): Array<{ key: string; value: SgNode | null }> {
  const list = node.kind() === 'argument_list' || node.kind() === 'literal_value' ? node : (node.field('arguments' as never) as SgNode | null) ?? node;
  return list.namedChildren().flatMap((c) => {
    const kind = String(c.kind());
    if (kind === 'object' || kind === 'dictionary' || kind === 'literal_value') return pairsOf(c);
    return entryOf(c);
  });
}

/** The name a construct is bound to: the variable declared with it, the key it is the value of, or the function it is returned from. */
function bindingOf(node: SgNode): string | undefined {
  // A name imported under another one (`import { spawn as cpSpawn }`) is bound to that one.
  if (node.kind() === 'import_specifier') return (node.field('alias' as never) as SgNode | null)?.text();
  let n: SgNode | null = node;
  for (let i = 0; i < 4 && n; i++) {
    const parent: SgNode | null = n.parent();
    if (!parent) return undefined;
    const kind = String(parent.kind());
    if (kind === 'variable_declarator' || kind === 'assignment' || kind === 'short_var_declaration' || kind === 'var_spec' || kind === 'let_declaration' || kind === 'assignment_expression') {
      const target = (parent.field('name' as never) ?? parent.field('left' as never) ?? parent.field('pattern' as never)) as SgNode | null;
      return target ? lastName(target.text().split(',')[0]!) : undefined;
    }
    if (kind === 'pair' || kind === 'keyword_argument') return unquote(((parent.field('key' as never) ?? parent.field('name' as never)) as SgNode | null)?.text() ?? '') || undefined;
    n = parent;
  }
  return undefined;
}

const BOOLEAN_OPS = new Set(['binary_expression', 'boolean_operator']);
const CONDITIONALS = new Set(['if_statement', 'if_expression', 'elif_clause', 'conditional_expression', 'ternary_expression']);
const SCOPES = new Set([...FUNCTION_KINDS, 'class_declaration', 'class_definition', 'program', 'module', 'source_file']);

/**
 * The condition under which an ask may be skipped: the left operand when it is the right side of
 * `&&`/`||`/`and`/`or`, or the condition of the `if` whose branch holds it. Undefined when the ask
 * always runs before what follows it.
 */
function guardOf(node: SgNode): string | undefined {
  let child = node;
  for (let parent = node.parent(), i = 0; parent && i < 8 && !SCOPES.has(String(parent.kind())); child = parent, parent = parent.parent(), i++) {
    const kind = String(parent.kind());
    if (BOOLEAN_OPS.has(kind)) {
      const left = parent.field('left' as never) as SgNode | null;
      const op = (parent.field('operator' as never) as SgNode | null)?.text() ?? '';
      if (left && /^(&&|\|\||and|or)$/.test(op) && left.range().start.index !== child.range().start.index) return left.text().slice(0, 200);
    }
    if (CONDITIONALS.has(kind)) {
      const condition = parent.field('condition' as never) as SgNode | null;
      // A script's entry check (`if __name__ == "__main__":`) runs everything under it: no switch.
      if (condition && /^\(?\s*__name__\s*==\s*["']__main__["']\s*\)?$/.test(condition.text())) continue;
      if (condition && condition.range().start.index !== child.range().start.index && !(condition.range().start.index <= node.range().start.index && node.range().end.index <= condition.range().end.index)) return condition.text().slice(0, 200);
    }
  }
  return undefined;
}

/**
 * The name of a tool whose definition is built by a call (`Tool: mcp.NewTool("run_cmd", …)`,
 * `Definition: newTool(toolOptions{name: "open"})`): the call's first argument when it is a string,
 * else the name entry (by the construct's own name key) of a literal the call is given.
 */
function constructedName(pairs: Array<{ key: string; value: SgNode | null }>, nameKey: RegExp): string | undefined {
  for (const p of pairs) {
    const kind = String(p.value?.kind() ?? '');
    if (kind !== 'call_expression' && kind !== 'call') continue;
    const args = (p.value!.field('arguments' as never) as SgNode | null)?.namedChildren() ?? [];
    const first = args[0];
    if (first && STRING_KINDS.has(String(first.kind()))) return unquote(first.text());
    for (const a of args) {
      if (!RECORD_KINDS.has(String(a.kind()))) continue;
      const named = pairsOf(a).find((q) => nameKey.test(q.key));
      if (named?.value && STRING_KINDS.has(String(named.value.kind()))) return unquote(named.value.text());
    }
  }
  return undefined;
}

const isString = (n: SgNode | null | undefined): boolean => !!n && STRING_KINDS.has(String(n.kind()));

/** A keyword argument's value (Python): `name="…"`, `function=run`. */
function keywordValue(args: SgNode[], key: RegExp): SgNode | null | undefined {
  const kw = args.find((a) => a.kind() === 'keyword_argument' && key.test((a.field('name' as never) as SgNode | null)?.text() ?? ''));
  return kw?.field('value' as never) as SgNode | null | undefined;
}

/** A `name="…"` keyword among a call's arguments (Python): the name a registration gives its function. */
function nameKeyword(args: SgNode[]): string | undefined {
  const value = keywordValue(args, /^name$/);
  return isString(value) ? unquote(value!.text()) : undefined;
}

// (`execute=`, `handler=`: a tool type of the harness's own handed its function by keyword.)
const FUNCTION_KEYWORD = /^(function|func|fn|execute|handler|callback|coroutine)$/;

/** The settings object a function handed first is named by (LangChain JS's `tool(async (input) => …, { name: 'shell', … })`). */
function settingsNamed(args: SgNode[]): SgNode | undefined {
  if (!args[0] || !FUNCTION_KINDS.has(String(args[0].kind()))) return undefined;
  const settings = args.slice(1).find((a) => a.kind() === 'object');
  return settings ? pairsOf(settings).find((p) => /^["'`]?name["'`]?$/.test(p.key))?.value ?? undefined : undefined;
}

/**
 * The name a registration call's arguments give a tool. Close to `constructedName` (a builder call
 * given as a value), which reads neither `new` builders nor a literal behind `&`.
 */
function registeredName(args: SgNode[]): string {
  const first = args[0];
  if (!first) return '';
  if (isString(first)) return unquote(first.text());
  const setting = settingsNamed(args);
  // (A constant names it, `name: TOOL_NAMES.SHELL`; a name computed at run time, a wrapper's `name: sanitized`, names none.)
  if (setting) return isString(setting) ? unquote(setting.text()) : /(^|\.)[A-Z][A-Z0-9_]*$/.test(setting.text()) ? setting.text().replace(/\s+/g, '') : '';
  const keyword = nameKeyword(args);
  if (keyword) return keyword;
  // A tool object built with its function by keyword (`Tool(function=run, name=Names.SHELL)`) is
  // named by its name keyword's constant, else by its function.
  const fn = keywordValue(args, FUNCTION_KEYWORD);
  if (fn) {
    const named = keywordValue(args, /^name$/);
    return lastName((named && REFERENCE_KINDS.has(String(named.kind())) ? named : fn).text());
  }
  // A tool built in place (`AddTool(NewTool("run", …), handler)`) is named by its builder's first argument.
  const built = CALL_KINDS.has(String(first.kind())) ? (first.field('arguments' as never) as SgNode | null)?.namedChildren()[0] : undefined;
  if (isString(built)) return unquote(built!.text());
  // A tool built by a function of the repository's (`AddTool(tools.CreateRunTool(), …)`) goes by that function's name until the model finds what it returns.
  if (CALL_KINDS.has(String(first.kind())) && !built) return lastName((first.field('function' as never) as SgNode | null)?.text() ?? '');
  // A Go tool given as a struct (`AddTool(server, &mcp.Tool{Name: "run"}, handler)`) is named by its
  // Name field: a string, or a constant the model reads (`Name: insertTool`).
  const struct = args.map((a) => (a.kind() === 'unary_expression' ? a.namedChildren()[0] : a)).find((a) => a?.kind() === 'composite_literal');
  const named = struct ? pairsOf((struct.field('body' as never) as SgNode | null) ?? struct).find((p) => p.key === 'Name' && (isString(p.value) || p.value?.kind() === 'identifier')) : undefined;
  if (named) return isString(named.value) ? unquote(named.value!.text()) : named.value!.text();
  // A variable the registration is handed by its caller or its loop (`func add(name string) {
  // NewTool(name, …) }`, `for _, tool := range all { RegisterTool(tool) }`) names no tool: the
  // registration is a helper, and the tools are wherever its callers build them.
  if (first.kind() === 'identifier' && boundAround(first, first.text())) return '';
  // A constant's entry (`TOOLS.SCRAPE`) keeps its whole path: a table of names is read by it (see `objectStrings`).
  if (first.kind() === 'member_expression') return first.text().replace(/\s+/g, '');
  return lastName(first.text());
}

// Functions whose parameters bind a name: Go's, and TypeScript's (an arrow function's lone parameter too).
const SCOPE_KINDS = new Set(['function_declaration', 'method_declaration', 'func_literal', 'arrow_function', 'function_expression', 'function', 'method_definition']);

/** Whether `name` is a parameter of the function around `node`, or a variable of a loop around it within that function. */
function boundAround(node: SgNode, name: string): boolean {
  const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}([^\\w$]|$)`);
  for (let n = node.parent(); n; n = n.parent()) {
    const kind = String(n.kind());
    if (kind === 'for_statement') {
      const head = n.namedChildren().find((c) => c.kind() === 'range_clause' || c.kind() === 'for_clause');
      const left = head?.kind() === 'range_clause' ? (head.field('left' as never) as SgNode | null)?.text() : undefined;
      if (left && word.test(left)) return true;
    }
    // `for (const name of names)`
    if (kind === 'for_in_statement' && word.test((n.field('left' as never) as SgNode | null)?.text() ?? '')) return true;
    if (SCOPE_KINDS.has(kind)) return word.test(((n.field('parameters' as never) ?? n.field('parameter' as never)) as SgNode | null)?.text() ?? '');
  }
  return false;
}

/**
 * The name a Rust item's tool attribute gives it (`#[tool(name = "calc", description = …)]`, which
 * overrides the function's own name; `#[mcp_tool(name = "edit_file", …)]` on a struct), read from
 * the attributes just before the item.
 */
function attributeName(item: SgNode): string | undefined {
  for (let n = item.prev(); n && /^(attribute_item|line_comment|block_comment)$/.test(String(n.kind())); n = n.prev()) {
    // `name = "…"` as an argument of the attribute, never inside another argument's string.
    const m = /^#\[(?:\w+::)*(?:mcp_)?tool\s*\(\s*(?:(?:[^"]|"(?:[^"\\]|\\.)*")*?,\s*)?name\s*=\s*"([^"]{1,80})"/.exec(n.text().slice(0, 2000));
    if (m) return m[1];
  }
  return undefined;
}

/** The name a tool attribute on the struct an impl block is for gives the tool (the struct declared before it, in the same file). */
function structAttributeName(impl: SgNode, type: string): string | undefined {
  for (let n = impl.prev(); n; n = n.prev()) if (n.kind() === 'struct_item' && (n.field('name' as never) as SgNode | null)?.text() === type) return attributeName(n);
  return undefined;
}

/** Reads a tool's name and handler from a matched construct, as model.yaml says where they are. */
function toolSite(node: SgNode, language: Language, spec: NonNullable<PlanProbe['tool']>): ToolSite | undefined {
  const field = (n: SgNode | null | undefined, f: string) => (n ? (n.field(f as never) as SgNode | null) : null);
  let name = '';
  let handler: Pick<ToolSite, 'handler' | 'body' | 'instanceOf'> = {};
  let entry: string | undefined;
  let constant: string | undefined;
  let unnamed = false;
  let factory: string | undefined;
  let builder = false;
  const range = (n: SgNode | null | undefined): Pick<ToolSite, 'body'> => (n ? { body: [n.range().start.index, n.range().end.index] } : {});
  const read = (ex: typeof spec.name, role: 'name' | 'handler') => {
    if (ex === 'def') {
      const def = field(node, 'definition') ?? node;
      if (role === 'name') name = (language === 'rust' ? attributeName(def) : undefined) ?? field(def, 'name')?.text() ?? '';
      else handler = range(def);
    } else if (ex === 'args') {
      const args = (field(node, 'arguments') ?? node).namedChildren().filter((c) => !String(c.kind()).includes('comment'));
      if (role === 'name') {
        name = registeredName(args);
        // (Named by the function that builds its tool: the model finds the tool that function returns.)
        builder = CALL_KINDS.has(String(args[0]?.kind() ?? '')) && name === lastName(field(args[0], 'function')?.text() ?? '');
      } else {
        const fn = [...args].reverse().find((a) => FUNCTION_KINDS.has(String(a.kind())) || REFERENCE_KINDS.has(String(a.kind())));
        // The first argument names the tool; it is the handler too only when it is all there is
        // (`register_for_llm(…)(open_url)`: the function is the tool), when a `name=` keyword
        // names the tool instead (`self.tool(find, name="find")`), or when settings by keyword
        // are all that follow it (`mcp.add_tool(execute_sql, description=…)`).
        const settingsOnly = args.slice(1).every((a) => a.kind() === 'keyword_argument');
        const byKeyword = keywordValue(args, FUNCTION_KEYWORD);
        // A handler wrapped as it is registered (`withPanicRecovery("publish", func(ctx, req, args)
        // {…})`, `withErrorHandling(async (args) => …)`): the function handed to the wrapper runs.
        const last = args[args.length - 1];
        const wrapped = args.length > 1 && last && /^call(_expression)?$/.test(String(last.kind())) ? (field(last, 'arguments')?.namedChildren() ?? []).filter((a) => FUNCTION_KINDS.has(String(a.kind()))).pop() : undefined;
        // (A function handed by keyword is stored under it, `AgentTool(execute=run_bash)`: a dispatcher calls `tool.execute(…)`.)
        if (byKeyword) entry = field(byKeyword.parent(), 'name')?.text();
        handler = byKeyword ? handlerOf(byKeyword) : wrapped ? handlerOf(wrapped) : fn && (fn !== args[0] || args.length === 1 || nameKeyword(args) !== undefined || settingsOnly || settingsNamed(args)) ? handlerOf(fn) : {};
        const obj = args.find((a) => a.kind() === 'object' || a.kind() === 'dictionary' || a.kind() === 'composite_literal');
        if (!handler.body && !handler.handler && obj) {
          const h = pairsOf(obj).find((p) => /^["'`]?(execute|handler|run|func|fn|call|invoke|callback|cb)["'`]?$/.test(p.key));
          handler = handlerOf(h?.value);
        }
        if (!handler.body && !handler.handler) handler = range(decoratedBy(node));
        // A handler made by a call (`tools.HandleRun(client)`, whose returned function runs): the
        // function it calls, where what it is handed is no function of the repository's.
        if (!handler.body && args.length > 1 && last && CALL_KINDS.has(String(last.kind())) && !wrapped) {
          factory = (field(last, 'function')?.text() ?? '').replace(/\s+/g, '');
          if (!handler.handler) handler = handlerOf(last);
        }
      }
    } else if (ex === 'class') {
      const body = field(node, 'body');
      const own = body?.namedChildren().map((c) => memberName(c.text())).find((m) => m);
      // (An empty one, a base class's `name = ""`, leaves the class's own name.)
      const literal = own?.[1] || undefined;
      constant = own?.[2];
      const typeName = language === 'go' ? /\*?\s*([A-Za-z_]\w*)\s*\)\s*$/.exec(field(node, 'receiver')?.text() ?? '')?.[1] : language === 'rust' ? lastName(field(node, 'type')?.text() ?? '') : field(node, 'name')?.text();
      name = literal ?? (language === 'rust' && typeName ? structAttributeName(node, typeName) : undefined) ?? typeName ?? '';
      unnamed = literal === undefined && constant === undefined;
    } else if (ex === 'pair') {
      const [k] = entryOf(node);
      if (role === 'name') name = k ? (computedName(k.key, k.value, node) ?? unquote(k.key)) : '';
      else handler = handlerOf(k?.value);
    } else if (ex === 'ref') {
      // The construct is a reference to the function itself (`tools = [search, run_shell]`).
      name = lastName(node.text());
      handler = { handler: name };
    } else if (ex === 'binding') {
      name = bindingOf(node) ?? '';
    } else if (ex === 'literal') {
      // (A Rust match arm's `value` is the code it runs: the name is in its pattern.)
      const compared = (node.kind() === 'match_arm' ? field(node, 'pattern') : (field(node, 'condition') ?? field(node, 'value') ?? field(node, 'pattern')))?.text() ?? '';
      // `step["name"] == "shell"` names the tool by the literal it is compared with, not by the subscript key.
      // (A JSON-RPC method, `"tools/call"`, has a slash.)
      const m = /===?\s*["'`]([\w./-]+)["'`]/.exec(compared) ?? /["'`]([\w./-]+)["'`]/.exec(compared);
      // (Or by a constant, `if name == BASH_TOOL_NAME`: the constant's value names it.)
      // (Or a switch's case naming one, `case TOOL_NAMES.runCode:`: the value at that path.)
      const named = m ? undefined : (/==\s*(?:[\w]+::)*([A-Z][A-Z0-9_]*)\s*$/.exec(compared)?.[1] ?? (node.kind() === 'switch_case' ? /^\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*$/.exec(compared)?.[1] : undefined));
      if (named) constant = named;
      // (Or a Rust enum variant the reply was parsed into, `ToolCall::WriteFile(args)`: `write_file`.)
      const variant = m || named || node.kind() !== 'match_arm' ? undefined : /::([A-Z][A-Za-z0-9]*)\s*(?:[({]|$)/.exec(compared.trim())?.[1];
      name = m?.[1] ?? named?.slice(named.lastIndexOf('.') + 1) ?? (variant ? snakeCase(variant) : '');
    } else if (ex === 'branch') {
      handler = range(field(node, 'consequence') ?? (language === 'rust' ? field(node, 'value') : node));
    } else if ('key' in ex) {
      const re = new RegExp(ex.key);
      const pairs = pairsOf(node);
      // The name may sit one level down ({ spec: { name: 'x', … }, run() {…} }), but not in the
      // tool's parameters, whose fields (`params: { name: 'string' }`) are the model's arguments.
      // (A `schema` that also holds a description or the parameters is the tool's spec: `schema: { name, description, inputSchema }`.)
      const nested = pairs.flatMap((p) => {
        if (!p.value || (p.value.kind() !== 'object' && p.value.kind() !== 'dictionary')) return [];
        const inner = pairsOf(p.value);
        return !PARAMETER_KEY.test(p.key) || inner.some((q) => SPEC_KEY.test(q.key)) ? inner : [];
      });
      const hit = pairs.find((p) => re.test(p.key)) ?? (role === 'name' ? nested.find((p) => re.test(p.key)) : undefined);
      // A name given by a constant (`Name: ToolNameShell`) is the constant's: the model reads its value.
      // (`name: 'git_add' as const` is the string it narrows.)
      const value = hit?.value && (hit.value.kind() === 'as_expression' || hit.value.kind() === 'satisfies_expression') ? (hit.value.child(0) ?? hit.value) : hit?.value;
      // (A parameter of the function around it, `func NewServerTool(name string, …) ServerTool {
      // return ServerTool{Name: name, Run: run} }`, names no tool: that is the constructor, and the
      // tools are wherever its callers build them.)
      if (role === 'name') name = value && STRING_KINDS.has(String(value.kind())) ? unquote(value.text()) : value?.kind() === 'identifier' ? (boundAround(value, value.text()) ? '' : value.text()) : (constructedName(pairs, re) ?? bindingOf(node) ?? factoryToolName(node) ?? '');
      else {
        handler = handlerOf(hit?.value);
        entry = hit ? unquote(hit.key) : undefined;
      }
    } else if ('method' in ex) {
      const re = new RegExp(ex.method);
      if (language === 'go') {
        handler = range(node);
        entry = field(node, 'name')?.text();
      }
      else {
        const body = field(node, 'body');
        // A decorated method (`@override async def __call__`) is the definition inside its decorators.
        const m = body
          ?.namedChildren()
          .map((c) => (c.kind() === 'decorated_definition' ? field(c, 'definition') : c))
          .find((c) => !!c && FUNCTION_KINDS.has(String(c.kind())) && re.test(field(c, 'name')?.text() ?? ''));
        handler = range(m);
        entry = m ? field(m, 'name')?.text() : undefined;
      }
    }
  };
  read(spec.name, 'name');
  read(spec.handler, 'handler');
  if (!name || name.length > 80) return undefined;
  const binding = bindingOf(node);
  const returnedBy = binding ? undefined : returningFunction(node);
  return { name, ...handler, ...(binding ? { binding } : {}), ...(entry ? { entry } : {}), ...(constant ? { constant } : {}), ...(unnamed ? { unnamed } : {}), ...(factory ? { factory } : {}), ...(builder ? { builder } : {}), ...(returnedBy ? { returnedBy } : {}) };
}

/**
 * A tool definition a factory named for the tool returns, as it is or given to a helper
 * (`function createBashTool(ctx) { return tool({ description, parameters, execute }) }`): the
 * tool's name is the factory's, less its verb and the word "tool" (`bash`). The name the tool is
 * registered under is the caller's to give; this one says which definition it is.
 */
function factoryToolName(node: SgNode): string | undefined {
  let n: SgNode = node;
  if (n.parent()?.kind() === 'arguments' && n.parent()?.parent()?.kind() === 'call_expression') n = n.parent()!.parent()!;
  const factory = returningFunction(n);
  const m = factory ? /^(?:create|make|build|new|get)_?([A-Za-z]\w*?)_?Tool$/i.exec(factory) : null;
  return m ? snakeCase(m[1]!) : undefined;
}

/** A camel-case name in snake case (`WriteFile` → `write_file`), as tools are named. */
const snakeCase = (name: string): string => name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();

/** The name of the function that returns `node` as it is (`func CreateRunTool() mcp.Tool { return mcp.NewTool(…) }`). */
function returningFunction(node: SgNode): string | undefined {
  let n: SgNode | null = node.parent();
  if (n?.kind() === 'expression_list') n = n.parent();
  if (n?.kind() !== 'return_statement') return undefined;
  for (let up = n.parent(), i = 0; up && i < 3; up = up.parent(), i++) {
    const kind = String(up.kind());
    if (kind === 'function_declaration' || kind === 'method_declaration' || kind === 'function_definition' || kind === 'function_item') return (up.field('name' as never) as SgNode | null)?.text();
    if (FUNCTION_KINDS.has(kind)) return undefined;
  }
  return undefined;
}

const RUN_METHOD = /^(call|_call|run|_run|arun|execute|invoke|__call__)$/;

/**
 * What a registration used as a decorator (`@register_tool('x')` over a class or function) registers:
 * the function, or the class's run method (`call`, `run`, `execute` …), else the whole class.
 */
function decoratedBy(node: SgNode): SgNode | null {
  const decorator = node.parent();
  if (decorator?.kind() !== 'decorator') return null;
  const holder = decorator.parent();
  const def = holder?.kind() === 'decorated_definition' ? (holder.field('definition' as never) as SgNode | null) : holder;
  if (!def) return null;
  if (FUNCTION_KINDS.has(String(def.kind()))) return def;
  const body = def.field('body' as never) as SgNode | null;
  const run = body?.namedChildren().find((c) => {
    const fn = c.kind() === 'decorated_definition' ? (c.field('definition' as never) as SgNode | null) : c;
    return !!fn && FUNCTION_KINDS.has(String(fn.kind())) && RUN_METHOD.test((fn.field('name' as never) as SgNode | null)?.text() ?? '');
  });
  return run ?? def;
}

/**
 * Every call's callee and offset. A bare call is its name (`run_cmd`); a call on a receiver keeps
 * the receiver's last name (`shell.Start`, `self.ask`, `.execute` when the receiver is computed):
 * a package or module name there says where the function lives. A callee computed at run time
 * (`tools[name](…)`) has no name ('').
 */
function callsOf(nodes: NodesByKind, language: Language): Array<[string, number]> {
  const s = SYNTAX[language];
  const out: Array<[string, number]> = [];
  for (const c of s.calls) {
    for (const [, n] of nodes.of([c.kind])) {
      const at = n.range().start.index;
      // (A Rust macro, `execute!(stdout, EnterAlternateScreen)`, runs no function of its name: only
      // the calls written in its arguments are calls.)
      if (c.kind === 'macro_invocation') {
        out.push(...macroCalls(n, at));
        continue;
      }
      const callee = n.field(c.callee as never) as SgNode | null;
      // `await f<T>(x)` parses in TypeScript as a call whose callee is `await f`: the call is of `f`.
      const text = (callee?.text() ?? '').replace(/!$/, '').replace(/^(?:await|yield)\s+/, '');
      if (/[\])]\s*$/.test(text)) out.push(['', at]);
      else {
        // The callee as a dotted path (`vscode.commands.executeCommand`, `self.io.confirm_ask`); a
        // receiver computed by a call or index keeps only what follows it (`.execute`). (A Rust
        // turbofish, `collect::<String>`, goes with the type it names.)
        const path = text.replace(/(?:::)?<[^<>]*>/g, '').replace(/\s+/g, '').replace(/::|->|\?\./g, '.');
        const tail = /(?:^|[\])])((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*)$/.exec(path)?.[1] ?? lastName(path);
        const dotted = path.endsWith(tail) && path.length > tail.length ? `.${tail}` : tail;
        // `Self::new()` is a plain function of the unit's own type, as a bare call is; another type's
        // (`HeaderName::from_str(…)`) keeps its type, which says whose function runs.
        out.push([/^Self\.[a-z_]\w*$/.test(dotted) && language === 'rust' ? lastName(text) : dotted.slice(0, 120), at]);
        if (IPC_CALLEES.test(dotted)) {
          const first = (n.field('arguments' as never) as SgNode | null)?.namedChildren()[0];
          const name = first && STRING_KINDS.has(String(first.kind())) ? unquote(first.text()) : '';
          if (/^[A-Za-z_]\w*$/.test(name)) out.push([name, at]);
        }
      }
    }
  }
  // An item assignment calls the object's item setter, which a class of the repository may define.
  const set = s.itemSetter;
  if (set) {
    for (const [, n] of nodes.of([set.kind])) {
      const target = n.field(set.target as never) as SgNode | null;
      if (target?.kind() !== set.targetKind) continue;
      const object = (target.field(set.object as never) as SgNode | null)?.text() ?? '';
      if (/^[A-Za-z_][\w.]*$/.test(object) && object.length <= 120) out.push([`${object}.${set.setter}`, n.range().start.index]);
    }
  }
  return out.sort((a, b) => a[1] - b[1]);
}

/**
 * Calls written inside a Rust macro's arguments (`println!("{}", tools::run(x))`, `vec![f(a)]`):
 * the parser keeps them as a token tree, so they are read from its text, string literals blanked.
 */
function macroCalls(n: SgNode, at: number): Array<[string, number]> {
  const text = n.text();
  const open = text.indexOf('!');
  if (open < 0) return [];
  const body = text.slice(open + 1).replace(/"(?:[^"\\]|\\.)*"/g, (m) => ' '.repeat(m.length));
  const out: Array<[string, number]> = [];
  for (const m of body.matchAll(/(\.)?\b((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*(?:::<[^>]*>)?\s*\(/g)) {
    const path = m[2]!.replace(/::/g, '.');
    if (/^(if|while|for|match|return|Some|Ok|Err|None|move)$/.test(path)) continue;
    const callee = m[1] ? `.${path}` : /^Self\.[a-z_]\w*$/.test(path) ? path.slice(path.lastIndexOf('.') + 1) : path;
    out.push([callee.slice(0, 120), at + open + 1 + m.index!]);
  }
  return out;
}

const COLLECTION_VALUE = /^[^=]*?(?::=|=)\s*(?:new\s+Set(?:<[^>]*>)?\(\s*\[|\[\]string\s*\{|map\[string\][\w{}]+\s*\{|(?:frozenset|set|tuple|list)\(\s*[[({]|[[({])/;

// `NAME = "x"`, `NAME string = "x"`, `const NAME: &str = "x";`, `NAME: Final = "x"`
const STRING_VALUE = /^[^=\n]*?(?::=|=)\s*["'`]([\w.:/-]{1,80})["'`]\s*;?\s*$/;

function constantsOf(definitions: Definition[], text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const d of definitions) {
    if (d.role !== 'binding') continue;
    const body = text.slice(d.start, d.end);
    const m = body.length <= 300 ? STRING_VALUE.exec(body) : null;
    if (m) out.push([d.name, m[1]!]);
    else if (body.length <= 20_000) {
      const members = ENUM_VALUE.test(body);
      if (members || OBJECT_VALUE.test(body)) out.push(...objectStrings(body.slice(body.indexOf('{')), d.name, members));
    }
  }
  return out;
}

// `export const TOOL_NAMES = {` (a table of names, read below as `TOOL_NAMES.BROWSER.NAVIGATE`)
const OBJECT_VALUE = /^[^=\n]*?=\s*\{/;
// `enum ToolName {` (its members, `READ_FILE = 'read_file'`, read as `ToolName.READ_FILE`)
const ENUM_VALUE = /^(?:const\s+)?enum\s+[A-Za-z_$][\w$]*\s*\{/;
const OBJECT_ENTRY = /\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(?:([A-Za-z_$][\w$]*)|["'`]([\w$.-]+)["'`])\s*[:=]\s*(?:["'`]([\w.:/-]{1,80})["'`]\s*(?=[,}\n])|(\{))?/y;

/**
 * The string entries of an object literal, nested ones too, as [dotted path, value]: a tool named
 * by `TOOL_NAMES.BROWSER.NAVIGATE` takes the string at that path. A value that is neither a string
 * nor an object (a call, a spread, a template) ends the reading of its object.
 */
const CONSTANT_KEY = /^[A-Z][A-Z0-9_]*$/;
const NAMES_TABLE = /[a-z]Names$/;
function objectStrings(text: string, prefix: string, members = false): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  // Only constant-style keys (`BROWSER`, `NAVIGATE`) are kept: a table of messages or settings is no
  // table of names. A table itself named as a constant (`WORKITEM_TOOLS = { wit_query: "wit_query" }`),
  // or named for the names it holds (`runCodeToolNames = { runCode: "run_code" }`), keeps any key of
  // its own level.
  // An enum's members are constants, whatever their case.
  const named = members || CONSTANT_KEY.test(prefix) || NAMES_TABLE.test(prefix);
  const read = (at: number, path: string | null, depth: number): number => {
    // `at` is just past an opening brace; returns the offset past its closing one, or -1.
    for (let i = at; i < text.length; ) {
      const close = /^\s*,?\s*(?:\/\/[^\n]*\n\s*)*\}/.exec(text.slice(i, i + 400));
      if (close) return i + close[0].length;
      OBJECT_ENTRY.lastIndex = i;
      const m = OBJECT_ENTRY.exec(text);
      if (!m) return -1;
      const name = m[1] ?? m[2]!;
      const key = path !== null && (CONSTANT_KEY.test(name) || (named && depth === 0)) ? `${path}.${name}` : null;
      if (m[3] !== undefined && key !== null && out.length < 500) out.push([key, m[3]]);
      i = m.index + m[0].length;
      if (m[4]) {
        if (depth >= 4) return -1;
        i = read(i, key, depth + 1);
        if (i < 0) return -1;
      } else if (m[3] === undefined) return -1;
      const comma = /^\s*,/.exec(text.slice(i, i + 100));
      if (comma) i += comma[0].length;
    }
    return -1;
  };
  read(1, prefix, 0);
  return out;
}

function collectionsOf(definitions: Definition[], text: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const d of definitions) {
    if (d.role !== 'binding') continue;
    const body = text.slice(d.start, Math.min(d.end, d.start + 4000));
    if (!COLLECTION_VALUE.test(body)) continue;
    const strings = [...body.matchAll(/["'`]([\w.: /-]{1,60})["'`]/g)].map((m) => m[1]!);
    if (strings.length) out.push([d.name, strings]);
  }
  return out;
}

/** A tree's nodes of the kinds the facts read, with their kinds, from one walk of it, in document order per request. */
interface NodesByKind {
  of(kinds: string[]): Array<readonly [string, SgNode]>;
}
function nodesByKind(root: SgNode, language: Language): NodesByKind {
  const s = SYNTAX[language];
  const all = [...new Set([...s.comments, ...s.strings, ...s.imports, ...Object.keys(s.definitions), ...s.calls.map((c) => c.kind), ...s.inline, ...(s.entryAttributes ?? [])])];
  const found = root.findAll({ rule: { any: all.map((kind) => ({ kind })) } } as unknown as NapiConfig).map((n) => [String(n.kind()), n] as const);
  // Each kind is asked once per node here: every call into the parser costs more than the work it does.
  return { of: (kinds) => found.filter(([k]) => kinds.includes(k)) };
}

// An attribute that marks the item after it as a test: `#[cfg(test)]`, `#[test]`, `#[tokio::test]`, `#[rstest]`.
const RUST_TEST_ATTRIBUTE = /^#\[\s*(?:cfg\s*\(\s*test\s*\)|(?:tokio::)?test(?:\s*\(.*\))?|rstest)\s*\]$/s;
const RUST_TEST_ITEMS = new Set(['mod_item', 'function_item', 'impl_item']);

/**
 * The [start, end) spans of the Rust unit tests in a file, outermost only: a module, function or
 * impl whose attributes mark it as a test (the attribute included).
 */
function rustTestRanges(nodes: NodesByKind): number[] {
  const spans: Array<[number, number]> = [];
  for (const [, attr] of nodes.of(['attribute_item'])) {
    if (!RUST_TEST_ATTRIBUTE.test(attr.text())) continue;
    let item = attr.next();
    while (item && (item.kind() === 'attribute_item' || item.kind() === 'line_comment' || item.kind() === 'block_comment')) item = item.next();
    if (item && RUST_TEST_ITEMS.has(String(item.kind()))) spans.push([attr.range().start.index, item.range().end.index]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: number[] = [];
  for (const [start, end] of spans) if (!out.length || start >= out[out.length - 1]!) out.push(start, end);
  return out;
}

// A Go build constraint that leaves the file out of every build unless asked for by name (`//go:build ignore`, `// +build ignore`).
const GO_IGNORED = /^[ \t]*\/\/[ \t]*(?:go:build[ \t]+ignore|\+build[ \t]+ignore)[ \t]*$/m;

/** Whether an offset lies in one of these sorted, disjoint [start, end) spans. */
function inSpans(spans: number[], at: number): boolean {
  for (let i = 0; i < spans.length; i += 2) {
    if (at < spans[i]!) return false;
    if (at < spans[i + 1]!) return true;
  }
  return false;
}

/** Non-code ranges with these spans added: the ranges inside a span go, as the span covers them. */
function withSpans(ranges: number[], spans: number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) if (!inSpans(spans, ranges[i]!)) pairs.push([ranges[i]!, ranges[i + 1]!]);
  for (let i = 0; i < spans.length; i += 2) pairs.push([spans[i]!, spans[i + 1]!]);
  return pairs.sort((a, b) => a[0] - b[0] || b[1] - a[1]).flat();
}

/** Offsets of comments, docstrings, string literals and imports, sorted: a name inside them is not a use. The import statements' text too. */
function nonCodeRanges(nodes: NodesByKind, language: Language): { ranges: number[]; imports: string[] } {
  const s = SYNTAX[language];
  const ranges: number[] = [];
  const imports: string[] = [];
  const importKinds = new Set(s.imports);
  for (const [kind, n] of nodes.of([...s.comments, ...s.strings, ...s.imports])) {
    const r = n.range();
    ranges.push(r.start.index, r.end.index);
    if (importKinds.has(kind)) imports.push(n.text().slice(0, 2000));
  }
  return { ranges, imports };
}

/**
 * The facts of one file, from its text alone: probe matches on the syntax tree (code files) or on
 * comment-blanked text (config files), and the ranges where names are not code. Pure and
 * deterministic, so it can be cached by the file's content id. `scanned` is
 * the file's tree and rule hits from a batch scan; without it the file is parsed and searched here.
 */
export function extractFacts(file: FileInput, plan: Plan, scanned?: Scanned): FileFacts {
  const reading = plan.probes.filter((p) => probeReads(p, file));
  const facts: FileFacts = { findings: [], nonCode: [], definitions: [] };
  const lineStarts = lineStartsOf(file.text);
  const language = file.language;
  if (!language) {
    const view = file.text.replace(CONFIG_COMMENT, blank);
    facts.findings.push(...textFindings(reading.filter((p) => p.engine === 'text'), view, lineStarts));
    for (const p of reading.filter((q) => q.engine === 'config')) {
      const re = p.matches ? linearRegex(p.matches, p.ignoreCase) : null;
      for (const hit of configHits(file.path, file.text, p.select!.split('.'))) {
        if (re && !re.test(hit.shown)) continue;
        const line = lineAt({ lineStarts }, hit.offset);
        facts.findings.push({ probe: p.id, startLine: line, endLine: line, text: firstLine(linesText({ text: file.text, lineStarts }, line)), at: hit.offset });
      }
    }
    return facts;
  }
  let tree: SgNode;
  let hits: Array<[PlanProbe, SgNode]>;
  if (scanned) {
    tree = scanned.root;
    // The scan ran every rule of the language; a probe counts here only if it reads this file.
    const readSet = new Set(reading.map((p) => p.id));
    hits = scanned.hits.filter(([p]) => readSet.has(p.id));
  } else {
    tree = parseCode(language, file.text).root();
    hits = treeHits(tree, language, candidatesOf(file, reading));
  }
  const nodes = nodesByKind(tree, language);
  // Unit tests kept in a product file (Rust's `#[cfg(test)] mod tests`) are test code: nothing in them is the product's.
  // (So is a Go file built only on request, `//go:build ignore`: a script run by hand, never part of the product.)
  const tests = language === 'rust' ? rustTestRanges(nodes) : language === 'go' && GO_IGNORED.test(file.text.slice(0, file.text.search(/^package\s/m) >>> 0)) ? [0, file.text.length] : [];
  const inTest = (at: number) => inSpans(tests, at);
  facts.findings.push(...treeFindings(hits, language).filter((f) => !inTest(f.at)));
  const nonCode = nonCodeRanges(nodes, language);
  facts.nonCode = tests.length ? withSpans(nonCode.ranges, tests) : nonCode.ranges;
  // (Read once, when a definition or the call facts first ask.)
  let imports: ImportBinding[] | undefined;
  const importsOf = () => (imports ??= nonCode.imports.flatMap((st) => importBindings(st, language)));
  facts.definitions = definitionsOf(nodes, language, file.text, lineStarts, importsOf).filter((d) => !inTest(d.start));
  facts.uses = usesOf(file.text, facts);
  if (plan.calls) {
    facts.calls = callsOf(nodes, language).filter(([, at]) => !inTest(at));
    facts.inline = nodes.of(SYNTAX[language].inline).flatMap(([, n]) => {
      const r = n.range();
      return inTest(r.start.index) ? [] : [r.start.index, r.end.index];
    });
    facts.collections = collectionsOf(facts.definitions, file.text);
    facts.constants = constantsOf(facts.definitions, file.text);
    facts.imports = importsOf();
  }
  // A match on a definition's own name defines it: it counts only where code uses that name.
  const byNameAt = new Map(facts.definitions.map((d) => [d.nameAt, d.name]));
  for (const f of facts.findings) {
    const name = byNameAt.get(f.at);
    if (name) f.defines = name;
  }
  facts.findings.sort((a, b) => a.at - b.at);
  return facts;
}

/**
 * The files a multi-file scan reads: those of each matcher (a parser and its rules) that a
 * file-by-file search would compile more rules for than the scan's one per rule. The count stops
 * once it passes that bound, so a large batch is scanned after its first few files. Languages with
 * one parser and the same rules (JavaScript and TSX) share a matcher: a JavaScript file joins the
 * TSX scan at no compile of its own.
 */
export function scannedFiles(files: FileInput[], code: PlanProbe[], scan: 'auto' | 'always' = 'auto'): Set<number> {
  const compiles = new Map<string, number>();
  const scans = new Set<string>();
  for (const f of files) {
    if (!f.language) continue;
    const { mine, key } = languageRules(code, f.language);
    if (scans.has(key)) continue;
    const n = (compiles.get(key) ?? 0) + (scan === 'always' ? Infinity : candidatesOf(f, code.filter((p) => probeReads(p, f))).length);
    compiles.set(key, n);
    if (n > mine.length) scans.add(key);
  }
  const out = new Set<number>();
  files.forEach((f, i) => {
    if (f.language && scans.has(languageRules(code, f.language).key)) out.add(i);
  });
  return out;
}

/**
 * The facts of a batch of files, in input order. A rule costs about as much to compile as to run
 * on a file, and a search of one file compiles each of its candidate rules again. So a language's
 * files are searched in one multi-file scan (every rule compiled once)
 * unless searching them one by one compiles fewer rules in all, as for a next commit's few changed
 * files. A file the scan did not report is searched on its own.
 */
export async function extractBatch(files: FileInput[], plan: Plan, scan: 'auto' | 'always' = 'auto', cacheDir?: string): Promise<FileFacts[]> {
  const out: Array<FileFacts | undefined> = new Array(files.length);
  const code = plan.probes.filter((p) => Object.keys(p.rules).length > 0);
  const scans = scannedFiles(files, code, scan);
  const scanned = files.map((f, i) => (scans.has(i) ? f : { language: null, text: '' }));
  const scanning = scanFiles(
    scanned,
    code,
    (i, result) => {
      out[i] = extractFacts(files[i]!, plan, result);
    },
    cacheDir,
  );
  // The files no scan reads (config files, a language with few files) are read while the native
  // threads scan the rest; a file the scan did not report, after it.
  files.forEach((f, i) => {
    if (!scanned[i]!.language) out[i] = extractFacts(f, plan);
  });
  await scanning;
  return files.map((f, i) => out[i] ?? extractFacts(f, plan));
}
