import { lineAt, lineText } from '../inventory/lines.js';
import type { RawFinding } from '../facts/extract.js';
import type { Fn, Graph } from './graph.js';
import { argumentListOf, argumentsAt, argumentsOf, carriedFrom, parameterList, parametersOf, PATH_METHOD, splitArguments, WORD } from './replies.js';

/**
 * Which names carry a tool's input, unit by unit down its call chain: the handler's parameters,
 * what a unit assigns from them, and the parameters of a callee given them. A file write none of
 * whose arguments (nor the path object it is called on) carries the input writes where the code
 * chose (a log, a screenshot, a cache): the tool runs it, the model does not direct it. Line-based
 * and generous: where an argument list cannot be read, everything counts as input.
 */

/** The input names of a unit: null where everything counts (unknown). */
export type Input = ReadonlySet<string> | null;

const RECEIVER = /^(self|cls|this)$/;
// A parameter the harness fills, not the model: a context (`ctx`, `ctx: ActionContext`,
// `ctx context.Context`, FastMCP's `ctx: Context`). A `context: str` the model writes is input.
const CONTEXT_PARAM = /^\s*_?ctx\b|^\s*\w+\s*(?::\s*|\s+\*?)(?:[\w.]*\.)?\w*Context(?:\[[^\]]*\]|<[^>]*>)?\s*(?:[=,)]|$)/;

/**
 * Marks input that the unit's own object holds: a tool written as a class (an invocation object
 * built from the model's arguments, `this.params.file_path`) carries its input in its fields.
 */
const FIELDS = '\0fields';

// The head of a function literal: an arrow function, `function`, a lambda, a Rust closure, a Go func literal.
const FUNCTION_LITERAL = /^\s*(?:async\s+)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>|lambda\b|(?:move\s*)?\||func\s*\()/;

/** The names a tool's handler takes from the model: every name in its parameter list, its receiver left out, and, for a tool written as a class, its object's fields. */
export function handlerInput(graph: Graph, fn: Fn, fieldsToo: boolean): Input {
  const listed = parameterList(graph, fn);
  const own = returnedParameters(graph, fn, listed) ?? listed;
  // A handler written in place inside a function (a branch of a dispatcher on the tool's name, an
  // arm of a `match`), not a function literal of its own, takes what that function was given: its
  // call and arguments are the model's.
  const block = fn.id < 0 && !FUNCTION_LITERAL.test(graph.files.get(fn.path)?.text.slice(fn.start, fn.start + 200) ?? '');
  const around = block ? (graph.byFile.get(fn.path) ?? []).filter((u) => u.id >= 0 && !u.name.startsWith('<') && u.start <= fn.start && fn.end <= u.end).pop() : undefined;
  const params = own === null && !around ? null : [...(own ?? []), ...(around ? (parameterList(graph, around) ?? []) : [])];
  if (params === null) return null;
  const out = new Set<string>();
  for (const p of params) {
    if (CONTEXT_PARAM.test(p)) continue;
    for (const w of p.matchAll(WORD)) if (!RECEIVER.test(w[0])) out.add(w[0]);
  }
  // A tool object's fields hold the model's arguments only where its run method is given none
  // (`class Shell(BaseModel): command: str` … `def run(self)`); one that takes them as parameters
  // (`__call__(self, params)`, `func (t *Tool) Run(ctx, args)`) keeps in its fields what the
  // harness set up (a runtime, a session folder).
  if (fieldsToo && !out.size) out.add(FIELDS);
  return out;
}

// A handler that takes nothing and hands back the function that runs the tool (`func (b *BashTool)
// Handler() ai.HandlerFunc { return func(ctx, params map[string]any) {…} }`): its statement returning it.
const RETURNS_LITERAL = /^[ \t]*return\s+(?:async\s+)?(?:func|function\b[\w$\s]*)?\s*\(/m;

/** The parameters of the function literal a unit that takes none (`own`, its list) returns first, or null. */
function returnedParameters(graph: Graph, fn: Fn, own: string[] | null): string[] | null {
  if (own === null || own.some((p) => p.trim() && !RECEIVER.test(p.trim()))) return null;
  const text = graph.files.get(fn.path)?.text.slice(fn.start, fn.end) ?? '';
  const body = text.indexOf('{') + 1;
  const m = RETURNS_LITERAL.exec(text.slice(body));
  if (!m) return null;
  const at = body + m.index + m[0].length - 1;
  const params = splitArguments(argumentsAt(text, at));
  // (An arrow's list must be followed by its arrow: `return (a, b)` is a value.)
  return params.length && (/func|function/.test(m[0]) || /^\([^)]*\)\s*(?::[^=]+)?=>/.test(text.slice(at, at + 300))) ? params : null;
}

const carriedCache = new WeakMap<Graph, Map<string, Map<string, number>>>();
/**
 * The input names inside `fn` at offset `to`: its input plus what it assigned from them, looped
 * over them or filled through a pointer from them before. A unit is read once per input it is
 * given, not once per call in it.
 */
function inputAt(graph: Graph, fn: Fn, to: number, input: ReadonlySet<string>): Set<string> {
  const file = graph.files.get(fn.path);
  if (!file || !input.size) return new Set(input);
  let byUnit = carriedCache.get(graph);
  if (!byUnit) carriedCache.set(graph, (byUnit = new Map()));
  const key = `${fn.id}\0${[...input].sort().join(' ')}`;
  let carried = byUnit.get(key);
  if (!carried) byUnit.set(key, (carried = carriedFrom(file, fn, lineAt(file, fn.start) + 1, Infinity, input, { pointers: true })));
  const last = lineAt(file, to);
  return new Set([...carried].filter(([, line]) => line < last).map(([name]) => name));
}

// An object field set outside its constructor from what a method was given, or declared as a
// typed field of the class (a tool whose arguments arrive as its fields): its value may be input.
const FIELD_SET = /^\s*(?:self|this)\.([A-Za-z_]\w*)\s*(?::[^=\n]+)?=(?!=)\s*(.*)$/;
const FIELD_DECLARED = /^\s+(?:(?:public|private|protected|readonly)\s+)*([A-Za-z_]\w*)[!?]?\s*:\s*[\w[\]|., <>]+\s*(?:=.*)?;?\s*$/;
const CONSTRUCTOR = /^(__init__|__post_init__|constructor|new|New\w*|init)$/;
const fieldsCache = new WeakMap<Graph, Map<string, Set<string>>>();
function inputFields(graph: Graph, path: string): Set<string> {
  let byPath = fieldsCache.get(graph);
  if (!byPath) fieldsCache.set(graph, (byPath = new Map()));
  let out = byPath.get(path);
  if (out) return out;
  out = new Set<string>();
  const file = graph.files.get(path);
  for (const fn of graph.byFile.get(path) ?? []) {
    if (!file || CONSTRUCTOR.test(fn.name) || fn.name.startsWith('<')) continue;
    const params = new Set(parametersOf(graph, fn));
    if (!params.size) continue;
    for (let line = lineAt(file, fn.start) + 1, last = lineAt(file, fn.end); line <= last; line++) {
      const m = FIELD_SET.exec(lineText(file, line));
      if (m && [...m[2]!.matchAll(WORD)].some((w) => params.has(w[0]))) out.add(m[1]!);
    }
  }
  if (file) for (const line of file.text.split('\n')) {
    const m = FIELD_DECLARED.exec(line);
    if (m && !/\(/.test(line)) out.add(m[1]!);
  }
  byPath.set(path, out);
  return out;
}

/**
 * Fields a constructor sets from what it was given, for the objects a tool builds from its input
 * (`Note(path, text).save()`): per tool, filled as its chain is walked.
 */
export type BuiltFields = Set<string>;

const classIndex = new WeakMap<Graph, Map<string, Fn[]>>();
/** The constructors of the classes of a name (`__init__`, `constructor` inside a class definition). */
function constructorsOf(graph: Graph, name: string): Fn[] {
  let index = classIndex.get(graph);
  if (!index) {
    index = new Map();
    for (const [path, facts] of graph.facts) {
      for (const c of facts.definitions.filter((d) => d.role === 'class')) {
        const ctor = (graph.byFile.get(path) ?? []).filter((u) => /^(__init__|constructor)$/.test(u.name) && c.start <= u.start && u.end <= c.end);
        if (ctor.length) index.set(c.name, [...(index.get(c.name) ?? []), ...ctor]);
      }
    }
    classIndex.set(graph, index);
  }
  return index.get(name) ?? [];
}

/** Records the fields a constructor called at `at` with input sets from its parameters. */
export function noteBuiltObjects(graph: Graph, fn: Fn, input: Input, built: BuiltFields): void {
  const file = graph.files.get(fn.path);
  if (!file) return;
  for (const [call, at] of fn.calls) {
    const name = call.slice(call.lastIndexOf('.') + 1);
    if (!/^[A-Z]/.test(name)) continue;
    for (const ctor of constructorsOf(graph, name)) {
      const given = calleeInput(graph, fn, at, { ...ctor, name }, input, built);
      if (given !== null && !given.size) continue;
      const cfile = graph.files.get(ctor.path);
      if (!cfile) continue;
      for (let line = lineAt(cfile, ctor.start) + 1, last = lineAt(cfile, ctor.end); line <= last; line++) {
        const m = FIELD_SET.exec(lineText(cfile, line));
        if (m && (given === null || [...m[2]!.matchAll(WORD)].some((w) => given.has(w[0])))) built.add(m[1]!);
      }
    }
  }
}

/** Whether `text` in `fn` names the input: one of `names` (the input names where it sits, from inputAt) or a field that holds input. */
function carriesInput(graph: Graph, fn: Fn, text: string, input: ReadonlySet<string>, names: ReadonlySet<string>, built: BuiltFields): boolean {
  if ([...text.matchAll(WORD)].some((w) => names.has(w[0]))) return true;
  const fields = inputFields(graph, fn.path);
  if ([...text.matchAll(/\b(?:self|this)\.([A-Za-z_]\w*)/g)].some((m) => input.has(FIELDS) || fields.has(m[1]!) || built.has(m[1]!))) return true;
  // A Go or Rust method's receiver is set up from what its callers were given, through struct
  // literals this reading does not follow: its fields count as input.
  const language = graph.files.get(fn.path)?.language;
  if (language === 'rust') return /\bself\./.test(text);
  const receiver = language === 'go' ? /^func\s*\(\s*([A-Za-z_]\w*)\s/.exec(graph.files.get(fn.path)!.text.slice(fn.start, fn.start + 200))?.[1] : undefined;
  return !!receiver && new RegExp(`\\b${receiver}\\.`).test(text);
}

/** Whether the arguments of the call at `at` (and `receiver`, the object it is called on) carry the input; true where they cannot be read. */
function callTakesInput(graph: Graph, fn: Fn, at: number, receiver: string | undefined, input: Input, built: BuiltFields): boolean {
  if (input === null) return true;
  const file = graph.files.get(fn.path);
  if (!file) return true;
  const args = argumentsOf(file, at);
  if (!args.trim() && receiver === undefined) return true;
  return carriesInput(graph, fn, `${receiver ?? ''} ${args}`, input, inputAt(graph, fn, at, input), built);
}

/**
 * Whether a database statement carries the input: the model writes the query. Only the statement
 * (the first argument) is read: values bound to its placeholders (`cursor.execute(SQL, (limit,))`)
 * are data the database quotes, not a query.
 */
export function statementTakesInput(graph: Graph, fn: Fn, sink: RawFinding, input: Input, built: BuiltFields): boolean {
  const file = graph.files.get(fn.path);
  const statement = file ? argumentListOf(file, sink.at)[0] : undefined;
  return input !== null && !!statement && carriesInput(graph, fn, statement, input, inputAt(graph, fn, sink.at, input), built);
}

/** Whether a write sink's arguments, or the path object it is called on, carry the input. */
export function writeTakesInput(graph: Graph, fn: Fn, sink: RawFinding, input: Input, built: BuiltFields): boolean {
  return callTakesInput(graph, fn, sink.at, PATH_METHOD.exec(sink.text)?.[1], input, built);
}

// Programs that run a file or a command they are given: shells, interpreters, compilers, build and
// test runners.
const FILE_RUNNERS = '(?:ba|z|da|fi)?sh|cmd(?:\\.exe)?|powershell|pwsh|python[\\d.]*|node|bun|deno|ruby|perl|php|lua|Rscript|julia|osascript|gcc|g\\+\\+|clang(?:\\+\\+)?|cc|go|javac?|rustc|cargo|dotnet|swift|kotlinc|tsc|ts-node|tsx|pytest|jest|vitest|mocha|npm|npx|pnpm|yarn|make|mvn|gradle';

/**
 * An interpreter, a compiler or a build or test runner named where a command is built, given a
 * file rather than a command string (`-c`, Windows' `cmd /c`, PowerShell's `-Command`) (`["bash",
 * "debug.sh"]`, `["gcc", path]`, `pytest`, `sys.executable`, `[python_executable, script_path]`):
 * the file it runs may be one the model wrote.
 */
const INTERPRETER = new RegExp(`["'\`](?:/usr)?(?:/bin/)?(?:${FILE_RUNNERS})(?=["'\`\\s])(?!["'\`]?\\s*,?\\s*["'\`]?(?:-\\w*c|\\/[cCkK]|-Command)\\b)|\\bsys\\.executable\\b|\\bprocess\\.execPath\\b|\\[\\s*(?:[\\w.]*\\.)?\\w*(?:python|interpreter)\\w*\\s*,\\s*[A-Za-z_]`);

/**
 * Whether the command started at `at` names an interpreter, a compiler or a build or test runner
 * given a file. The command may be put together before the call (`command = ["bash", script]`):
 * the unit's text up to the call's end is read.
 */
export function startsFileRunner(file: { text: string }, fn: Fn, at: number, chained = ''): boolean {
  return INTERPRETER.test(file.text.slice(fn.start, at) + argumentsOf(file, at) + (chained ? `, ${chained}` : ''));
}

/**
 * Whether the command started at `at` in `fn` is built from the input (where the arguments cannot
 * be read, it is), or starts an interpreter on a script file, which the model may have written.
 */
function commandTakesInput(graph: Graph, fn: Fn, at: number, input: Input, built: BuiltFields): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return true;
  // A Rust command is built after the call that names the program (`Command::new(shell).arg("-c").arg(&cmd)`).
  const chained = file.language === 'rust' ? builderArguments(file, at) : '';
  if (startsFileRunner(file, fn, at, chained)) return true;
  if (chained && input !== null && carriesInput(graph, fn, chained, input, inputAt(graph, fn, at, input), built)) return true;
  return callTakesInput(graph, fn, at, undefined, input, built);
}

/** `.args(["-c", cmd])` read as the arguments it lists. */
const listed = (args: string): string => args.replace(/^\s*&?(?:vec!)?\[([\s\S]*)\]\s*$/, '$1');

const BUILDER_CALL = /\s*\.\s*([A-Za-z_]\w*)\s*\(/y;
/**
 * The arguments of the `.arg(…)` / `.args([…])` calls chained after the call at `at`, joined; the
 * builder's other links (`.current_dir(…)`, `.env(…)`, `.stdout(…)`) are stepped over.
 */
function builderArguments(file: { text: string }, at: number): string {
  const text = file.text;
  const open = text.indexOf('(', at);
  if (open < 0) return '';
  let end = open + argumentsOf(file, at).length + 2;
  const parts: string[] = [];
  for (let n = 0; n < 32; n++) {
    BUILDER_CALL.lastIndex = end;
    const m = BUILDER_CALL.exec(text);
    if (!m) break;
    const args = argumentsOf(file, end);
    if (m[1] === 'arg' || m[1] === 'args') parts.push(listed(args));
    end += m[0].length + args.length + 1;
  }
  return parts.join(', ');
}

// A call that starts a process (a shell, a program): code evaluated in-process (`eval(condition)`)
// and keystrokes are not commands a caller hands over, and what they run is read as the model's.
const PROCESS_CALL = /^(?:await\s+)?(?:[\w.]*\.(?:system|popen|Popen|run|call|check_call|check_output|create_subprocess_shell|create_subprocess_exec|spawn|spawnSync|exec|execSync|execFile|execFileSync|Command|CommandContext)|execa|execaSync|execSync|execFile|execFileSync|spawnSync|[\w$]*[Ss]pawn)\s*\(/;

/**
 * A command a function is handed by its caller (the call is given its parameters as they came,
 * `spawn(command, args)`) that none of the tool's input reaches and that runs no file the model
 * may have written, in a function the tool's input does reach: a hook command from the user's
 * settings (`run_hook(h.command, payload)`). The tool runs it; the model does not choose it.
 */
export function handedOwnCommand(graph: Graph, fn: Fn, at: number, input: Input, built: BuiltFields): boolean {
  const file = graph.files.get(fn.path);
  if (input === null || !file || !PROCESS_CALL.test(file.text.slice(at, at + 80))) return false;
  // The command is what the call is given by position: not its options (`input=payload`, `{ cwd }`), which feed the command, not choose it.
  // It is handed over as it came (`spawn(command, args)`), not built here by a call (`Popen(self.worker_command(task_dir))`).
  const positional = argumentListOf(file, at).filter((a) => !/^\s*(?:\*\*|[A-Za-z_]\w*\s*=(?!=)|\{)/.test(a));
  if (!positional.length || !positional.every((a) => /^\s*(?:\.\.\.|\*)?[A-Za-z_$][\w$]*\s*$/.test(a))) return false;
  const command = positional.join(',');
  const params = new Set(parametersOf(graph, fn).filter((p) => !RECEIVER.test(p)));
  if (![...command.matchAll(WORD)].some((w) => params.has(w[0]))) return false;
  if (INTERPRETER.test(file.text.slice(fn.start, at) + argumentsOf(file, at))) return false;
  // The tool's input does reach this function, only not its command (`payload` above): where the
  // trace of the input was lost on the way here, the command may carry it unseen.
  const carried = inputAt(graph, fn, at, input);
  if (!carried.size || input.has(FIELDS)) return false;
  return !carriesInput(graph, fn, command, input, carried, built);
}

// A string literal (any quote; a Python prefix, but no f-string: it interpolates), a list of them, or an option given a literal.
const LITERAL_PART = /^(?:&?(?:vec!)?\[\s*)?(?:[rbu]?(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`$]*`)\s*,?\s*)+\]?$|^[A-Za-z_]\w*\s*=\s*(?:True|False|None|true|false|\d+|[rbu]?["'][^"'{}]*["'])$/;

/**
 * Whether the command started at `at` is written out in full in the code: every argument of the
 * call (and, in Rust, of the `.arg(…)` links after it) a literal (`Command::new("sh").arg("-c")
 * .arg("uptime")`, `subprocess.run(["git", "status"], check=True)`). The model chooses no part of it.
 */
export function fixedCommand(graph: Graph, fn: Fn, at: number): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return false;
  const parts = [...argumentListOf(file, at), ...(file.language === 'rust' ? [...splitArguments(builderArguments(file, at)), ...laterArguments(file, fn, at)] : [])].map((p) => p.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => LITERAL_PART.test(p));
}

/**
 * The arguments a Rust command bound to a name is given in later statements of the unit
 * (`let mut cmd = Command::new("sh"); cmd.args(["-c", &command]);`), each `.arg`/`.args` list read
 * as the arguments it holds.
 */
function laterArguments(file: { text: string }, fn: Fn, at: number): string[] {
  const bound = /\blet\s+(?:mut\s+)?([A-Za-z_]\w*)\s*(?::[^=\n]*)?=\s*$/.exec(file.text.slice(Math.max(fn.start, at - 200), at))?.[1];
  if (!bound) return [];
  const out: string[] = [];
  const body = file.text.slice(at, fn.end);
  for (const m of body.matchAll(new RegExp(`\\b${bound}\\s*\\.\\s*args?\\s*\\(`, 'g'))) {
    // (and the links chained after it: `cmd.arg("-c")⏎    .arg(command)`)
    out.push(...splitArguments(listed(argumentsOf(file, at + m.index!))), ...splitArguments(builderArguments(file, at + m.index!)));
  }
  return out;
}

/**
 * The programs a call names for a callee by a literal (`execProcess('git', args)` → `command` is
 * `git`): each parameter given a plain word in quotes, by position or by keyword.
 */
export function calleePrograms(graph: Graph, fn: Fn, at: number, callee: Fn): ReadonlyMap<string, string> | null {
  const file = graph.files.get(fn.path);
  if (!file) return null;
  const params = parametersOf(graph, callee);
  let out: Map<string, string> | null = null;
  argumentListOf(file, at, callee.name).forEach((arg, i) => {
    const keyword = /^\s*([A-Za-z_]\w*)\s*=(?!=)([\s\S]*)$/.exec(arg);
    const value = /^\s*["'`]([\w./-]+)["'`]\s*$/.exec(keyword ? keyword[2]! : arg)?.[1];
    const param = keyword ? (params.includes(keyword[1]!) ? keyword[1] : undefined) : params[i];
    if (value && param) (out ??= new Map()).set(param, value);
  });
  return out;
}

// A program that runs a command or a file it is given, or runs one elsewhere (`sudo`, `ssh`,
// `docker`): named by a caller, still a command.
const RUNS_COMMANDS = new RegExp(`^(?:/usr)?(?:/bin/)?(?:${FILE_RUNNERS}|uvx?|pip3?|sudo|su|doas|env|xargs|nohup|timeout|nice|watch|ssh|docker|podman|kubectl|wsl|find)$`);

/**
 * Whether a command sink starts a program its caller named by a literal that runs no command of
 * its own (`spawn(command, args)` in a helper handed `'git'`): a program with arguments, as
 * `spawn('git', args)` written in one place is (`spawn` in `model.yaml`).
 */
export function namedProgram(graph: Graph, fn: Fn, at: number, programs: ReadonlyMap<string, string> | null): boolean {
  const file = programs && graph.files.get(fn.path);
  if (!file) return false;
  const first = argumentListOf(file, at)[0]?.trim();
  const program = first ? programs!.get(first) : undefined;
  return !!program && !RUNS_COMMANDS.test(program);
}

/**
 * Whether the command a function starts at `at` is its own: none of its parameters, nor a field set
 * from what a method was given, reaches the call's arguments (`subprocess.run(self.notify_cmd,
 * shell=True)` in `ring_bell(self)`, an opener built from a configured path), and it starts no
 * interpreter on a script. Such a command is fixed by the code or the user's settings, not written
 * by the model. False for a script's top level and wherever the arguments cannot be read.
 */
export function ownCommand(graph: Graph, fn: Fn, at: number): boolean {
  return !fn.name.startsWith('<') && !commandTakesInput(graph, fn, at, handlerInput(graph, fn, false), new Set());
}

/** The input names of `callee` as `fn` calls it at `at`: the parameters given an argument that carries the input. */
export function calleeInput(graph: Graph, fn: Fn, at: number, callee: Fn, input: Input, built: BuiltFields): Input {
  if (input === null) return null;
  const file = graph.files.get(fn.path);
  if (!file) return null;
  const args = argumentListOf(file, at, callee.name);
  const params = parametersOf(graph, callee);
  // A method called on the unit's own object holds the same fields.
  const out = new Set<string>(input.has(FIELDS) && /^(?:self|this)\.\w+\s*\(/.test(file.text.slice(at, at + 200)) ? [FIELDS] : []);
  const names = inputAt(graph, fn, at, input);
  args.forEach((arg, i) => {
    if (!carriesInput(graph, fn, arg, input, names, built)) return;
    // `**kwargs`, `...args`: spread into any parameter.
    if (/^(\*\*?|\.\.\.)/.test(arg.trim())) for (const p of params) out.add(p);
    const keyword = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(arg.trim());
    if (keyword && params.includes(keyword[1]!)) out.add(keyword[1]!);
    else if (params[i]) out.add(params[i]!);
  });
  return out;
}

/** Whether a check's test (the branch's first line) reads the input where it sits. */
export function checkTakesInput(graph: Graph, fn: Fn, check: RawFinding, input: Input, built: BuiltFields): boolean {
  if (input === null) return true;
  return carriesInput(graph, fn, check.text, input, inputAt(graph, fn, check.at, input), built);
}
