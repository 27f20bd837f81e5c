import type { RawFinding } from '../facts/extract.js';
import { lineOf, resolve, unitAt, type Fn, type Graph } from './graph.js';
import { argumentListOf, callersByUnit, parametersOf } from './replies.js';
import type { SourceFile } from '../inventory/index.js';
import { enclosing, indentOf, lineAt, lineText, linesText, statementHead } from '../inventory/lines.js';
import type { GateKind } from '../rubric/names.js';

/** A place in the target, as evidence shows it. */
export interface Site {
  path: string;
  line: number;
  endLine: number;
  text: string;
  /** How to re-check it when not by the matcher that found it ('@line': the line still reads so). */
  check?: string;
}

/**
 * What an ask on a path amounts to in the shipped defaults:
 * - `always`: it runs before the step, unconditionally;
 * - `list`: it runs only for the tools a name list says (a membership test on the tool's name);
 * - `safe-list`: commands a prefix/safe check accepts skip it;
 * - `bypass-switch`: a switch (yolo, auto-approve …) can skip it, and is off unless the user turns it on;
 * - `opt-in`: it runs only when a switch that is off by default is turned on (so by default it does not);
 * - `condition`: some other condition can skip it (taken as asking, and said so);
 * - `overwrite`: it runs only when the target already exists (a file written afresh runs unasked);
 * - `switched-off`: the ask of the coding agent the path drives, which the code switches off
 *   (`permission_mode="bypassPermissions"`): it never runs.
 */
export interface Gate {
  site: Site;
  kind: GateKind;
  guard?: string;
  /** For `list`: the names in the list, and whether listed names skip the ask (`!list.has(name)`). */
  names?: string[];
  negate?: boolean;
  /** For `safe-list`: whether the safe check also refuses shell metacharacters (`;`, `|`, `$(`, `>`). */
  strict?: boolean;
  /** For `opt-in`: where the code sets the switch's default (an ask switch off, a bypass on). */
  switchOff?: Site;
  /** For `list`: where the list (its shipped default) is written. */
  listAt?: Site;
  /** The ask is given the action itself (a variable, an interpolation), not only fixed text. */
  showsInput: boolean;
  /** The site is a match of the ask rule itself (not a call of a helper that asks). */
  direct: boolean;
}

const KEYWORDS = new Set(['true', 'false', 'True', 'False', 'None', 'null', 'undefined', 'nil', 'await', 'new', 'self', 'this', 'f', 'r', 'b']);
/** Whether an ask's arguments carry something other than fixed text: `confirm(cmd)`, `input(f"Run {cmd}?")`. */
function showsInput(text: string): boolean {
  const open = text.indexOf('(');
  if (open < 0) return false;
  const args = text.slice(open + 1);
  if (/\$\{|\{[A-Za-z_][\w.]*(\[[^\]]*\])?\}|%[sdr]["'`]?\s*%|["'`]\s*\+\s*[A-Za-z_]|[A-Za-z_][\w.]*\s*\+\s*["'`]/.test(args)) return true;
  const bare = args.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '');
  return [...bare.matchAll(/[A-Za-z_][\w]*/g)].some((m) => !KEYWORDS.has(m[0]));
}

/** Which gates stand in the way of a tool, given its name: the ask holds for it in the defaults. */
export function gateHolds(gate: Gate, toolName: string, kind: string): boolean {
  switch (gate.kind) {
    case 'always':
    case 'bypass-switch':
    case 'condition':
      return true;
    case 'opt-in':
    case 'overwrite':
    case 'switched-off':
    // (Driven headless, as an SDK or a CLI with a prompt runs it, the agent's approvals ask no one:
    // they refuse what its allowed list leaves out and run the rest unasked.)
    case 'driven-agent':
      return false;
    case 'list':
      return gate.names!.includes(toolName) !== !!gate.negate;
    case 'safe-list':
      // Commands the safe check lets through run unasked; without a metacharacter check, any command can.
      return kind !== 'exec' || !!gate.strict;
  }
}

const NEGATIVE_SWITCH = /(?:yolo|auto_?approv|autoapprov|skip_?(?:perm|confirm|approv|ask)|dangerous|trust_?all|no_?confirm|bypass|always_?allow|allow_?all|unattended|headless|non_?interactive|auto_?run|autorun|force)/i;
const POSITIVE_SWITCH = /(?:confirm|approv|interactive|require|safe_?mode|permission|ask)/i;
// A condition that is one switch read as it is: `leash`, `self.confirm`, `config.get("leash")`, `opts["ask"]`.
const BARE_SWITCH = /^\s*(?:(?:self|this|cls|config|cfg|settings|options|opts|args)\s*(?:\.\s*|\.get\(\s*["']|\[\s*["']))?([A-Za-z_$][\w$]*)["']?\s*[\])]?\s*$/;
// A check of the command itself: one the ask runs for only when the command is judged unsafe
// (`if modifiesResource(cmd)`, `if is_dangerous(cmd)`) lets through whatever the judge calls safe.
const SAFE_CHECK = /(?:safe|read_?only|readonly|allow(?:ed)?|trusted|harmless|whitelist|allowlist|startsWith|HasPrefix|starts_with|startswith|modif(?:y|ies)|mutat|destructive|dangerous)/i;
const MEMBERSHIP = /!?\s*\(?\s*([A-Za-z_$][\w$.]*)\s*\.\s*(?:has|includes|contains|__contains__)\s*\(|\b(not\s+)?in\s+([A-Za-z_$][\w$.]*)|slices\.Contains\(\s*([A-Za-z_$][\w$.]*)/;
// A literal (string or regex class) naming two or more shell metacharacters: the check refuses chaining, pipes, substitution, redirection.
// Two different ones, or a chaining operator (`"&&"`, `"||"`): a prompt marker (`">>>"`) or a code
// fence ("```") names one character, and refuses nothing.
const METACHAR_LITERAL = /["'`/[][^"'`\n\]]{0,10}[;|&$>`][^"'`\n\]]{0,6}[;|&$>`][^"'`\n\]]{0,10}["'`/\]]/g;
const refusesMetachars = (text: string): boolean =>
  [...text.matchAll(METACHAR_LITERAL)].some((m) => /&&|\|\|/.test(m[0]) || new Set(m[0].slice(1, -1).match(/[;|&$>`]/g)).size >= 2);

/** A switch's default from the code that defines it: `name = False`, `default=False` next to `--name`, a Go bool field (false); and where. */
const switchDefaults = new WeakMap<Graph, Map<string, { value: boolean; site: Site } | null>>();
export function switchDefault(graph: Graph, name: string): { value: boolean; site: Site } | null {
  // (Asked for the same names again and again by the path walks; each answer reads every file.)
  let known = switchDefaults.get(graph);
  if (!known) switchDefaults.set(graph, (known = new Map()));
  let d = known.get(name);
  if (d === undefined) known.set(name, (d = readSwitchDefault(graph, name)));
  return d;
}

function readSwitchDefault(graph: Graph, name: string): { value: boolean; site: Site } | null {
  const flag = name.replace(/_/g, '-');
  // (A Go field's flag is spelled in kebab case: `EnableDelete` is set by `--enable-delete`.)
  const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const flags = [...new Set([name, flag, kebab])].join('|');
  // (Global, for `matchAll`, which reads a copy: the same expressions serve every file and both passes.)
  const res = [
    // `name = False`, `name: bool = False`, and a key of a defaults table (`"name": False`).
    new RegExp(`\\b${name}["']?\\s*(?::[^=\\n]{0,60})?[=:]\\s*(True|False|true|false)\\b`, 'g'),
    new RegExp(`["'](?:--)?(?:${flags})["'][^\\n]{0,200}\\bdefault\\s*[=:]\\s*(True|False|true|false)\\b`, 'g'),
    // A settings lookup by the switch's key with a literal fallback: `get_bool_value("yolo_mode", True)`,
    // `config.get("auto_approve", False)`, `settings.get('yolo', true)`.
    new RegExp(`\\(\\s*["']${name}["']\\s*,\\s*(?:default\\s*=\\s*)?(True|False|true|false)\\s*\\)`, 'g'),
    // A command-line flag declared with its default after its name (and shorthand): `BoolVar(&v, "enable-delete", false, …)`.
    new RegExp(`["'](?:--)?(?:${flags})["']\\s*,\\s*(?:["'][^"'\\n]{0,3}["']\\s*,\\s*)?(True|False|true|false)\\s*[,)]`, 'g'),
  ];
  const candidates = [...graph.files.values()].filter((file) => file.text.includes(name) || file.text.includes(flag) || file.text.includes(kebab));
  // (A value declared or keyed ships; one assigned to an object's member, `settings.x = true` under
  // `if (process.env.X)`, is set at run time, and counts only where nothing declares one.)
  for (const member of [false, true]) {
    for (const file of candidates) {
      for (const re of res) {
        for (const m of file.text.matchAll(re)) {
          if (!member && /\.\s*$/.test(file.text.slice(Math.max(0, m.index - 3), m.index))) continue;
          return { value: /^t/i.test(m[1]!), site: lineSite(graph, file.path, m.index) };
        }
      }
    }
  }
  // (Else a field its constructor sets from a parameter, `BashTool{requiresConfirmation: requiresConfirmation}`
  // in `NewBashTool(bus, requiresConfirmation bool)`: the literal every call of the constructor
  // passes there, `NewBashTool(bus, false)`; a parameter some call gives otherwise is no default.)
  const given = constructorLiteral(graph, candidates, name);
  if (given !== undefined) return given;
  // (Else a Go field declared as a bool and never given a literal: it starts false.)
  for (const file of candidates) {
    const bool = file.language === 'go' ? new RegExp(`\\b${name}\\s+bool\\b`, 'i').exec(file.text) : null;
    if (bool) return { value: false, site: lineSite(graph, file.path, bool.index) };
  }
  return null;
}

/**
 * A field set in a constructor from one of its parameters, and the literal every product call of
 * that constructor passes at the parameter's place: undefined where no constructor sets it so,
 * null where a call passes something else (or the calls cannot be read).
 */
function constructorLiteral(graph: Graph, candidates: SourceFile[], name: string): { value: boolean; site: Site } | null | undefined {
  const set = new RegExp(`(?:^|[^\\w$.])(?:(?:this|self)\\s*\\.\\s*)?${name}\\s*(?::(?!=)|=(?!=))\\s*([A-Za-z_$][\\w$]*)\\s*(?:[,;}\\n]|$)`, 'g');
  for (const file of candidates) {
    for (const m of file.text.matchAll(set)) {
      if (/^(true|false|True|False|nil|null|None)$/.test(m[1]!)) continue;
      const unit = unitAt(graph, file.path, m.index!);
      if (!unit || unit.name.startsWith('<')) continue;
      const params = parametersOf(graph, unit);
      const index = params.indexOf(m[1]!);
      if (index < 0) continue;
      // (The calls the graph resolves to the constructor: not a mention in a comment or a string.)
      let found: { value: boolean; site: Site } | null = null;
      for (const [caller, at] of callersByUnit(graph).get(unit.id) ?? []) {
        const f = graph.files.get(caller.path);
        if (!f) return null;
        const v = /^(true|false|True|False)$/.exec((argumentListOf(f, at, unit.name)[index] ?? '').trim())?.[1];
        if (!v) return null;
        const value = /^t/i.test(v);
        if (found && found.value !== value) return null;
        found ??= { value, site: lineSite(graph, f.path, at) };
      }
      return found;
    }
  }
  return undefined;
}

function unitText(graph: Graph, fn: Fn): string {
  const file = graph.files.get(fn.path);
  return file ? file.text.slice(fn.start, fn.end) : '';
}

// A call that puts something on the user's screen: a print, an echo, a display or preview helper.
const SHOWS = /(?:^|[^\w.])(?:[\w.]*\.)?(?:\w*(?:print|echo|display|preview)\w*|console\.(?:log|info|warn)|(?:fmt\.)?(?:Print|Fprint)\w*|print(?:ln)?!|eprintln!|(?:sys|process)\.stdout\.write)\s*\(/i;
const SHOWN_LINES = 4;

/**
 * Whether the user sees the action when asked: the ask's own arguments carry it (the whole call,
 * across lines: a menu whose choices are the commands), or one of the few lines right before the
 * ask, in the same unit, shows a value that is not fixed text (`print(f"Cmd: {command}")` then
 * `input("Run it?")`).
 */
function askShows(graph: Graph, fn: Fn, ask: { at: number; end: number; text: string }): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return showsInput(ask.text);
  if (showsInput(file.text.slice(ask.at, Math.min(ask.end, ask.at + 2000)))) return true;
  const line = lineOf(file, ask.at);
  const from = Math.max(fn.start, file.lineStarts[Math.max(0, line - 1 - SHOWN_LINES)] ?? 0);
  return file.text
    .slice(from, file.lineStarts[line - 1] ?? ask.at)
    .split('\n')
    .some((l) => {
      const m = SHOWS.exec(l);
      return !!m && printsValue(l.slice(m.index));
    });
}

/** Whether a display call's arguments carry a value: interpolated or concatenated into the text, or a name passed as it is (a call's name, `colored(…)`, is no value). */
function printsValue(text: string): boolean {
  const args = text.slice(text.indexOf('(') + 1);
  if (/\$\{|\{[A-Za-z_][\w.]*(\[[^\]]*\])?(![rsa])?(:[^}]*)?\}|%[sdr]["'`]?\s*%|["'`]\s*\+\s*[A-Za-z_]|[A-Za-z_][\w.]*\s*\+\s*["'`]/.test(args)) return true;
  const bare = args.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '');
  return [...bare.matchAll(/[A-Za-z_][\w.]*(?!\s*[\w.(])/g)].some((m) => !KEYWORDS.has(m[0]) && !/^\w+=$/.test(m[0]) && bare[m.index! + m[0].length] !== '=');
}

/** Classifies the condition that can skip an ask (see Gate). */
function classify(graph: Graph, fn: Fn, guard: string | undefined, site: Site, direct: boolean, shows = showsInput(site.text)): Gate {
  const gate = classifyGuard(graph, fn, guard, site);
  return { ...gate, showsInput: shows, direct };
}

/** Whether a membership test in `text` is negated: `!list.has(x)`, `x not in list`. */
function membershipNegated(text: string, member: RegExpExecArray): boolean {
  return /^\s*(!|not\b)/.test(text.slice(Math.max(0, member.index - 2), member.index + 2)) || !!member[2] || /!\s*\(?\s*$/.test(text.slice(0, member.index + 1));
}

/**
 * A name list's shipped default where the code declares it as a setting rather than a plain
 * binding: a schema field's default (`confirmationRequiredTools: z.array(z.string()).default([…])`,
 * `Field(default_factory=lambda: […])`) or an object's key (`askTools: […]`). The declaration and
 * its default must be one statement: no `;` and no other key between them.
 */
function listDefault(graph: Graph, name: string): { names: string[]; site: Site } | null {
  const key = new RegExp(`(?:^|[^\\w$.])["']?${name.replace(/\$/g, '\\$')}["']?\\s*(?::[^=;\\n]{0,80})?[:=]`, 'g');
  for (const file of graph.files.values()) {
    if (!file.text.includes(name)) continue;
    for (const m of file.text.matchAll(key)) {
      const after = file.text.slice(m.index! + m[0].length, m.index! + m[0].length + 600);
      const open = /^\s*(?:new\s+Set\(\s*|(?:frozenset|set|tuple|list)\(\s*)?\[|^[^;]*?(?:\.default\(\s*|\bdefault(?:_factory)?\s*=\s*(?:lambda\s*:\s*)?)\[/.exec(after);
      if (!open || /\n\s*["']?[A-Za-z_$][\w$]*["']?\s*:(?!:)/.test(after.slice(0, open.index + open[0].length - 1).replace(/^[^\n]*/, ''))) continue;
      const body = after.slice(open.index + open[0].length);
      const close = body.indexOf(']');
      if (close < 0) continue;
      const names = [...body.slice(0, close).matchAll(/["'`]([\w.:/-]{1,60})["'`]/g)].map((x) => x[1]!);
      return { names, site: lineSite(graph, file.path, m.index! + m[0].length - 1) };
    }
  }
  return null;
}

/** A name list bound to a collection literal (`NEEDS_APPROVAL = {"shell", "write"}`): its names and where it is bound. */
function listBinding(graph: Graph, name: string): { names: string[]; site: Site } | null {
  for (const [path, facts] of graph.facts) {
    const names = (facts.collections ?? []).find(([n]) => n === name)?.[1];
    if (!names || !graph.files.has(path)) continue;
    const def = facts.definitions.find((d) => d.role === 'binding' && d.name === name);
    return { names, site: lineSite(graph, path, def ? def.start : 0) };
  }
  return null;
}

/**
 * The membership test a guard makes, written in it or in a helper of the repository's own that it
 * calls and whose answer the helper returns (`requiresConfirmation() { return
 * this.config.confirmationRequiredTools.includes(this.name) }`): the test's text and match, and
 * whether the guard negates the helper's answer.
 */
function guardMembership(graph: Graph, fn: Fn, guard: string): { text: string; member: RegExpExecArray; negated: boolean } | null {
  const own = MEMBERSHIP.exec(guard);
  if (own) return { text: guard, member: own, negated: false };
  for (const call of guard.matchAll(/([A-Za-z_$][\w$.]*)\s*\(/g)) {
    const name = call[1]!;
    const last = name.split('.').pop()!;
    for (const helper of [...resolve(graph, fn, name), ...(name.includes('.') ? resolve(graph, fn, `.${last}`) : [])]) {
      const ret = /(?:^|\n)\s*return\s+([^\n]*)/.exec(unitText(graph, helper));
      const member = ret ? MEMBERSHIP.exec(ret[1]!) : null;
      if (member) return { text: ret![1]!, member, negated: /(?:!|\bnot\s+)\s*$/.test(guard.slice(0, call.index)) };
    }
  }
  return null;
}

/** Whether a condition reads a switch negated (`!opts.yolo`, `not self.confirm`). */
const negates = (condition: string, name: string): boolean => new RegExp(`(?:!\\s*|\\bnot\\s+)(?:[\\w$]+\\.)*${name.replace(/\$/g, '\\$')}\\b`).test(condition);

/**
 * Where a condition asks only without a bypass (`not yolo_mode and …`, `!opts.autoApprove`) that
 * the code defining it turns on (`get_bool("yolo_mode", True)`): the site of that default, or null.
 * Asking is then opt-in, as behind an ask switch that is off.
 */
function bypassOn(graph: Graph, condition: string): Site | null {
  const bypass = [...condition.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]).find((w) => NEGATIVE_SWITCH.test(w));
  if (!bypass || !negates(condition, bypass)) return null;
  const d = switchDefault(graph, bypass);
  return d?.value ? d.site : null;
}

// The head of an `if`, `elif` or `else if` block, and its condition.
const IF_HEAD = /^\s*(?:\}\s*)?(?:else\s+if|elif|if)\b\s*\(?(.*?)\)?\s*[:{]?\s*$/;

// A value the unit reads from the call's arguments under a key that asks for a confirmation
// (`explicit, _ := params["requires_confirmation"].(bool)`, `confirm = args.get("confirm")`): the model chooses it.
// (Read off a parameter of the unit or of a function literal in it: a settings lookup,
// `settings.get("confirm_scripts")`, is the harness's switch.)
// (A key, not a method: `s.approvalPolicy.ShouldRequireApproval(…)` asks the harness's policy.)
const CHOSEN_KEY = /([A-Za-z_$][\w$]*)\s*(?:\[\s*["'`]|\.get\(\s*["'`]|\.)(\w*(?:confirm|approv|permission)\w*)(?:["'`]\s*[\])]|(?![\w$]*[ \t]*[(.]))/i;
const LITERAL_PARAMS = /\bfunc\s*\(([^()]*)\)|\bfunction\s*\w*\s*\(([^()]*)\)|\(([^()]*)\)\s*(?::[^=\n]{0,80})?=>|\blambda\s+([^:]*):/g;

/** The parameter names of a unit and of the function literals in its text so far. */
function takenParameters(graph: Graph, fn: Fn, body: string): Set<string> {
  const out = new Set(parametersOf(graph, fn));
  // (Literals inside the unit, past its own header: a Go method's receiver is no argument.)
  const open = body.search(/[{:]\s*\n/);
  for (const m of body.slice(open < 0 ? body.length : open).matchAll(LITERAL_PARAMS)) {
    for (const p of (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').split(',')) {
      const name = /^\s*[*&]?\s*([A-Za-z_$][\w$]*)/.exec(p)?.[1];
      if (name) out.add(name);
    }
  }
  return out;
}

/**
 * Where a block's condition leaves the ask to the model: every term of it (`a || b`) is either
 * read off the call's arguments under a confirm key or a switch off by default, and one is the
 * former (`if b.requiresConfirmation || explicitConfirmation {`, the first false at every
 * construction). The site that says so (the switch's default, else the argument read), or null.
 */
function chosenByModel(graph: Graph, fn: Fn, body: string, condition: string): Site | null {
  let chosen: Site | null = null;
  let off: Site | null = null;
  // (Read once, when a term is first found bound in the unit.)
  let taken: Set<string> | undefined;
  const terms = condition.replace(/\{\s*$/, '').split(/\|\||\bor\b/).map((t) => t.trim().replace(/^\(\s*|\s*\)$/g, ''));
  const all = terms.every((t) => {
    const name = /^(?:[A-Za-z_$][\w$]*\s*\.\s*){0,3}([A-Za-z_$][\w$]*)$/.exec(t)?.[1];
    if (!name) return false;
    const bound = new RegExp(`(?:^|\\n)[ \\t]*(?:(?:const|let|var)\\s+)?${name.replace(/\$/g, '\\$')}\\b[^=\\n]*(?::=|=(?!=))([^\\n]*)`).exec(body);
    if (bound) {
      const key = CHOSEN_KEY.exec(bound[1]!);
      if (!key || !(taken ??= takenParameters(graph, fn, body)).has(key[1]!)) return false;
      chosen ??= lineSite(graph, fn.path, fn.start + bound.index + (bound[0].startsWith('\n') ? 1 : 0));
      return true;
    }
    const d = switchDefault(graph, name);
    if (!d || d.value) return false;
    off ??= d.site;
    return true;
  });
  return all && chosen ? (off ?? chosen) : null;
}

/**
 * An ask in a block that runs only without a bypass on by default (`if not yolo_mode and
 * sys.stdin.isatty():` around the prompt): it asks only once someone turns the bypass off. Or one
 * in a block whose condition leaves it to the model (its nearest block, `chosenByModel`): by
 * default, the model decides whether anyone is asked. Either way the ask is opt-in.
 */
function inSwitchedBlock(graph: Graph, fn: Fn, at: number, gate: Gate): Gate {
  const file = graph.files.get(fn.path);
  if (!file || gate.kind === 'opt-in') return gate;
  const choosable = gate.kind === 'always' || gate.kind === 'condition';
  const body = file.text.slice(fn.start, at);
  let chosen: Gate | null = null;
  let nearest = true;
  for (const n of enclosing(file, at, fn.start)) {
    const head = IF_HEAD.exec(lineText(file, n));
    if (!head) continue;
    const on = bypassOn(graph, head[1]!);
    if (on) return { ...gate, kind: 'opt-in', guard: head[1]!.trim(), switchOff: on };
    const by = nearest && choosable ? chosenByModel(graph, fn, body, head[1]!) : null;
    if (by) chosen = { ...gate, kind: 'opt-in', guard: head[1]!.trim(), switchOff: by };
    nearest = false;
  }
  return chosen ?? gate;
}

function classifyGuard(graph: Graph, fn: Fn, guard: string | undefined, site: Site): Omit<Gate, 'showsInput' | 'direct'> {
  if (!guard) return { site, kind: 'always' };
  const found = guardMembership(graph, fn, guard);
  if (found) {
    const { text, member } = found;
    const list = (member[1] ?? member[3] ?? member[4] ?? '').split('.').pop()!;
    const declared = listBinding(graph, list) ?? listDefault(graph, list);
    if (declared) return { site, kind: 'list', guard, names: declared.names, listAt: declared.site, negate: membershipNegated(text, member) !== found.negated };
  }
  // (A switch read as it is that says it asks, `if (this.safeMode)`, is the ask's own switch below,
  // not a check of the command.)
  const bareAsk = BARE_SWITCH.exec(guard.replace(/^\s*\(\s*|\s*\)\s*$/g, ''))?.[1];
  if (SAFE_CHECK.test(guard) && !(bareAsk && POSITIVE_SWITCH.test(bareAsk))) {
    // The safe check's own code, or the asking unit, must refuse shell metacharacters for the list to be safe.
    const called = [...guard.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)].flatMap((m) => resolve(graph, fn, m[1]!));
    const strict = [fn, ...called].some((u) => refusesMetachars(unitText(graph, u)));
    return { site, kind: 'safe-list', guard, strict };
  }
  if (NEGATIVE_SWITCH.test(guard)) {
    const on = bypassOn(graph, guard);
    return on ? { site, kind: 'opt-in', guard, switchOff: on } : { site, kind: 'bypass-switch', guard };
  }
  // The ask runs only while a switch is on (`if confirm_first:`, `if leash:`, `if (opts.interactive && …)`):
  // when the code that defines the switch sets it off, asking is opt-in. A bare switch counts
  // whatever its name; in a longer condition, only a name that says it asks.
  const bare = BARE_SWITCH.exec(guard)?.[1];
  const name = bare ?? (POSITIVE_SWITCH.test(guard) ? [...guard.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]).reverse().find((w) => POSITIVE_SWITCH.test(w)) : undefined);
  // A switch the guard negates (`if !a.approved`) asks while it is off: off by default, it asks.
  const negated = name ? negates(guard, name) : false;
  const off = name && !negated ? switchDefault(graph, name) : null;
  if (off && !off.value) return { site, kind: 'opt-in', guard, switchOff: off.site };
  return { site, kind: 'condition', guard };
}

/** What declaredGate looks for: one of the rubric's declaration names given a value (`name: value`, `name=value`). */
export const declarationPattern = (names: string): RegExp => new RegExp(`(?:^|[^\\w$])["']?(?<key>${names})["']?\\s*[:=]\\s*(?<value>[^,\\n})]+)`);

/**
 * The approval a tool's own definition declares (`needsApproval: true`, `needs_approval=True`): the
 * framework asks the user before the tool runs, so every path of the tool is gated there. Declared
 * off (`false`, `None` …) is none; a value computed at run time (a function deciding per call) is a
 * `condition`. What the framework's prompt shows is not the definition's to say: not taken as shown.
 * A key no framework reads declares an ask only where `honoured` says the harness reads it.
 */
export function declaredGate(graph: Graph, path: string, from: number, endLine: number, declaration: RegExp, honoured: (key: string) => boolean): Gate | null {
  const file = graph.files.get(path);
  if (!file) return null;
  const m = declaration.exec(file.text.slice(from, file.lineStarts[endLine] ?? file.text.length));
  const { key, value } = m?.groups ?? {};
  if (!m || !honoured(key!) || /^\s*(?:false|False|None|null|undefined|0)\b|^\s*["'`](?:never|none|off|auto|skip|no|false)["'`]/i.test(value!)) return null;
  const site = lineSite(graph, path, from + m.index + m[0].search(/[\w$"']/));
  return { site: { ...site, check: '@line' }, kind: /^\s*(?:true|True|1)\s*$/.test(value!) ? 'always' : 'condition', showsInput: false, direct: true };
}

function lineSite(graph: Graph, path: string, at: number): Site {
  const file = graph.files.get(path)!;
  const line = lineOf(file, at);
  return { path, line, endLine: line, text: linesText(file, line).trim().slice(0, 160) };
}

// A function literal written after one of these on its line runs now: a promise's executor, an
// awaited call's callback (`await run_in_executor(None, lambda: input(…))`), an array walk.
const RUNS_NOW = /\bawait\b|\bnew\s+Promise\b|\.(?:forEach|map|filter|some|every|reduce|find)\s*\(|\b(?:run_in_executor|to_thread|run_sync)\b/;

/**
 * [start, end) offsets of the function literals in a file whose body runs later, when something
 * calls them (a callback stored in an object, a UI handler, a hook passed as an argument), not in
 * line with the code around them.
 */
const laterCache = new WeakMap<Graph, Map<string, number[]>>();
function runsLater(graph: Graph, path: string): number[] {
  let byPath = laterCache.get(graph);
  if (!byPath) laterCache.set(graph, (byPath = new Map()));
  let ranges = byPath.get(path);
  if (ranges) return ranges;
  ranges = [];
  const inline = graph.facts.get(path)?.inline ?? [];
  const text = graph.files.get(path)?.text ?? '';
  for (let i = 0; i < inline.length; i += 2) {
    const start = inline[i]!;
    if (!RUNS_NOW.test(text.slice(text.lastIndexOf('\n', start - 1) + 1, start))) ranges.push(start, inline[i + 1]!);
  }
  byPath.set(path, ranges);
  return ranges;
}

/** Whether `at` sits in a function literal that runs later and does not also hold `step` (the place being reached). */
function deferred(graph: Graph, fn: Fn, at: number, step?: number): boolean {
  const ranges = runsLater(graph, fn.path);
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! <= at && at < ranges[i + 1]! && (step === undefined || !(ranges[i]! <= step && step < ranges[i + 1]!))) return true;
  }
  return false;
}

/**
 * Units that wait for the user's answer, directly or through a helper they call (two levels). An
 * ask in a callback the unit only stores or hands on (`onSave: () => confirm(…)`) is not the
 * unit's: calling the unit does not wait for it.
 */
export function askingUnits(graph: Graph): Set<number> {
  // An ask matched by its name that calls the repository's own function (`confirm_system_prompt(…)`)
  // asks only if that function does: it is taken as a helper call below, never as an ask itself.
  // (An ask raised to the app stops its own unit's steps; its caller gets an exception, not an answer.)
  const asking = new Set(graph.fns.filter((f) => f.asks.some((a) => !raisedAsk(a) && !deferred(graph, f, a.at) && ownHelper(graph, f, a) === null && !grantsUnasked(graph, f, a) && answerDecides(graph, f, a.at))).map((f) => f.id));
  for (let round = 0; round < 2; round++) {
    for (const fn of graph.fns) {
      if (asking.has(fn.id) || fn.name.startsWith('<')) continue;
      if (fn.calls.some(([name, at]) => !deferred(graph, fn, at) && helperDecides(graph, fn, name, at, undefined, asking))) asking.add(fn.id);
    }
  }
  return asking;
}

/**
 * The repository definitions an ask runs when it is a call of the repository's own function whose
 * result is dropped (`confirm_system_prompt(messages, …)` as a statement): named like an ask, it
 * decides something only if that function asks. Null for a library's ask or a kept answer.
 */
function ownHelper(graph: Graph, fn: Fn, ask: RawFinding): Fn[] | null {
  const file = graph.files.get(fn.path);
  if (!file || !/^\s*(?:await\s+)?$/.test(statementHead(file.text, ask.at))) return null;
  const targets = askTargets(graph, fn, ask);
  return targets.length ? targets : null;
}

/** The repository definitions an ask's call may run (none for a library's prompt). */
function askTargets(graph: Graph, fn: Fn, ask: RawFinding): Fn[] {
  const callee = /^(?:await\s+)?([\w$.]+)\s*\(/.exec(ask.text)?.[1];
  return callee ? resolve(graph, fn, callee) : [];
}

// The last word of an approver that grants whatever nothing registered refuses: `return true`,
// `return ApprovalDecision{Approved: true}`, `return { allowed: true }`.
const GRANTS = /\breturn\s+(?:true|True|[\w.&]*\{[^{}]*\b(?:approved|allowed|granted)\s*:\s*true\b[^{}]*\})\s*;?\s*\}?\s*$/i;

/**
 * An ask named like one (`approval := al.hooks.ApproveTool(ctx, req)`) whose answer comes from the
 * repository's own approver that asks nobody and ends by granting: it hands the call to whatever
 * hooks are registered, and none ships. (An approver that waits on the UI does not end in a grant.)
 */
function grantsUnasked(graph: Graph, fn: Fn, ask: RawFinding, asking?: Set<number>): boolean {
  const targets = askTargets(graph, fn, ask);
  return targets.length > 0 && targets.every((t) => !t.asks.length && !asking?.has(t.id)) && targets.some((t) => GRANTS.test(unitText(graph, t)));
}

/**
 * Whether the call `name` at `at` is of an asking helper whose answer can stop `step`. A call that
 * may run one of several definitions (an interface's implementations, a name defined in a few
 * files) asks only when every one of them does: a model client beside a "human" one that reads
 * stdin is no gate.
 */
function helperDecides(graph: Graph, fn: Fn, name: string, at: number, step: number | undefined, asking: Set<number>): boolean {
  const targets = resolve(graph, fn, name);
  const helpers = targets.filter((t) => asking.has(t.id));
  return helpers.length > 0 && helpers.length === targets.length && answerDecides(graph, fn, at, step, helpers);
}

/** The end of the line `at` sits on (its newline, or the end of the text). */
function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

// What a block does that stops the code after it: the answer that leads there stops the step.
const EXITS = /\b(?:return|raise|throw|continue|abort|panic!?|exit|Exit)\b/;
const STOPS_RUN = /\b(?:raise|throw|panic!|sys\.exit|process\.exit|os\.Exit|Exit|abort)\b/;
// A line that branches on a value: the answer it names decides which way the code goes.
const BRANCH = /^\s*(?:\}?\s*(?:if|elif|else\s+if|while|unless|switch|match|case|when|assert)\b)|&&|\|\||\?[^.?]|\b(?:and|or)\b/;
// The text before an ask that writes its answer into a message as its text (`{"content": input(`).
const FIELD_VALUE = /[{,]\s*["'`]?(?:content|text|message|msg|prompt|query|question|input|user_input|body)["'`]?\s*:\s*(?:await\s+)?[\w$.]*$/i;
// The start of a statement that keeps the answer in a name (`ok = `, `const ok = await `, `ok := `, `let ok = `).
const ASSIGNED = /^\s*(?:(?:const|let|var|final|let\s+mut)\s+)?([A-Za-z_$][\w$]*)(?:\s*,\s*[A-Za-z_$][\w$]*)*\s*(?::\s*[^=]+?)?\s*(?::=|=)\s*(?:await\s+|try\s+)*[\w$.]*$/;

/**
 * Whether the user's answer at `at` can stop `step` (a later offset in the unit; by default, what
 * follows in it). An ask written into a condition, or whose answer is returned, decides. An answer
 * kept in a name decides only where a later branch on that name exits or holds the step: an answer
 * that only picks a value (`is_correct = confirm("Is this a Python project?")`, then each branch
 * assigns) stops nothing, so it is no approval.
 */
function answerDecides(graph: Graph, fn: Fn, at: number, step?: number, helpers: Fn[] = [], askEnd = at): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return true;
  const text = file.text;
  // The step sits in the ask itself (a menu option's callback): the choice runs it or not.
  if (step !== undefined && step <= askEnd) return true;
  const before = statementHead(text, at);
  // A helper called for its effect alone: what it asks stops its own steps, and the caller's only
  // when a refusal ends the run (it raises, throws or exits).
  if (helpers.length && /^\s*(?:await\s+)?$/.test(before)) return helpers.some((h) => refusalEndsRun(graph, h));
  // An answer written into a message as its text (`{"role": "user", "content": input("> ")}`) is
  // what the user says next: it decides nothing.
  if (FIELD_VALUE.test(before)) return false;
  const name = ASSIGNED.exec(before)?.[1];
  if (!name) return true;
  // The answer's name, then the verdicts set from it: each as a read of that name (not one given a
  // value or used as a keyword: `verdict=verdict` reads it once).
  const names = [name];
  const reads = [readOf(name)];
  const mentions = (line: string, from = 0) => reads.slice(from).some((r) => r.test(line));
  const end = Math.min(step ?? fn.end, fn.end);
  const python = /\.py$/.test(fn.path);
  for (let start = text.indexOf('\n', at) + 1; start > 0 && start < end; start = text.indexOf('\n', start) + 1) {
    const line = text.slice(start, lineEnd(text, start));
    const returns = /^\s*return\b/.test(line);
    // (A verdict returned in a statement spread over lines, `return Decision(\n verdict=verdict,
    // …)`, is read whole; the answer itself so returned is data handed back, `Turn(\n text=answer)`.)
    if (returns && mentions(statementAt(text, start, fn.end), 1)) return true;
    if (!mentions(line)) continue;
    if (returns) return true;
    if (!BRANCH.test(line)) continue;
    const [from, to] = blockOf(text, start, python);
    const block = text.slice(from, to);
    if (EXITS.test(block) || (step !== undefined && step >= from && step < to)) return true;
    // A branch on the answer that only sets a verdict (`match response: case YES: verdict =
    // EXECUTE`) hands the decision on through that name: what reads it decides as the answer would.
    for (const set of block.matchAll(VERDICT_SET)) {
      if (names.includes(set[1]!)) continue;
      names.push(set[1]!);
      reads.push(readOf(set[1]!));
    }
  }
  return false;
}
/** A read of a name: the name where it is neither given a value nor used as a keyword (`name=`). */
const readOf = (name: string): RegExp => new RegExp(`(?:^|[^\\w$.])${name.replace(/\$/g, '\\$')}\\b(?!\\s*=(?!=))`);
// A name given a fixed value on a line of its own inside a branch (`verdict = Response.EXECUTE`,
// `ok := true`, `decision = "skip"`): a verdict, not the answer's text passed on.
const VERDICT_SET = /^[ \t]+(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::=|=)(?!=)\s*(?:"[^"\n]*"|'[^'\n]*'|True|False|true|false|[A-Za-z_$][\w$.]*\.[A-Z][A-Z0-9_]*)\s*;?[ \t]*$/gm;

/**
 * Whether a refusal in this asking unit ends the run: an ask told to abort (`confirm(…, abort=True)`),
 * or a negated branch on the answer (`if not confirm(…):`) whose block raises, throws or exits. A
 * unit that asks only through helpers of its own is taken to (as before this check existed).
 */
function refusalEndsRun(graph: Graph, unit: Fn): boolean {
  const file = graph.files.get(unit.path);
  if (!file || unit.asks.length === 0) return true;
  return unit.asks.some((a) => {
    const lineStart = file.text.lastIndexOf('\n', a.at - 1) + 1;
    const line = file.text.slice(lineStart, lineEnd(file.text, a.at));
    if (/\babort\s*=\s*True\b/.test(file.text.slice(a.at, a.at + 2000).split(/\)\s*\n/)[0] ?? '')) return true;
    if (!/(?:\bnot\s+|!\s*)(?:await\s+)?[\w$.]*\($/.test(file.text.slice(lineStart, a.at) + '(') || !BRANCH.test(line)) return false;
    const [from, to] = blockOf(file.text, lineStart, /\.py$/.test(unit.path));
    return STOPS_RUN.test(file.text.slice(from, to));
  });
}

/**
 * The brace on a branch's line that opens its block: the first one the line leaves open, so a
 * literal in the condition (`if !matches!(answer, Some(Go { confirm: true })) {`) is passed over;
 * else the first brace on the line (`if (ok) { return; }`); -1 when the line has none.
 */
function blockBrace(text: string, lineStart: number): number {
  const end = lineEnd(text, lineStart);
  const open: number[] = [];
  for (let at = lineStart; at < end; at++) {
    if (text[at] === '{') open.push(at);
    else if (text[at] === '}') open.pop();
  }
  const first = text.indexOf('{', lineStart);
  return open[0] ?? (first < end ? first : -1);
}

/** [start, end) of a branch: its line, the block it opens, and (with `chain`) the else/elif blocks that follow (by indentation in Python, by braces elsewhere). */
function blockOf(text: string, lineStart: number, python: boolean, chain = true): [number, number] {
  if (python) {
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0].length;
    let end = lineEnd(text, lineStart);
    for (let at = end + 1; at < text.length; at = lineEnd(text, at) + 1) {
      const line = text.slice(at, lineEnd(text, at));
      if (line.trim() === '') continue;
      const own = /^[ \t]*/.exec(line)![0].length;
      if (own <= indent && !(chain && own === indent && /^\s*(?:elif|else|except|finally)\b/.test(line))) break;
      end = lineEnd(text, at);
    }
    return [lineStart, end];
  }
  const open = blockBrace(text, lineStart);
  // No brace on the branch's line: one statement, on it or the next line.
  if (open < 0) return [lineStart, lineEnd(text, lineEnd(text, lineStart) + 1)];
  let depth = 0;
  let at = open;
  for (; at < text.length; at++) {
    if (text[at] === '{') depth++;
    else if (text[at] === '}' && --depth === 0) {
      const rest = chain ? /^\s*else\b[^{]*\{/.exec(text.slice(at + 1, at + 200)) : null;
      if (!rest) break;
      at += rest[0].length;
      depth = 1;
    }
  }
  return [lineStart, Math.min(text.length, at + 1)];
}

// A branch's opening line, and a statement that always leaves the block it ends.
const BRANCH_OPEN = /^\s*(?:\}\s*)?(?:if|elif|else|else\s+if|case|when|default)\b/;
// An ask that is a request for the user's choice posted to the UI (see the model's `asks`).
const POSTED_REQUEST = /^[^({]*(?:choice|approval|confirmation|consent)_?request\s*\{/i;
export const postedRequest = (a: Pick<RawFinding, 'text'>): boolean => POSTED_REQUEST.test(a.text);
// A tool call given a status that waits for the user (see the model's `asks`): recorded in a branch
// that then leaves, the call runs on a later pass, once the user has answered.
const PENDING_STATUS = /^(?:[\w.]*\.)?(?:pending|awaiting|await)_?(?:user_?)?(?:approval|confirmation|permission|consent)$|^[rbf]?["'`](?:pending|awaiting)[_-]?(?:user[_-]?)?(?:approval|confirmation|permission|consent)["'`]$/i;
// An ask raised to the app (`raise ApprovalRequired(…)`): the app asks the user and runs the call
// again once approved, so what follows the raise runs only when asked and approved, or when the
// branch around the raise (what needs approval) was not taken.
const RAISED_ASK = /^raise\s+(?:[\w.]+\.)?\w*(?:Approval|Confirmation|Permission)Required\b/;
export const raisedAsk = (a: Pick<RawFinding, 'text'>): boolean => RAISED_ASK.test(a.text);
const LEAVES = /^\s*(?:return|raise|throw|continue|break|panic!?|(?:os|sys|process)\.(?:Exit|exit)|log\.Fatal\w*)\b/;

/**
 * Whether the code at `at` sits in a branch that always leaves before `step`: a branch whose last
 * statement, at the branch's own level, returns, raises or exits, and which does not hold the step
 * (`if opt.DeleteSession != "" { return handleDeleteSession(opt) }` before the agent runs). An ask
 * there is met only on a way that never reaches the step, so it does not stand before it. An ask
 * whose refusal alone leaves (`if not confirm(): return`) is not such a branch: its exit is nested.
 */
function leavesBefore(graph: Graph, fn: Fn, at: number, step: number): boolean {
  const file = graph.files.get(fn.path);
  if (!file) return false;
  const opener = enclosing(file, at, fn.start)[0];
  if (opener === undefined || !BRANCH_OPEN.test(lineText(file, opener))) return false;
  const text = file.text;
  const start = file.lineStarts[opener - 1]!;
  // (The branch's own block: a later `elif` or `else` of the same `if` is another way.)
  const [from, to] = blockOf(text, start, /\.py$/.test(fn.path), false);
  if (step >= from && step < to) return false;
  const own = /^[ \t]*/.exec(lineText(file, lineOf(file, at)))![0].length;
  const body = text.slice(lineEnd(text, start) + 1, to).split('\n').filter((l) => l.trim() !== '' && !/^\s*[})\]]+[;,]?\s*$/.test(l));
  const last = body[body.length - 1];
  return !!last && /^[ \t]*/.exec(last)![0].length === own && LEAVES.test(last);
}

// The head of one arm of a `match` or `switch`: `Some(Command::Login(a)) =>` (Rust), `case "x":`,
// `default:` (TypeScript, Go), `case Point(x=0):` (Python).
const ARM_HEAD = { rust: /^\s*[^\s/].*?=>/, other: /^\s*(?:case\b[^\n]*|default\s*):/ };

/**
 * Whether the line `n`, indented `arm`, is an arm of a `match`, `switch` or `select`: the nearest
 * line above indented less opens one (in Go, a `switch` at the arm's own indentation).
 */
function inSwitch(file: { text: string; lineStarts: number[]; language?: string | null }, n: number, arm: number, first: number): boolean {
  for (let k = n - 1; k >= first; k--) {
    const l = lineText(file, k);
    if (!l.trim()) continue;
    const indent = indentOf(l);
    if (indent < arm) return /\b(?:match|switch|select)\b/.test(l);
    if (indent === arm && file.language === 'go' && /^\s*(?:switch|select)\b/.test(l)) return true;
  }
  return false;
}

/**
 * Whether the code at `at` sits in one arm of a `match` or `switch` and `step` in a later arm of
 * it: the arms are ways apart, so an ask in one (a login prompt for `Command::Login`) does not
 * stand before a step in another (`Command::Run` → the agent). Arms are read by indentation: an
 * arm runs from its head (the line at `at` or the nearest enclosing one) to the next line indented
 * no deeper; the `match` ends at a line indented less (in Go, where `case` sits at the `switch`'s
 * own indentation, at its closing brace). A step after the `match` is not in another arm.
 */
function otherArm(graph: Graph, fn: Fn, at: number, step: number): boolean {
  const file = graph.files.get(fn.path);
  if (!file || step <= at) return false;
  const head = file.language === 'rust' ? ARM_HEAD.rust : ARM_HEAD.other;
  const stepLine = lineOf(file, Math.min(step, fn.end));
  for (const n of [lineOf(file, at), ...enclosing(file, at, fn.start)]) {
    const text = lineText(file, n);
    if (!head.test(text)) continue;
    const arm = indentOf(text);
    if (!inSwitch(file, n, arm, lineOf(file, fn.start))) return false;
    let left = false;
    for (let k = n + 1; k <= stepLine; k++) {
      const l = lineText(file, k);
      if (!l.trim()) continue;
      const indent = indentOf(l);
      if (indent < arm || (indent === arm && file.language === 'go' && /^\s*\}/.test(l))) return false;
      if (indent === arm) left = true;
    }
    return left;
  }
  return false;
}

// A read of a line the person types (not a pick among choices, nor a yes/no).
const FREE_TEXT = /^(?:[\w.]*=\s*)?(?:await\s+)?(?:(?:[\w.():]*\.)?(?:input|raw_input|read_line|readline|ReadString|ReadLine|Scanln|Scan|Scanf|question|prompt|prompt_async|text)\s*[(!])(?![^\n]*(?:select|confirm|\[y\/n\]|\(y\/n\)))/i;
// Where a read's answer is kept: `read_line(&mut line)`, `fmt.Scanln(&line)` (the name handed to it).
const READ_INTO = /(?:read_line|Scanln?|Scanf)\s*\([^)]*&\s*(?:mut\s+)?([A-Za-z_]\w*)\s*\)/;
// A name bound on a line: `let parts = …`, `tool_name = …`, `x := …`, `const [a, b] = …` (the first name).
const BINDS = /^\s*(?:(?:let|const|var|let\s+mut)\s+)?\(?\[?\s*([A-Za-z_$][\w$]*)[^=\n]*?(?::=|[^=!<>+\-*/]=(?!=))\s*(.+)$/;

/**
 * Whether the answer read at `ask` is itself the request the step carries out: the user types the
 * tool and its arguments at a prompt (`stdin.read_line(&mut input)`, then `call_tool(name: tool_name,
 * …)` with `tool_name` taken from `input`). A person's own command is no approval of a call the
 * model made; nor is their next chat message (`"content": input`), after which the model calls.
 * Read from the lines between the two: the names bound from the answer, and from those, and
 * whether the step's statement uses one.
 */
function answerIsRequest(graph: Graph, fn: Fn, ask: RawFinding, step: number): boolean {
  const file = graph.files.get(fn.path);
  // (A step inside the ask itself, a menu option's callback, is what the choice runs; and a pick
  // among offered choices, the model's proposals among them, is a choice, not a typed request.)
  if (!file || step <= (file.lineStarts[ask.endLine] ?? file.text.length) || !FREE_TEXT.test(ask.text)) return false;
  const text = file.text;
  const first = READ_INTO.exec(ask.text)?.[1] ?? ASSIGNED.exec(statementHead(text, ask.at))?.[1];
  if (!first) return false;
  const names = new Set([first]);
  // (A menu's chosen option run as it is, `await answer()`, is the choice to go on: its call is no use of it as input.)
  const mentions = (line: string) => [...names].some((n) => new RegExp(`(?:^|[^\\w$.])${n.replace(/\$/g, '\\$')}\\b(?!\\s*\\()`).test(line));
  const stepLine = text.lastIndexOf('\n', step - 1) + 1;
  for (let start = text.indexOf('\n', ask.at) + 1; start > 0 && start < stepLine; start = text.indexOf('\n', start) + 1) {
    const line = text.slice(start, lineEnd(text, start));
    // (the line written into a message as its text is the person's next message: a chat, not an
    // approval; but not where a branch on the answer sends it as feedback instead of going on)
    if (new RegExp(`["'\`]?(?:content|text|message|prompt|query)["'\`]?\\s*:\\s*(?:${[...names].map((n) => n.replace(/\$/g, '\\$')).join('|')})\\b`).test(line) && !enclosing(file, start, ask.at).some((n) => BRANCH_OPEN.test(lineText(file, n)))) return true;
    const m = BINDS.exec(line);
    if (m && mentions(m[2]!)) names.add(m[1]!);
  }
  return mentions(statementAt(text, stepLine, fn.end));
}

/** The statement that starts on the line at `start`: its lines while brackets stay open or a chain goes on (at most 8). */
function statementAt(text: string, start: number, end: number): string {
  let depth = 0;
  let at = start;
  for (let n = 0; n < 8 && at < end; n++) {
    const stop = lineEnd(text, at);
    for (const c of text.slice(at, stop)) depth += '([{'.includes(c) ? 1 : ')]}'.includes(c) ? -1 : 0;
    at = stop + 1;
    // (a chain goes on where the next line starts with its call: `service⏎  .call_tool(…)`)
    if (depth <= 0 && !/^\s*\??\./.test(text.slice(at, lineEnd(text, at)))) break;
  }
  return text.slice(start, Math.min(at, end));
}

/**
 * The gate a unit puts before `offset`: its first ask, or its first call of an asking helper, that
 * comes earlier, classified by the condition that can skip it. Null when nothing asks first.
 */
export function gateBefore(graph: Graph, fn: Fn, offset: number, asking: Set<number>): Gate | null {
  // An ask in a function literal that runs later and does not also hold the step is no gate before it.
  const file = graph.files.get(fn.path);
  const endOf = (a: RawFinding) => (file ? (file.lineStarts[a.endLine] ?? file.text.length) : a.at);
  const asksItself = (a: RawFinding) => ownHelper(graph, fn, a)?.every((t) => asking.has(t.id)) ?? !grantsUnasked(graph, fn, a, asking);
  // A request posted to the UI waits for its answer only where the branch that posts it then leaves
  // (`continue`, `return`): the step runs on a later pass, once the answer has come back.
  // (A pending status set in a branch that leaves waits as a posted request does; one chosen in
  // place, `status: allowed ? Running : PendingApproval`, decides as an answer does.)
  const waits = (a: RawFinding) => {
    if (raisedAsk(a)) return true;
    if (postedRequest(a)) return leavesBefore(graph, fn, a.at, offset);
    if (PENDING_STATUS.test(a.text) && leavesBefore(graph, fn, a.at, offset)) return true;
    return answerDecides(graph, fn, a.at, offset, [], endOf(a)) && !leavesBefore(graph, fn, a.at, offset);
  };
  // (An arm apart is checked last: it reads the lines around the ask, and most calls ask nothing.)
  const direct: RawFinding | undefined = fn.asks.find((a) => a.at < offset && !deferred(graph, fn, a.at, offset) && asksItself(a) && waits(a) && !otherArm(graph, fn, a.at, offset) && !answerIsRequest(graph, fn, a, offset));
  const helper = fn.calls.find(([name, at]) => at < offset && !deferred(graph, fn, at, offset) && helperDecides(graph, fn, name, at, offset, asking) && !leavesBefore(graph, fn, at, offset) && !otherArm(graph, fn, at, offset));
  if (!direct && !helper) return null;
  if (direct && (!helper || direct.at <= helper[1])) {
    const gate = classify(graph, fn, direct.guard, { path: fn.path, line: direct.startLine, endLine: direct.endLine, text: direct.text }, true, askShows(graph, fn, { at: direct.at, end: endOf(direct), text: direct.text }));
    return overwriteOnly(graph, fn, direct.at, inSwitchedBlock(graph, fn, direct.at, gate));
  }
  // A helper call: its guard is the condition around the call, read from the line it sits on.
  const site = lineSite(graph, fn.path, helper![1]);
  const guard = guardOnLine(site.text, helper![0].slice(helper![0].lastIndexOf('.') + 1));
  return overwriteOnly(graph, fn, helper![1], inSwitchedBlock(graph, fn, helper![1], classify(graph, fn, guard, site, false)));
}

// A branch taken when a path already exists: `if os.path.exists(p):`, `if _, err := os.Stat(p); err == nil {`,
// `if (fs.existsSync(p)) {` (not its negation, nor a test that it is missing).
const EXISTS_BRANCH = /^\s*(?:\}\s*else\s+)?(?:el)?if\b.*(?:\b(?:os\.L?[Ss]tat|exists(?:Sync)?|path_?[Ee]xists|is_?file|is_?dir)\s*\(|\.(?:exists|is_file)\(\s*\))/;
const MISSING = /\bnot\b|!\s*[\w.]*(?:exists|[Ss]tat|is_?file|isdir)|IsNotExist|err\s*!=\s*nil/i;

/**
 * An ask whose nearest enclosing branch is taken only when the target already exists confirms an
 * overwrite (`if os.path.exists(p): if not confirm(f"Overwrite {p}?"): return`): a file written
 * afresh, or a command run, passes with nobody asked.
 */
function overwriteOnly(graph: Graph, fn: Fn, at: number, gate: Gate): Gate {
  const file = graph.files.get(fn.path);
  const head = file ? enclosing(file, at, fn.start, SWITCH_REACH)[0] : undefined;
  if (head === undefined) return gate;
  const text = lineText(file!, head);
  return EXISTS_BRANCH.test(text) && !MISSING.test(text) ? { ...gate, kind: 'overwrite', guard: text.trim().slice(0, 200) } : gate;
}

/** The condition before a call on its line (`if a and not confirm(x):` → `a`), as a helper call carries no tree of its own here. */
function guardOnLine(line: string, callee: string): string | undefined {
  const at = line.indexOf(`${callee}(`);
  if (at < 0) return undefined;
  const before = line.slice(0, at);
  const m = /^\s*(?:if|elif|while|return|\}?\s*else\s+if)?\s*\(?\s*(.+?)\s*(?:&&|\|\||\band\b|\bor\b)\s*(?:!|not\s+|await\s+|\(\s*)*[\w.]*$/.exec(before);
  return m?.[1]?.trim() || undefined;
}

const SWITCH_REACH = 60;

// The head of a branch taken only while a switch that skips the asks is on: `if yolo:`,
// `if (this.context.isBypassed()) return run(…)`, `if SETTINGS["auto_approve"]:` (not its negation).
const SWITCH_BRANCH = /^\s*(?:\}\s*else\s+)?(?:el)?if\s*\(?\s*(?!not\b|!)([^:{]*?)\s*\)?\s*(?::|\{|return\b|$)/;

/**
 * The ask of the coding agent a unit drives, where the unit switches it off: the first such switch
 * it writes, cited by its line. A switch set only under a condition naming a switch of the
 * harness's own (an `if` around it, a ternary or inline `if` before it on its line) is that
 * switch's to turn on, and no default.
 */
export function switchedOff(file: SourceFile, fn: Fn, unattended: { switches: RegExp; unless: RegExp }): Gate | null {
  const namesSwitch = (text: string) => unattended.unless.test(text);
  for (const m of file.text.slice(fn.start, fn.end).matchAll(unattended.switches)) {
    const at = fn.start + m.index;
    const line = lineAt(file, at);
    const before = file.text.slice(file.lineStarts[line - 1]!, at);
    if (enclosing(file, at, fn.start).some((l) => IF_HEAD.test(lineText(file, l)) && namesSwitch(lineText(file, l)))) continue;
    if (/\?|\bif\b/.test(before) && namesSwitch(before)) continue;
    return agentGate(file, fn.path, line, 'switched-off');
  }
  return null;
}

/**
 * The approvals of a coding agent the runner at `finding` starts headless with its approvals as
 * they ship, granted tools (exec.host-spawn): its SDK's call (`query(…)`) or its CLI named in the
 * unit up to the call (`cmd = ['claude', …]`). Read only where no switch in the unit turns those
 * approvals off (`switchedOff`). They ask no one: the tools the code grants run unasked.
 */
export function drivenAgent(file: SourceFile, fn: Fn, text: string, at: number, driven: { calls: RegExp; programs: RegExp }): Gate | null {
  if (!driven.calls.test(text) && !driven.programs.test(file.text.slice(fn.start, at) + text)) return null;
  return agentGate(file, fn.path, lineAt(file, at), 'driven-agent');
}

/** A driven coding agent's approvals as the code sets them on one line, cited by that line. */
const agentGate = (file: SourceFile, path: string, line: number, kind: 'switched-off' | 'driven-agent'): Gate => ({
  site: { path, line, endLine: line, text: lineText(file, line).trim(), check: '@line' },
  kind,
  showsInput: false,
  direct: false,
});

// A condition that is one setting read as it is, through any object path: `e.config.UseShellExecution`,
// `self.settings.allow_exec`, `this.opts.enableShell` (no call, no comparison, no negation).
const SETTING_PATH = /^(?:[A-Za-z_$][\w$]*\s*\.\s*){0,4}([A-Za-z_$][\w$]*)$/;
// A setting named for switching a way on (`UseShellExecution`, `enable_exec`, `allowUnsafe`,
// `shellEnabled`): a field a caller sets (`apply_directly`) is no setting whose default ships.
const OPT_IN_NAME = /^(?:[Uu]se|[Ee]nable|[Aa]llow|[Uu]nsafe|[Ll]egacy|[Ee]xperimental|[Dd]angerous)(?:[A-Z]|_[a-z])|^(?:USE|ENABLE|ALLOW|UNSAFE|LEGACY|EXPERIMENTAL|DANGEROUS)_|(?:[Ee]nabled|[Aa]llowed|_ENABLED|_ALLOWED)$/;

const optIns = new WeakMap<Fn, Map<number, Site | null>>();
/**
 * Whether the step at `at` runs only on the branch a setting that is off by default opens (`if
 * e.config.UseShellExecution { cmd = exec.Command("bash", "-c", c) }`, the default being `false`):
 * a dangerous way the user must switch on is not the shipped default. Read like `switchedBranch`:
 * the enclosing `if` lines above the step, up to an `else` or the unit's start; the setting's
 * default from the code that defines it (`switchDefault`).
 */
export function optInBranch(graph: Graph, fn: Fn, at: number): Site | null {
  // (Every walk that passes the unit asks again for each of its steps.)
  let known = optIns.get(fn);
  if (!known) optIns.set(fn, (known = new Map()));
  let site = known.get(at);
  if (site === undefined) known.set(at, (site = readOptInBranch(graph, fn, at)));
  return site;
}

function readOptInBranch(graph: Graph, fn: Fn, at: number): Site | null {
  const file = graph.files.get(fn.path);
  if (!file) return null;
  for (const n of enclosing(file, at, fn.start, SWITCH_REACH)) {
    const text = lineText(file, n);
    if (/^\s*(?:\}?\s*else\b|(?:async\s+)?(?:def|function|func)\b)/.test(text)) return null;
    const head = SWITCH_BRANCH.exec(text);
    const d = head ? offByDefault(graph, head[1]!.trim()) : null;
    if (d) return d;
  }
  // (Or after an early exit while it is off: `if (!settings.allow_insecure_coding) { return "not allowed"; }`.)
  const line = lineAt(file, at);
  const indent = indentOf(lineText(file, line));
  for (let n = Math.max(lineAt(file, fn.start) + 1, line - SWITCH_REACH); n < line; n++) {
    const text = lineText(file, n);
    const m = EXIT_UNLESS.exec(text);
    if (!m || indentOf(text) > indent) continue;
    // The branch's body: the lines below indented more (and its closing brace), which must leave the unit.
    let end = n + 1;
    let exits = /\b(?:return|throw|raise)\b/.test(text.slice(m[0].length));
    for (; end < line && (indentOf(lineText(file, end)) > indentOf(text) || !lineText(file, end).trim()); end++) if (/^\s*(?:return|throw|raise)\b/.test(lineText(file, end))) exits = true;
    if (!exits || end >= line) continue;
    const d = offByDefault(graph, m[1]!.trim());
    if (d) return d;
  }
  return null;
}

// A branch taken while a setting is off: `if (!settings.x) {`, `if not config.x:`.
const EXIT_UNLESS = /^\s*if\s*(?:\(\s*!\s*|not\s+)((?:[A-Za-z_$][\w$]*\s*\.\s*){0,4}[A-Za-z_$][\w$]*)\s*\)?\s*(?::|\{)?/;
// A setting read off an object named for the shipped settings (`settings.speak`, `config.verbose`).
const SETTINGS_ROOT = /^(?:(?:this|self)\s*\.\s*)?(?:settings|config|cfg|conf|prefs|preferences)\s*\.\s*[A-Za-z_$][\w$]*$/;

/** Where the code sets a switch (a condition that is one setting read as it is) off by default, if it does. */
function offByDefault(graph: Graph, condition: string): Site | null {
  const name = SETTING_PATH.exec(condition)?.[1];
  if (!name || !(OPT_IN_NAME.test(name) || SETTINGS_ROOT.test(condition))) return null;
  const d = switchDefault(graph, name);
  return d && !d.value ? d.site : null;
}

/**
 * A step in a unit that asks elsewhere, taken only on the branch a bypass switch opens (`if yolo:
 * return run(cmd)` before `if not confirm(cmd): return`): the ask stands for it, and the switch can
 * skip it (`bypass-switch`, off unless the user turns it on). The branch is read from the lines
 * above the step, by indentation: the nearest `if` whose body holds it, on its own line or the
 * step's. A unit that never asks gains no gate this way: its switch only opts a step in.
 */
export function switchedBranch(graph: Graph, fn: Fn, at: number, asking: Set<number>): Gate | null {
  if (!asking.has(fn.id)) return null;
  const file = graph.files.get(fn.path);
  if (!file) return null;
  const opens = (n: number): Gate | null => {
    const text = lineText(file, n);
    const head = SWITCH_BRANCH.exec(text);
    if (!head || !NEGATIVE_SWITCH.test(head[1]!) || /[!=<>]=|\bnot\b|!/.test(head[1]!)) return null;
    return { site: lineSite(graph, fn.path, file.lineStarts[n - 1]! + indentOf(text)), kind: 'bypass-switch', guard: head[1]!.trim(), showsInput: false, direct: false };
  };
  // (`if (bypassed) return run(cmd);` on the step's own line)
  const own = opens(lineOf(file, at));
  if (own) return own;
  // (A branch head sits a few lines above its step: the walk up stops after SWITCH_REACH lines, so
  // a unit of thousands of calls is not read back to its start for each.)
  for (const n of enclosing(file, at, fn.start, SWITCH_REACH)) {
    const gate = opens(n);
    if (gate) return gate;
    if (/^\s*(?:\}?\s*else\b|(?:async\s+)?(?:def|function)\b)/.test(lineText(file, n))) return null;
  }
  return null;
}
