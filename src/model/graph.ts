import type { Definition, FileFacts, RawFinding } from '../facts/extract.js';
import { SYNTAX } from '../facts/syntax.js';
import { folderOfPath, nearestFolder, packagedEntryPoints } from '../facts/usage.js';
import { ALIAS, ASKS, CHECKS, SINK } from '../facts/plan.js';
import type { SourceFile } from '../inventory/index.js';
import { lineAt, statementHead } from '../inventory/lines.js';

/**
 * A unit of code the call graph links: a function or method, a handler written in place, or a
 * file's top-level code. Calls, sinks and asks are assigned to the innermost unit they sit in.
 */
export interface Fn {
  id: number;
  path: string;
  name: string;
  method: boolean;
  /** Called by a framework or the runtime (a decorated handler, main): a caller chain may end here. */
  entry: boolean;
  /** Decorated only to bind or cache it (`@staticmethod`): its callers are followed, and where none is found the runtime calls it. */
  bound?: boolean;
  start: number;
  end: number;
  line: number;
  calls: Array<[string, number]>;
  sinks: RawFinding[];
  asks: RawFinding[];
  /** Branches that refuse what fails a content test (the model's `checks`). */
  checks: RawFinding[];
  /** A sandbox probe matched inside it: the commands it runs go through that sandbox. */
  isolated: boolean;
}

export interface Graph {
  fns: Fn[];
  byName: Map<string, Fn[]>;
  byFile: Map<string, Fn[]>;
  files: Map<string, SourceFile>;
  facts: Map<string, FileFacts>;
  /** Calls found to name too many definitions to follow: a running count that `resolve` reads only as a change across one `resolveOnce`. */
  ambiguous: number;
  /** The distinct calls (unit and call) asked after the build and not followed: the Limitations count. */
  unresolvedCalls: Set<string>;
  /** Memo of packagesOf. */
  packages: Map<Fn, Set<string>>;
  /** Memo of resolve, per unit and call: whether it was ambiguous is kept, so each ask adds it to `unresolvedCalls` again. */
  resolved: WeakMap<Fn, Map<string, Fn[] | null>>;
  /** Per file, names bound by imports of modules outside the repository: calls on them never resolve into it. */
  external: Map<string, Set<string>>;
  /** The folder of the nearest package manifest above a file ('' for the repository's root): which project of a monorepo it is in. */
  project: (path: string) => string;
  /** Each name's definitions by where they sit (see `named`), for names with many definitions. */
  named: Map<string, NameIndex>;
  /** Per file, the names bound to instances of a class (see bindingsOf), read when first asked. */
  instances: Map<string, Map<string, string | null>>;
  /** The names of the types the repository defines, built when first asked. */
  typeNames?: Set<string>;
  /** Files by module name (the file name without its extension), built when an import is first followed. */
  modules?: Map<string, string[]>;
  /** Each TypeScript interface or base class, and each Rust trait, with the types that declare they implement or extend it, built when first asked. */
  implementors?: Record<'js' | 'rust', Map<string, string[]>>;
  /** Each TypeScript member name with the type it is declared with (null where declarations disagree), built when first asked. */
  memberTypes?: Map<string, string | null>;
}

/**
 * One name's definitions grouped the ways a call is resolved: a call looks up its group instead of
 * filtering every definition of its name, which a repository can give thousands of (a crafted one,
 * 16,000 `run` methods and as many calls, took 80 s to audit that way). Each group keeps the order
 * of `all`.
 */
interface NameIndex {
  all: Fn[];
  /** Groups by name (see GROUPS), each built when a call first asks for it. */
  groups: Map<Group, Map<string, Fn[]>>;
  /** Each definition's place in `all`, built when first asked. */
  position?: Map<Fn, number>;
}

/** The keys a definition is grouped under in each group (none: left out of it). */
const GROUPS = {
  /** Functions (not methods): all of them (key ''), by file, by folder, and by folder or module name. */
  plain: (f: Fn) => (f.method ? [] : ['']),
  plainByPath: (f: Fn) => (f.method ? [] : [f.path]),
  plainByDir: (f: Fn) => (f.method ? [] : [dirName(f.path)]),
  plainByDirOrModule: (f: Fn) => (f.method ? [] : [...new Set([dirName(f.path), moduleName(f.path)])]),
  /** Methods by file, and by the class they are written in. */
  methodsByPath: (f: Fn) => (f.method ? [f.path] : []),
  methodsByClass: (f: Fn, graph: Graph) => {
    const owner = f.method ? classOf(graph, f) : undefined;
    return owner === undefined ? [] : [owner];
  },
  /** Methods by the last word of their class's name, lowercased (`SandboxShell` → `shell`). */
  methodsByClassWord: (f: Fn, graph: Graph) => {
    const owner = f.method ? classOf(graph, f) : undefined;
    const word = owner && /[A-Z]?[a-z0-9]+$/.exec(owner)?.[0];
    return word ? [word.toLowerCase()] : [];
  },
  /** Every definition by folder, and by project. */
  byDir: (f: Fn) => [dirName(f.path)],
  byProject: (f: Fn, graph: Graph) => [graph.project(f.path)],
} satisfies Record<string, (f: Fn, graph: Graph) => string[]>;
type Group = keyof typeof GROUPS;

const indexOf = (graph: Graph, name: string, all: Fn[]): NameIndex => {
  let idx = graph.named.get(name);
  if (!idx) graph.named.set(name, (idx = { all, groups: new Map() }));
  return idx;
};

/** Definitions of one name, put back in the order of all its definitions. */
function inOrder(graph: Graph, name: string, all: Fn[], defs: Fn[]): Fn[] {
  if (defs.length < 2) return defs;
  let position: Map<Fn, number>;
  if (all.length <= SMALL_NAME) position = new Map(all.map((f, i) => [f, i]));
  else {
    const idx = indexOf(graph, name, all);
    position = idx.position ??= new Map(all.map((f, i) => [f, i]));
  }
  return defs.sort((a, b) => position.get(a)! - position.get(b)!);
}

/** Below this many definitions a name's group is read by a filter: building maps costs more. */
const SMALL_NAME = 8;

/** One name's definitions in one group, under one key, in the order of all its definitions. */
function named(graph: Graph, name: string, group: Group, key: string): Fn[] {
  const all = graph.byName.get(name) ?? [];
  if (all.length <= SMALL_NAME) return all.filter((f) => GROUPS[group](f, graph).includes(key));
  const idx = indexOf(graph, name, all);
  let map = idx.groups.get(group);
  if (!map) {
    map = new Map();
    for (const f of idx.all) {
      for (const k of GROUPS[group](f, graph)) {
        const list = map.get(k);
        if (list) list.push(f);
        else map.set(k, [f]);
      }
    }
    idx.groups.set(group, map);
  }
  return map.get(key) ?? [];
}

const MANIFESTS = new Set(['package.json', 'pyproject.toml', 'setup.py', 'go.mod', 'Cargo.toml']);

/** For each file, the folder of the nearest manifest above it: the project of a monorepo it belongs to. */
const projectsOf = (files: SourceFile[]) => nearestFolder(new Set(files.filter((f) => MANIFESTS.has(f.path.slice(f.path.lastIndexOf('/') + 1))).map((f) => folderOfPath(f.path))));

/**
 * A bare call is followed to at most this many definitions of its name in other files; a call on a
 * receiver (`x.write()`) only to a definition unique in the repository: method names (Write, Run,
 * Get) repeat across types, and following every one invents paths the code does not have.
 */
const MAX_TARGETS = 3;
/**
 * A call is followed to every definition of its name in its own file, or in the module it names,
 * up to this many: more is no code but a repository built to multiply the call graph (16,000
 * `run` methods, 320 to a file, made 10 million caller links and 1.1 GB). Past it the call is
 * ambiguous.
 */
const MAX_SAME_PLACE = 16;
function sameplace(graph: Graph, defs: Fn[]): Fn[] {
  if (defs.length <= MAX_SAME_PLACE) return [...defs];
  graph.ambiguous++;
  return [];
}
const MAX_METHOD_TARGETS = 2;
/** An interface's implementations, all in one package, followed together: at most this many. */
const MAX_FAMILY = 4;
const COLLECTION_METHODS = new Set([
  'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'copy', 'update', 'get', 'add', 'discard', 'setdefault', 'keys', 'items', 'values',
  'join', 'split', 'strip', 'replace', 'format', 'count', 'index', 'sort', 'reverse',
  'push', 'shift', 'unshift', 'splice', 'slice', 'concat', 'map', 'filter', 'reduce', 'forEach', 'find', 'includes', 'indexOf', 'set', 'has', 'delete', 'entries', 'trim',
]);

/**
 * An event loop's methods (`loop.create_task(…)`, `self._loop.call_soon(…)`): on a receiver named
 * for the loop they are the runtime's, not a repository method that happens to share the name.
 */
const EVENT_LOOP_METHODS = new Set(['create_task', 'create_future', 'run_until_complete', 'run_forever', 'call_soon', 'call_soon_threadsafe', 'call_later', 'call_at', 'run_in_executor']);

// Python's built-in functions: a bare call of one (`list(buf)`, `open(p)`) is the built-in unless
// the caller's own file defines that name (a class's `list` method is called on the class).
const PYTHON_BUILTINS = new Set(['abs', 'all', 'any', 'bool', 'bytes', 'callable', 'dict', 'dir', 'enumerate', 'filter', 'float', 'format', 'frozenset', 'getattr', 'hasattr', 'hash', 'id', 'input', 'int', 'isinstance', 'iter', 'len', 'list', 'map', 'max', 'min', 'next', 'open', 'print', 'range', 'repr', 'reversed', 'round', 'set', 'setattr', 'sorted', 'str', 'sum', 'super', 'tuple', 'type', 'vars', 'zip']);

/**
 * Objects the JavaScript runtime provides without an import: a call on one (`document.execCommand`,
 * `window.open`, `process.exit`) runs the platform's code, never the repository's function that
 * happens to share the method's name.
 */
const RUNTIME_OBJECTS = new Set(['document', 'window', 'navigator', 'globalThis', 'console', 'process', 'Math', 'JSON', 'Object', 'Array', 'Promise', 'Reflect', 'Number', 'String', 'Date', 'Intl', 'localStorage', 'sessionStorage', 'location', 'history', 'performance']);
const JS_LANGUAGES = new Set(['typescript', 'tsx', 'javascript']);

const lineOf = lineAt;

/**
 * Calls of a name bound to a sink function (`const run = promisify(execFile)`): sinks of that kind,
 * found from the file's calls, not by a matcher of their own (verification re-derives them here too).
 */
export function aliasSinks(file: Pick<SourceFile, 'text' | 'lineStarts'>, facts: Pick<FileFacts, 'findings' | 'calls'>): RawFinding[] {
  const aliases = new Map(facts.findings.filter((f) => f.probe.startsWith(ALIAS) && f.alias).map((f) => [f.alias!, f.probe.slice(ALIAS.length)]));
  const out: RawFinding[] = [];
  for (const [name, at] of facts.calls ?? []) {
    const kind = aliases.get(name);
    if (!kind) continue;
    const line = lineOf(file, at);
    out.push({ probe: `${SINK}${kind}`, startLine: line, endLine: line, text: file.text.slice(at, file.lineStarts[line] ?? file.text.length).trim().slice(0, 160), at, alias: name });
  }
  return out;
}

// An ask named for a decision (confirm, approve, a permission request, canUseTool), or whose
// question offers to stop ("continue or abort this action").
const DECISION_NAME = /confirm|approv|permission|consent|can_?use_?tool|proceed|abort|cancel/i;
// A yes/no answer compared after a raw read: `answer.lower() in ("y", "yes")`, `== 'n'`.
const YES_NO = /["'`](?:y|yes|n|no|approve|allow|deny|reject|always)["'`]/i;

// The name of what a read returns when it is the user's task or message, not an answer.
const TASK_NAME = /^(?:user_?)?(?:prompt|task|query|question|message|msg|request|objective|goal|instruction|input|text)s?$/i;

/**
 * Whether an ask decides whether something proceeds. A raw read of the user's input (`input()`, a
 * prompt, a line from stdin) is an approval unless its answer is plainly the user's task: bound to
 * a name that says so (`query = input("Query: ")`) and that name never compared with a yes or no
 * (a later "continue? (y/n)" read decides for itself, not for the task). Asks named for a
 * decision, or read in a condition, always decide.
 */
function decides(text: string, ask: RawFinding, unitEnd: number): boolean {
  if (DECISION_NAME.test(ask.text)) return true;
  const before = statementHead(text, ask.at);
  if (/^\s*(?:if|elif|while|return|assert|unless)\b|[!?]|\b(?:if|not|and|or)\s|&&|\|\|/.test(before)) return true;
  const bound = /(?:^|[\s(,])(?:let\s+(?:mut\s+)?|const\s+|var\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]*)?:?=\s*(?:await\s+)?$/.exec(before)?.[1];
  if (!bound || !TASK_NAME.test(bound)) return true;
  const name = bound.replace(/\$/g, '\\$');
  const yes = YES_NO.source;
  // `answer.lower() in ("y", "yes")`, `answer == 'n'`, `answer.startswith("y")`, `"y" == answer`, `match answer.trim() { "y" => … }`
  const compared = new RegExp(`\\b${name}\\b[^\\n]{0,60}?(?:[!=]==?|\\bin\\b|startswith)[^\\n]{0,40}?${yes}|${yes}\\s*[!=]==?[^\\n]{0,30}\\b${name}\\b|\\bmatch\\s+${name}\\b[^{]{0,40}\\{\\s*${yes}`, 'i');
  return compared.test(text.slice(ask.at, Math.min(unitEnd, ask.at + 2000)));
}

/**
 * Whether an ask calls a hook held in a field of the unit's own object (`b.CheckPermission(cmd)` in
 * a method of `b`, `self.approval_callback(…)`, `this.onApprove(…)`) that the repository defines as
 * no function and never sets to anything (`CheckPermission: check`, `b.CheckPermission = fn`,
 * `self.approval_callback = callback`): a hook left for an embedder, nil in the shipped program.
 * Setting it to nothing (`= None`, `: nil`) is not setting it. A call on anything else (a prompt
 * library's module, `p.confirm(…)`) is no hook.
 */
function unsetHook(files: Map<string, SourceFile>, byName: Map<string, Fn[]>): (fn: Fn, ask: RawFinding) => boolean {
  const known = new Map<string, boolean>();
  return (fn, ask) => {
    const call = /^(?:await\s+)?([\w$]+)\.([\w$]+)\s*\(/.exec(ask.text);
    if (!call) return false;
    const [, receiver, hook] = call as unknown as [string, string, string];
    const text = files.get(fn.path)?.text ?? '';
    const goReceiver = /^func\s*\(\s*(\w+)\s/.exec(text.slice(fn.start, fn.start + 200))?.[1];
    if (receiver !== 'self' && receiver !== 'this' && receiver !== goReceiver) return false;
    if (byName.get(hook)?.length) return false;
    let unset = known.get(hook);
    if (unset === undefined) {
      const name = hook.replace(/\$/g, '\\$');
      const nothing = '(?!nil\\b|None\\b|null\\b|undefined\\b)';
      const set = new RegExp(`(?:^|[^\\w$])${name}\\s*(?::[^=\\n]*)?=(?!=)\\s*${nothing}\\S|(?:^|[^\\w$.])${name}\\s*:(?!=)\\s*${nothing}\\S`);
      unset = ![...files.values()].some((f) => f.text.includes(hook) && set.test(f.text));
      known.set(hook, unset);
    }
    return unset;
  };
}

/** Units of one file, innermost-last when nested: functions, then the file's top-level code. */
function unitsOf(file: SourceFile, facts: FileFacts, isolation: Set<string>, nextId: () => number): Fn[] {
  const fns: Fn[] = facts.definitions
    .filter((d) => d.role === 'function')
    .map((d) => ({ id: nextId(), path: file.path, name: d.name, method: !!d.method, entry: d.entry, ...(d.bound ? { bound: true } : {}), start: d.start, end: d.end, line: lineOf(file, d.start), calls: [], sinks: [], asks: [], checks: [], isolated: false }));
  const top: Fn = { id: nextId(), path: file.path, name: `<${file.path}>`, method: false, entry: true, start: 0, end: file.text.length + 1, line: 1, calls: [], sinks: [], asks: [], checks: [], isolated: false };
  const all = [top, ...fns];
  const innermost = innermostOf(top, fns);
  for (const c of facts.calls ?? []) innermost(c[1]).calls.push(c);
  for (const s of aliasSinks(file, facts)) innermost(s.at).sinks.push(s);
  const execAt = new Set(facts.findings.filter((f) => f.probe === `${SINK}exec`).map((f) => f.at));
  for (const f of facts.findings) {
    if (f.probe === `${SINK}spawn` && execAt.has(f.at)) continue; // a command, counted as exec
    if (f.probe.startsWith(SINK)) innermost(f.at).sinks.push(f);
    else if (f.probe === ASKS) {
      const unit = innermost(f.at);
      if (decides(file.text, f, unit.end)) unit.asks.push(f);
    }
    else if (f.probe === CHECKS) innermost(f.at).checks.push(f);
    else if (isolation.has(f.probe)) innermost(f.at).isolated = true;
  }
  return all;
}

/**
 * The innermost unit at an offset: the one starting last among those covering it (the top level
 * covers all). Units nest or are disjoint, so a binary search by start and a walk out through the
 * units that still cover the offset finds it without trying every unit for every call.
 */
function innermostOf(top: Fn, fns: Fn[]): (offset: number) => Fn {
  const sorted = [...fns].sort((a, b) => a.start - b.start || b.end - a.end);
  // For each unit, the nearest earlier unit that encloses it: the walk out from a unit that ends too soon.
  const parent: number[] = [];
  const open: number[] = [];
  sorted.forEach((f, i) => {
    while (open.length && sorted[open[open.length - 1]!]!.end <= f.start) open.pop();
    parent.push(open.length ? open[open.length - 1]! : -1);
    open.push(i);
  });
  return (offset) => {
    let lo = 0;
    let hi = sorted.length - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.start <= offset) {
        i = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (i >= 0 && offset >= sorted[i]!.end) i = parent[i]!;
    return i >= 0 ? sorted[i]! : top;
  };
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
  // An ask through a hook held in a field that no code sets (see `unsetHook`) asks no one.
  const unset = unsetHook(byPath, byName);
  for (const fn of fns) if (fn.asks.length) fn.asks = fn.asks.filter((a) => !unset(fn, a));
  // A function the package metadata names as an entry point (a console script, a plugin entry
  // point such as a tool a host application loads by name) is called by the runtime: a caller
  // chain may end there.
  for (const { module, name } of packagedEntryPoints(files)) {
    const suffix = module.replace(/\./g, '/');
    for (const fn of byName.get(name) ?? []) if (!fn.method && (fn.path.endsWith(`${suffix}.py`) || fn.path.endsWith(`${suffix}/__init__.py`))) fn.entry = true;
  }
  const graph: Graph = { fns, byName, byFile, files: byPath, facts, ambiguous: 0, unresolvedCalls: new Set(), packages: new Map(), resolved: new WeakMap(), external: externalNames(files, facts), project: projectsOf(files), named: new Map(), instances: new Map() };
  for (const fn of fns) {
    // An extension call is a call into a client library; a function of the repository by that name is the harness's own dispatcher.
    // So is a remote service's mutating call (`self.runtime.create_request(…)`): the repository's own
    // function of that name is followed like any call, and what it reaches is its sinks.
    fn.sinks = fn.sinks.filter((s) => !(s.probe.endsWith(':ext') || s.probe.endsWith(':remote')) || !fn.calls.some(([call, at]) => ownCall(s, call, at) && resolve(graph, fn, call).length > 0));
  }
  // A unit that calls a function which builds the sandbox (bwrap argv, a container spec) runs its
  // commands in that sandbox; a call that may run one of several (an interface's implementations)
  // only when every one of them does.
  const direct = new Set(fns.filter((f) => f.isolated).map((f) => f.id));
  // (A call can only run definitions of its own name: one no sandbox builder has is not resolved here.)
  const builders = new Set(fns.filter((f) => direct.has(f.id)).map((f) => f.name));
  const intoSandbox = (fn: Fn, call: string) => {
    if (!builders.has(callParts(call).name)) return false;
    const targets = resolve(graph, fn, call);
    return targets.length > 0 && targets.every((t) => direct.has(t.id));
  };
  if (direct.size) for (const fn of fns) if (!fn.isolated && fn.calls.some(([call]) => intoSandbox(fn, call))) fn.isolated = true;
  graph.unresolvedCalls.clear();
  return graph;
}

/** The repository's own module names: workspace packages (package.json, Cargo.toml), the Go module, Python packages and modules, Rust modules. */
function ownModules(files: SourceFile[]): { js: string[]; go: string | null; rust: Set<string>; python: Set<string> } {
  const js: string[] = [];
  const rust = new Set<string>();
  const python = new Set<string>();
  let go: string | null = null;
  for (const f of files) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (base === 'package.json') {
      const m = /"name"\s*:\s*"([^"]+)"/.exec(f.text);
      if (m) js.push(m[1]!);
    } else if (base === 'Cargo.toml') {
      const m = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(f.text);
      if (m) rust.add(m[1]!.replace(/-/g, '_'));
    } else if (base === 'go.mod') go ??= /^module\s+(\S+)/m.exec(f.text)?.[1] ?? null;
    else if (f.language === 'python') {
      const parts = f.path.split('/');
      for (let i = 0; i < parts.length; i++) python.add(parts[i]!.replace(/\.py$/, ''));
    } else if (f.language === 'rust') {
      // A crate's own modules (`mod runner;` then `use runner::run_line`): a file's stem or folder.
      for (const part of f.path.split('/')) if (part !== 'src') rust.add(part.replace(/\.rs$/, ''));
    }
  }
  return { js, go, rust, python };
}

function externalNames(files: SourceFile[], facts: Map<string, FileFacts>): Map<string, Set<string>> {
  const own = ownModules(files);
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    const imports = facts.get(file.path)?.imports;
    if (!imports?.length || !file.language) continue;
    const ext = new Set<string>();
    for (const [name, module] of imports) {
      const internal =
        module.startsWith('.') ||
        module.startsWith('/') ||
        (file.language === 'python' ? own.python.has(module.split('.')[0]!) : false) ||
        (file.language === 'go' ? !!own.go && module.startsWith(own.go) : false) ||
        (file.language === 'rust' ? /^(crate|self|super)\b/.test(module) || own.rust.has(module.split('::')[0]!) : false) ||
        (JS_LANGUAGES.has(file.language) ? /^[@~#]\//.test(module) || own.js.some((p) => module === p || module.startsWith(`${p}/`)) : false);
      if (!internal) ext.add(name);
    }
    out.set(file.path, ext);
  }
  return out;
}

/**
 * Whether the call at `at` is the one a sink finding names: at the finding's own offset, or, where
 * the finding is the `await` around it, just after, and named in the finding's text. (Every call of
 * a chain starts where the chain does: of `service().events().delete(…)`, the sink is `delete`, not
 * the repository's own `service()` that opens it.)
 */
function ownCall(sink: RawFinding, call: string, at: number): boolean {
  const name = callParts(call).name;
  if (at === sink.at) return name === '' || !CHAIN.test(sink.text) || calleeOf(sink.text) === name;
  // (the call the finding's text opens, not one in its arguments: `dr.Patch(ctx, obj.GetName(), …)` is no call of GetName's)
  return at > sink.at && at - sink.at <= 16 && name !== '' && calleeOf(sink.text) === name;
}
const CHAIN = /\)\s*\.\s*[A-Za-z_$]/;

/** The name a call's text calls: the last name opening an argument list outside any other, on its first line. */
function calleeOf(text: string): string {
  const line = text.split('\n', 1)[0]!;
  let depth = 0;
  let last = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '(') {
      if (depth === 0) last = /([A-Za-z_$][\w$]*)\s*$/.exec(line.slice(0, i))?.[1] ?? '';
      depth++;
    } else if (c === ')') depth = Math.max(0, depth - 1);
  }
  return last;
}

/** A call's name and its receiver's last name ('' for none): `shell.Start` → ['Start', 'shell']. */
export function callParts(call: string): { name: string; recv: string | null } {
  const dot = call.lastIndexOf('.');
  if (dot < 0) return { name: call, recv: null };
  const before = call.slice(0, dot);
  return { name: call.slice(dot + 1), recv: before.slice(before.lastIndexOf('.') + 1) };
}

// Asked for every candidate of every call: a repository has far fewer paths than calls.
const dirNames = new Map<string, string>();
const dirName = (path: string) => {
  let d = dirNames.get(path);
  if (d === undefined) {
    const parts = path.split('/');
    if (dirNames.size > 100_000) dirNames.clear();
    dirNames.set(path, (d = parts.length > 1 ? parts[parts.length - 2]! : ''));
  }
  return d;
};
const moduleName = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
/** The whole folder a file sits in ('' at the top), where dirName is only its last segment. */
const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

/**
 * Runs a pass whose resolves are the model's own bookkeeping, not paths a reader follows: the calls
 * it could not follow stay out of the Limitations count.
 */
export function uncounted<T>(graph: Graph, pass: () => T): T {
  const unresolved = new Set(graph.unresolvedCalls);
  try {
    return pass();
  } finally {
    graph.unresolvedCalls = unresolved;
  }
}

/**
 * The definitions a call may run. A bare call runs functions: same file first, else a name defined
 * in a few places. A call on a receiver that names a package or module (`shell.Start`,
 * `utils.run_cmd`) runs that package's function; on a variable, the method of that name when it is
 * unique in the repository (and in the caller's own project), else the one in the file, else one in a package the unit already
 * calls into (the receiver's type most likely lives there). Anything more common is not followed:
 * method names repeat across types, and following every one invents paths the code does not have.
 */
export function resolve(graph: Graph, from: Fn, call: string): Fn[] {
  if (!call) return [];
  // The graph does not change once built, and the walks ask the same unit's calls again and again.
  let memo = graph.resolved.get(from);
  if (!memo) graph.resolved.set(from, (memo = new Map()));
  let targets = memo.get(call);
  if (targets === undefined) {
    const before = graph.ambiguous;
    let found = resolveOnce(graph, from, call);
    // (A method calling its own name two fields down, `p.Service.Playlists.Insert(…)` inside
    // `Insert`, hands the call on to a client it holds: it is not calling itself.)
    if (found.length === 1 && found[0] === from && /^[^.(]+\.[^.(]+\.[^(]+\./.test(call)) found = [];
    // null: the call named too many definitions (added to `unresolvedCalls` on every ask, which counts it once).
    targets = graph.ambiguous > before ? null : found;
    graph.ambiguous = before;
    memo.set(call, targets);
  }
  if (targets === null) {
    graph.unresolvedCalls.add(`${from.id}\0${call}`);
    return [];
  }
  return targets;
}

/** The plain functions of a name anywhere in the repository, where they are few enough to follow. */
function plainAnywhere(graph: Graph, name: string): Fn[] {
  const fns = named(graph, name, 'plain', '');
  if (fns.length > MAX_TARGETS) {
    graph.ambiguous++;
    return [];
  }
  return [...fns];
}

function resolveOnce(graph: Graph, from: Fn, call: string): Fn[] {
  const { name, recv } = callParts(call);
  // A call on (or of) a name imported from outside the repository runs that library's code.
  const root = call.startsWith('.') ? '' : call.split('.')[0]!;
  if (graph.external.get(from.path)?.has(root)) return [];
  if (recv !== null && RUNTIME_OBJECTS.has(root) && JS_LANGUAGES.has(graph.files.get(from.path)?.language ?? '')) return [];
  const all = graph.byName.get(name) ?? [];
  if (recv === null) {
    const local = named(graph, name, 'plainByPath', from.path);
    if (local.length) return sameplace(graph, local);
    // A function imported by name runs the definition of its own name in the module the import
    // names, where that is one file of the repository (many functions share a name as common as
    // `run`: `use crab_process::spawn::{run, …}`); one imported under another name runs, failing
    // that, wherever its own name is defined.
    const imports = graph.facts.get(from.path)?.imports;
    const bound = imports?.find(([n, , original]) => n === name && original) ?? imports?.find(([n]) => n === name);
    if (bound) {
      const source = importedFile(graph, from.path, bound[1]);
      const there = source ? named(graph, bound[2] ?? name, 'plainByPath', source) : [];
      if (there.length) return sameplace(graph, there);
      if (bound[2]) return plainAnywhere(graph, bound[2]);
    }
    if (!all.length) return [];
    if (PYTHON_BUILTINS.has(name) && graph.files.get(from.path)?.language === 'python') return [];
    return plainAnywhere(graph, name);
  }
  // A Rust type's own function (`CustomScalarMap::from_str(…)`) is that type's where the repository
  // defines one; a type it does not define (`HeaderName::from_str(…)`) is a library's, whatever
  // function of that name the repository has. (A static in capitals, `GDB_MANAGER.create_session(…)`,
  // is a value: its method is found as any object's.)
  if (recv !== null && call === `${recv}.${name}` && /^[A-Z]/.test(recv) && !(STATIC_NAME.test(recv) && !definesType(graph, recv)) && graph.files.get(from.path)?.language === 'rust') {
    const own = named(graph, name, 'methodsByClass', recv);
    if (own.length) return own.length <= MAX_METHOD_TARGETS ? [...own] : [];
    return definesType(graph, recv) ? resolveOnce(graph, from, name) : [];
  }
  if (!all.length) return [];
  // An item assignment (`d[k] = v`) runs a class's item setter only where the repository has one:
  // with several, the object's class is not known, and a plain dict is likelier than any of them.
  if (ITEM_SETTERS.has(name) && all.length > 1) return [];
  if (recv) {
    // A module imported under a name of its own (`import * as BashCommand from './bashCommand'`,
    // `import tools.shell as sh`): a call on that name runs the function of the module's file.
    // (Or a module imported from its package under another name, `from backend.crud import
    // tool_auth as tool_auth_crud`: the file is the package's module of the original name.)
    if (call === `${recv}.${name}`) {
      const bound = graph.facts.get(from.path)?.imports?.find(([n]) => n === recv);
      const python = graph.files.get(from.path)?.language === 'python';
      const source = bound && !bound[2] ? importedFile(graph, from.path, bound[1]) : bound && python ? importedFile(graph, from.path, `${bound[1]}.${bound[2]}`) : undefined;
      const there = source ? named(graph, name, 'plainByPath', source) : [];
      if (there.length) return sameplace(graph, there);
    }
    const packaged = named(graph, name, 'plainByDirOrModule', recv);
    if (packaged.length) return sameplace(graph, packaged);
    // A call on a class by its name (`ShellExecutionService.execute(…)`, `Session.list(…)`) runs
    // that class's own method, however many other classes define one of that name.
    if (/^[A-Z]/.test(recv)) {
      const own = named(graph, name, 'methodsByClass', recv);
      if (own.length && own.length <= MAX_METHOD_TARGETS) return [...own];
    }
  }
  // In Python and Go a call on an object (a module's functions were read above) runs a method: a
  // function defined at module level under the same name (an MCP tool `create_page` that wraps its
  // client's `create_page`) is not the one it runs.
  const language = graph.files.get(from.path)?.language;
  const methodsOnly = language === 'python' || language === 'go';
  const candidates = methodsOnly ? all.filter((f) => f.method) : all;
  if (!candidates.length) return [];
  const traited = recv ? traitTyped(graph, from, name, recv) : [];
  if (traited.length) return traited;
  // `parts.append(x)`, `seen.add(k)`, `queue.push(j)`: on any receiver but the unit's own object,
  // a method name every list, set, map or string has is far likelier the built-in's than the one
  // project class that happens to define it too.
  const builtin = (COLLECTION_METHODS.has(name) && recv !== 'self' && recv !== 'this' && recv !== 'cls') || (EVENT_LOOP_METHODS.has(name) && /(?:^|_)loop$|^asyncio$/i.test(recv ?? ''));
  // An object held two fields down from the unit's own (`self.sandbox.commands.run(…)`, an SDK's
  // sub-client) is not the unit's own object: a method of the unit's own class of that name is
  // not the one it runs.
  if (/^(self|this)\.\w+\.\w+\./.test(call) && candidates.length === 1 && sameClass(graph, from, candidates[0]!)) return [];
  // The one method of that name in the repository, unless it sits in another project of a monorepo
  // (`img.save(…)` in one package is not the `save` another package's class defines).
  // (A field named for that method's class still reaches it there: `context.luaExecutor.execLua(…)`
  // in one package runs the `NvimLuaExecutor` another package implements.)
  if (candidates.length === 1) {
    if (builtin) return [];
    // (A method calling its own name on another object hands the call on, `client.callTool(…)`
    // inside the harness's `callTool`: a client library's method, not itself again.)
    if (candidates[0]!.id === from.id && !/^(self|this|cls)$/.test(recv ?? '')) return [];
    if (graph.project(candidates[0]!.path) === graph.project(from.path)) return [...candidates];
    return recv && RECEIVER_TYPE.test(recv) ? receiverTyped(graph, name, recv) : [];
  }
  // (A method calling its own name on another object, `execute_command.invoke(…)` inside `invoke`,
  // hands the call on: it is not calling itself.)
  const onOwnObject = recv === 'self' || recv === 'this';
  const local = named(graph, name, 'methodsByPath', from.path).filter((f) => onOwnObject || f.id !== from.id);
  if (local.length === 1 || (local.length && onOwnObject)) return builtin ? [] : sameplace(graph, local);
  // A call on an instance the code made of a class of its own (`bashExecutor.execute(…)` where
  // `export const bashExecutor = new BashExecutor()`) runs that class's method.
  const cls = recv && OWN_RECEIVER.test(call) ? instanceClass(graph, from.path, recv) : undefined;
  if (cls) {
    // (A member typed by an interface, `constructor(private shell: ShellService)`, runs the method
    // of the classes that implement it.)
    const own = ownProjectFirst(graph, from, named(graph, name, 'methodsByClass', cls));
    // (The object's class is known and defines the method: a name every list or set has is its own here.)
    const through = own.length ? own : implementorsOf(graph, cls).flatMap((c) => named(graph, name, 'methodsByClass', c));
    if (through.length && through.length <= MAX_METHOD_TARGETS) return [...through];
  }
  // A field named for the interface it holds (`context.shell.execute(…)`, `this.computer.click(…)`)
  // runs the method of the classes named for it that implement it side by side in one folder
  // (`SandboxShell` and `DockerShell`), or of the one class of that very name (`Computer`): each is
  // a path the call can take, whichever one the code was handed.
  const typed = recv && RECEIVER_TYPE.test(recv) && !builtin ? receiverTyped(graph, name, recv) : [];
  if (typed.length && typed.length <= MAX_FAMILY) return typed;
  const packages = packagesOf(graph, from);
  // (Each definition sits in one folder: the union has no repeats.)
  // (A module function there is no candidate where only methods are.)
  const inPackages = inOrder(graph, name, all, [...packages].flatMap((p) => named(graph, name, 'byDir', p)).filter((f) => !methodsOnly || f.method));
  const scoped = ownProjectFirst(graph, from, inPackages);
  if (scoped.length && scoped.length <= MAX_METHOD_TARGETS) return builtin ? [] : scoped;
  // Every method of that name in the caller's project sits in one package (`executor.Execute` on a
  // local, a Seatbelt or a Kubernetes executor): one interface's implementations, whichever the
  // configuration picks at run time, so each one is a path the call can take. (Another project of
  // a monorepo implements the interface for its own host: gemini-cli's editor integration.)
  const family = [...named(graph, name, 'byProject', graph.project(from.path))];
  if (!builtin && family.length && family.length <= MAX_FAMILY) {
    const folder = folderOf(family[0]!.path);
    if (family.every((f) => f.method && folderOf(f.path) === folder)) return family;
  }
  graph.ambiguous++;
  return [];
}

/**
 * A Rust receiver typed by a trait in the unit's parameters (`mut prompter: Option<&mut dyn
 * PermissionPrompter>`, `p: impl Prompter`): the methods of that name of the types the repository
 * implements the trait for (`impl PermissionPrompter for CliPermissionPrompter`), in whatever crate.
 */
function traitTyped(graph: Graph, from: Fn, name: string, recv: string): Fn[] {
  const file = graph.files.get(from.path);
  if (file?.language !== 'rust' || !/^\w+$/.test(recv)) return [];
  const head = file.text.slice(from.start, Math.min(from.end, from.start + 800));
  const params = head.slice(0, head.indexOf('{') < 0 ? undefined : head.indexOf('{'));
  const trait = new RegExp(`[(,\\s]${recv}\\s*:[^,)]*?\\b(?:dyn|impl)\\s+(?:\\w+::)*(\\w+)`).exec(params)?.[1];
  if (!trait) return [];
  const fns = implementorsOf(graph, trait, 'rust').flatMap((t) => named(graph, name, 'methodsByClass', t));
  return fns.length <= MAX_FAMILY ? fns : [];
}

/**
 * The definitions in the caller's own project of a monorepo, where any is: a folder or class name
 * another project shares (a sandbox service's own `services/FileService`) is not the one called.
 */
function ownProjectFirst(graph: Graph, from: Fn, fns: Fn[]): Fn[] {
  if (fns.length < 2) return fns;
  const own = fns.filter((f) => graph.project(f.path) === graph.project(from.path));
  return own.length ? own : fns;
}

/** The item setters an item assignment calls (`__setitem__`), by language syntax. */
const ITEM_SETTERS = new Set(Object.values(SYNTAX).flatMap((s) => (s.itemSetter ? [s.itemSetter.setter] : [])));

/** A name all in capitals: a constant or static where the repository defines no type of it (`GDB_MANAGER`, `TOOLS`). */
const STATIC_NAME = /^[A-Z][A-Z0-9_]*$/;

/** A receiver that can name a type: a lower-case name of four letters or more (`shell`, `sandboxExecutor`, `tool_manager`). */
const RECEIVER_TYPE = /^[a-z][A-Za-z0-9_]{2,}[A-Za-z0-9]$/;

/** The methods of a name in classes whose names end in the receiver's (`shell` → `SandboxShell`, `tool_manager` → `ToolManager`). */
function receiverTyped(graph: Graph, name: string, recv: string): Fn[] {
  const word = /[A-Z]?[a-z0-9]+$/.exec(recv)?.[0]?.toLowerCase();
  if (!word) return [];
  const end = recv.toLowerCase().replace(/_/g, '');
  const found = named(graph, name, 'methodsByClassWord', word).filter((f) => classOf(graph, f)!.toLowerCase().endsWith(end));
  // (One class of its own name, or ending in a receiver of two words or more: `luaExecutor` →
  // `NvimLuaExecutor`; a one-word `agent` names too many things to pick `RemoteAgent` by.)
  if (found.length === 1) return classOf(graph, found[0]!)!.toLowerCase() === end || /[a-z0-9][A-Z]|_[a-z]/.test(recv) ? found : [];
  const folder = found.length ? folderOf(found[0]!.path) : '';
  return found.every((f) => folderOf(f.path) === folder) ? found : [];
}

// A receiver that is a plain name or one field of the unit's own object (`executor.run`, `this.executor.run`).
const OWN_RECEIVER = /^(?:(?:this|self)\.)?[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/;

/**
 * The class a name is bound to an instance of, where the code makes it: `const x = new X(…)`,
 * `this.x = new X(…)`, `x = X(…)` (Python), or where a TypeScript member is declared with its type
 * (`constructor(private shell: ShellService)`), in the caller's own file, or else in the repository
 * file that the caller's import of that name points to (by the module's last segment, the one
 * file of that name whose folder ends as the import's does). One class or none: a name bound to
 * instances of two classes is not guessed at.
 */
function instanceClass(graph: Graph, path: string, recv: string): string | undefined {
  const own = bindingsOf(graph, path).get(recv);
  if (own !== undefined) return own ?? undefined;
  const module = graph.facts.get(path)?.imports?.find(([n]) => n === recv)?.[1];
  const source = module ? importedFile(graph, path, module) : undefined;
  const imported = source ? bindingsOf(graph, source).get(recv) : undefined;
  if (imported !== undefined) return imported ?? undefined;
  // A name taken apart from a typed object (`{ provider }: ToolDeps`) has the type its member is
  // declared with, where every TypeScript member of that name in the repository declares one type.
  return JS_LANGUAGES.has(graph.files.get(path)?.language ?? '') ? (memberTypes(graph).get(recv) ?? undefined) : undefined;
}

// A member of an interface, type or class declared with a type of the repository's naming
// (`provider: IGitProvider;`, `readonly shell?: ShellService;`), on a line of its own.
const TS_DECLARED_MEMBER = /(?:^|\n)[ \t]*(?:(?:private|public|protected|readonly)[ \t]+)*([A-Za-z_$][\w$]*)[ \t]*[?!]?:[ \t]*([A-Z][\w$]*)[ \t]*[;,]?[ \t]*(?=\n)/g;

/** Every TypeScript member name with the one type it is declared with across the repository (null where two disagree), read once per graph. */
function memberTypes(graph: Graph): Map<string, string | null> {
  if (!graph.memberTypes) {
    graph.memberTypes = new Map();
    for (const file of graph.files.values()) {
      if (!JS_LANGUAGES.has(file.language ?? '') || file.language === 'javascript') continue;
      for (const m of file.text.matchAll(TS_DECLARED_MEMBER)) bindOnce(graph.memberTypes, m[1]!, m[2]!);
    }
  }
  return graph.memberTypes;
}

// (The class may be named through its module: `new tools.ShellTool(…)`, `code_executor.CodeExecutor(…)`.)
const JS_BINDING = /(?:\b(?:const|let|var)\s+|\bthis\.)([A-Za-z_$][\w$]*)\s*(?::[^=\n]{1,80})?=\s*new\s+(?:[a-z_$][\w$]*\.)*([A-Z][\w$]*)\s*[(<]/g;
// A TypeScript member declared with its type: a constructor's parameter property (`private readonly
// shell: ShellService`) or a field (`private executor: CodeExecutor;`), whatever value it is given.
const TS_MEMBER = /(?:^|[\n(,])[ \t]*(?:(?:private|public|protected)[ \t]+(?:readonly[ \t]+)?|readonly[ \t]+)([A-Za-z_$][\w$]*)[ \t]*[?!]?:[ \t]*([A-Z][\w$]*)[ \t]*(?=[,;)=\n])/g;
// A class and its head up to the body (`class CliProvider extends Base implements IGitProvider, Disposable {`):
// one bounded run of characters, so no input makes it backtrack.
const TS_CLASS_HEAD = /\bclass[ \t]+([A-Z][\w$]*)([^{};]{0,300})\{/g;

// A Rust trait implemented for a type (`impl PermissionPrompter for CliPermissionPrompter`, `impl<T> runtime::Tool for Shell<T>`).
const RUST_IMPL_FOR = /\bimpl(?:<[^>{]*>)?\s+(?:\w+::)*(\w+)(?:<[^>{]*>)?\s+for\s+(?:\w+::)*(\w+)/g;

/**
 * The types of the repository that declare they implement or extend a type: TypeScript classes
 * (`implements`, `extends`) or Rust types a trait is implemented for. Read once per graph, each
 * language family apart.
 */
function implementorsOf(graph: Graph, type: string, family: 'js' | 'rust' = 'js'): string[] {
  if (!graph.implementors) {
    const all = (graph.implementors = { js: new Map<string, string[]>(), rust: new Map<string, string[]>() });
    const add = (map: Map<string, string[]>, base: string, impl: string) => {
      const list = map.get(base) ?? [];
      if (!list.includes(impl)) list.push(impl);
      map.set(base, list);
    };
    for (const file of graph.files.values()) {
      if (file.language === 'rust' && file.text.includes(' for ')) for (const m of file.text.matchAll(RUST_IMPL_FOR)) add(all.rust, m[1]!, m[2]!);
      if (!JS_LANGUAGES.has(file.language ?? '') || !file.text.includes('class ')) continue;
      for (const m of file.text.matchAll(TS_CLASS_HEAD)) {
        const head = m[2]!.replace(/<[^<>]*>/g, '');
        const at = head.search(/\b(?:extends|implements)\b/);
        if (at < 0) continue;
        const bases = head.slice(at).replace(/\b(?:extends|implements)\b/g, ',').split(',');
        for (const b of bases) {
          const base = b.trim().split('.').pop()!;
          if (/^[A-Z][\w$]*$/.test(base) && base !== m[1]) add(all.js, base, m[1]!);
        }
      }
    }
  }
  return graph.implementors[family].get(type) ?? [];
}
const PY_BINDING = /(?:^|\n)[ \t]*(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=\n]{1,80})?=\s*(?:[a-z_]\w*\.)*([A-Z]\w*)\(/g;
/** Per file, each name bound to an instance of a class: the class, or null where it is bound to instances of two. Read once per file. */
function bindingsOf(graph: Graph, path: string): Map<string, string | null> {
  let out = graph.instances.get(path);
  if (out) return out;
  out = new Map();
  graph.instances.set(path, out);
  const file = graph.files.get(path);
  if (!file) return out;
  const js = JS_LANGUAGES.has(file.language ?? '');
  const res = [...(js && file.text.includes('new ') ? [JS_BINDING] : []), ...(js && file.language !== 'javascript' ? [TS_MEMBER] : []), ...(file.language === 'python' ? [PY_BINDING] : [])];
  for (const re of res) for (const m of file.text.matchAll(re)) bindOnce(out, m[1]!, m[2]!);
  return out;
}

/** Binds a name to a type, or to null once a second, different type is seen for it: one type or none is guessed. */
function bindOnce(map: Map<string, string | null>, name: string, type: string): void {
  const known = map.get(name);
  map.set(name, known === undefined || known === type ? type : null);
}

/** The repository file an import names: the one file whose name is the module's last segment and whose folder ends as the module's does. */
const RELATIVE_ENDINGS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js'];

function importedFile(graph: Graph, from: string, module: string): string | undefined {
  // A relative path names one file from the importer's folder, whatever other files share its name.
  if (/^\.\.?\//.test(module)) {
    const segments = folderOf(from).split('/').filter(Boolean);
    for (const seg of module.replace(/\.[cm]?[jt]sx?$/, '').split('/')) {
      if (seg === '..') segments.pop();
      else if (seg && seg !== '.') segments.push(seg);
    }
    const base = segments.join('/');
    const found = RELATIVE_ENDINGS.map((e) => base + e).find((p) => graph.files.has(p));
    if (found) return found;
  }
  // (A Rust path names its module last, after the crate's: `crab_process::spawn` is a file `spawn.rs`.)
  const parts = module.includes('::') ? module.split('::').filter((p) => !/^(crate|self|super)$/.test(p)).slice(-1) : module.replace(/^[@~#]\//, '').replace(/\.[cm]?[jt]sx?$/, '').split(/[/.]/).filter((p) => p && p !== '..');
  const last = parts.pop();
  if (!last) return undefined;
  if (!graph.modules) {
    graph.modules = new Map();
    for (const p of graph.files.keys()) {
      const m = moduleName(p);
      const list = graph.modules.get(m);
      if (list) list.push(p);
      else graph.modules.set(m, [p]);
    }
  }
  const folder = parts.join('/');
  const candidates = (graph.modules.get(last) ?? []).filter((p) => p !== from && folderOf(p).slice(0, -1).endsWith(folder));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The innermost class definition of a file that holds the range [start, end], if any. */
export function classAround(graph: Graph, path: string, start: number, end: number): Definition | undefined {
  const classes = (graph.facts.get(path)?.definitions ?? []).filter((d) => d.role === 'class' && d.start <= start && end <= d.end);
  return classes.sort((x, y) => y.start - x.start)[0];
}

/** Whether the repository defines a type (class, struct, enum, trait) of that name. */
function definesType(graph: Graph, name: string): boolean {
  if (!graph.typeNames) {
    graph.typeNames = new Set();
    for (const f of graph.facts.values()) for (const d of f.definitions ?? []) if (d.role === 'class') graph.typeNames.add(d.name);
  }
  return graph.typeNames.has(name);
}

/** The name of the innermost class a method is written in, if any. */
const classOf = (graph: Graph, f: Fn): string | undefined => classAround(graph, f.path, f.start, f.end)?.name;

/** Whether two methods sit in one class definition of one file. */
function sameClass(graph: Graph, a: Fn, b: Fn): boolean {
  if (a.path !== b.path || !a.method || !b.method) return false;
  const ca = classAround(graph, a.path, a.start, a.end);
  return !!ca && ca === classAround(graph, b.path, b.start, b.end);
}

/** Packages (folders) a unit calls functions of by package name: where the types of its variables most likely come from. */
function packagesOf(graph: Graph, fn: Fn): Set<string> {
  let out = graph.packages.get(fn);
  if (out) return out;
  out = new Set([dirName(fn.path)]);
  // (A Go parameter typed from a package, `func(input playlist.Playlist, w io.Writer)`: its methods are that package's.)
  const file = graph.files.get(fn.path);
  if (file?.language === 'go') {
    const head = file.text.slice(fn.start, Math.min(fn.end, fn.start + 400));
    const params = /\(([^()]*)\)/.exec(head)?.[1] ?? '';
    for (const m of params.matchAll(/[\s*\[\]]([a-z]\w*)\.[A-Z]\w*/g)) out.add(m[1]!);
  }
  for (const [call] of fn.calls) {
    const { name, recv } = callParts(call);
    if (recv && named(graph, name, 'plainByDir', recv).length) out.add(recv);
    // A factory the unit calls by its bare name, defined once in another folder (`agent =
    // create_agent(config)`): the objects it hands back most likely come from its folder.
    const defs = recv === null ? named(graph, name, 'plain', '') : [];
    if (defs.length === 1 && defs[0]!.path !== fn.path && /^(?:create|make|build)_?[A-Za-z]|^[Nn]ew_?[A-Z]/.test(name)) out.add(dirName(defs[0]!.path));
  }
  graph.packages.set(fn, out);
  return out;
}

/** The innermost unit of a file covering an offset (the file's top level when no function does). */
export function unitAt(graph: Graph, path: string, offset: number): Fn | undefined {
  return (graph.byFile.get(path) ?? []).filter((u) => u.start <= offset && offset < u.end).pop();
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
    method: false,
    entry: false,
    start,
    end,
    line: lineOf(file, start),
    calls: units.flatMap((u) => u.calls.filter((c) => inside(c[1]))),
    sinks: units.flatMap((u) => u.sinks.filter((s) => inside(s.at))),
    asks: units.flatMap((u) => u.asks.filter((s) => inside(s.at))),
    checks: units.flatMap((u) => u.checks.filter((s) => inside(s.at))),
    isolated: !!around?.isolated || units.some((u) => u.isolated && start <= u.start && u.end <= end),
  };
  fn.calls.sort((a, b) => a[1] - b[1]);
  return fn;
}

export { lineOf };
