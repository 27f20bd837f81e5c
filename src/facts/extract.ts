import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import picomatch from 'picomatch';
import { lineAt, lineStartsOf } from '../inventory/lines.js';
import type { Language } from '../rubric/schema.js';
import { configHits } from './config.js';
import { parseCode } from './parse.js';
import type { Plan, PlanProbe } from './plan.js';
import { linearRegex } from './re2.js';
import { IMPLICITLY_CALLED, isProse, SYNTAX } from './syntax.js';
import { mentionOnly } from './codeRules.js';

/** One file as the extractor sees it: no I/O, so it runs the same in a worker and in a test. */
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
}

/** Everything one file contributes, from its bytes alone: cacheable by blob id and plan key. */
export interface FileFacts {
  findings: RawFinding[];
  /** Probes that read this file (it was in their languages or globs). */
  read: string[];
  /** [start, end) character offsets of comments, docstrings, string literals and imports: where a name is not a use. */
  nonCode: number[];
  definitions: Definition[];
  /** True when the parser could not read part of the file (error nodes): the Limitations count them. */
  partial?: boolean;
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

/**
 * Transitional: code files are matched on their syntax tree; a text pattern that still lists a code
 * language runs over the comment-blanked code view with the JavaScript engine, for speed, until it
 * is rewritten as a tree rule. Config-like files always go through RE2.
 */
const backtrackingCache = new Map<string, RegExp>();
function backtracking(source: string, ignoreCase: boolean): { matches(text: string, max: number): Array<{ start: number; end: number; text: string }> } {
  const flags = `gm${ignoreCase ? 'i' : ''}`;
  let re = backtrackingCache.get(flags + source);
  if (!re) backtrackingCache.set(flags + source, (re = new RegExp(source, flags)));
  const regex = re;
  return {
    matches(text, max) {
      const out: Array<{ start: number; end: number; text: string }> = [];
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m && out.length < max; m = regex.exec(text)) {
        if (m[0] === '') {
          regex.lastIndex++;
          continue;
        }
        out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
      }
      return out;
    },
  };
}

function textFindings(probes: PlanProbe[], text: string, lineStarts: number[], code = false): RawFinding[] {
  const out: RawFinding[] = [];
  let lower: string | null = null;
  for (const p of probes) {
    const lits = p.literals;
    if (lits) {
      const hay = p.ignoreCase ? (lower ??= text.toLowerCase()) : text;
      if (!lits.some((l) => hay.includes(l))) continue;
    }
    for (const m of (code ? backtracking : linearRegex)(p.pattern!, p.ignoreCase).matches(text, MAX_MATCHES_PER_FILE)) {
      out.push({ probe: p.id, startLine: lineAt({ lineStarts }, m.start), endLine: lineAt({ lineStarts }, m.end - 1), text: firstLine(m.text), at: m.start });
    }
  }
  return out;
}

/** Runs a language's candidate rules over one tree: one traversal for all of them, then each hit is told apart. */
function treeFindings(root: SgNode, language: Language, probes: PlanProbe[]): RawFinding[] {
  const rules = probes.map((p) => p.rules[language]!);
  const hits: Array<[PlanProbe, SgNode]> = [];
  if (probes.length === 1) {
    for (const n of root.findAll({ rule: rules[0] } as unknown as NapiConfig)) hits.push([probes[0]!, n]);
  } else {
    const all = root.findAll({ rule: { any: rules } } as unknown as NapiConfig);
    for (const n of all) probes.forEach((p, i) => {
      if (n.matches({ rule: rules[i] } as unknown as NapiConfig)) hits.push([p, n]);
    });
  }
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
    out.push({ probe: p.id, startLine: r.start.line + 1, endLine: r.end.line + 1, text: firstLine(text), at: r.start.index });
  }
  return out;
}

/** The name a definition's text declares: the first identifier after its keywords (cheaper than asking the tree). */
const DEF_NAME = /^(?:(?:export|default|declare|abstract|public|private|protected|static|readonly|async|override|pub(?:\([^)]*\))?|unsafe|extern\s+"[^"]*"|const|let|var|function\*?|class|interface|def|fn|struct|enum|trait|type|func|get|set)\s+|\*\s*)*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/;

// A declarator whose value is a function: `name = async (…) =>`, `name = function`, `name: T = x =>`.
const FUNCTION_VALUE = /^[\w$]+\s*(?::[^=]{0,200})?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]{0,100})?=>|[\w$]+\s*=>)/;
// A constant at the top level: its line starts at column 0 (after `export`), as formatters leave it.
const TOP_LEVEL = /^(?:export\s+)?(?:const|let|var|static|pub(?:\([^)]*\))?\s+(?:const|static)|const|static|[A-Za-z_][\w]*\s*(?::[^=\n]*)?=|\t?[A-Z_][\w]*)/;

function definitionsOf(root: SgNode, language: Language, text: string, lineStarts: number[]): Definition[] {
  const kinds = SYNTAX[language].definitions;
  const out: Definition[] = [];
  for (const n of root.findAll({ rule: { any: Object.keys(kinds).map((kind) => ({ kind })) } } as unknown as NapiConfig)) {
    const r = n.range();
    const head = text.slice(r.start.index, Math.min(r.end.index, r.start.index + 300));
    let role = kinds[String(n.kind())]!;
    if (role === 'declarator') role = FUNCTION_VALUE.test(head) ? 'function' : 'binding';
    if (role === 'binding') {
      const line = text.slice(lineStarts[r.start.line]!, Math.min(text.length, lineStarts[r.start.line]! + 200));
      if (!TOP_LEVEL.test(line)) continue;
    }
    const m = DEF_NAME.exec(head);
    if (!m) continue;
    const name = m[1]!;
    const nameAt = r.start.index + m.index + m[0].length - name.length;
    out.push({ name, role, start: r.start.index, end: r.end.index, nameAt, entry: IMPLICITLY_CALLED.has(name) || decorated(text, r.start.index, language) });
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** A decorator (`@app.command()`, `@tool`) or attribute (`#[tauri::command]`) right above a definition: a framework calls it. */
function decorated(text: string, start: number, language: Language): boolean {
  const before = text.slice(Math.max(0, start - 400), start).trimEnd();
  const last = before.slice(before.lastIndexOf('\n') + 1).trim();
  if (language === 'rust') return last.startsWith('#[');
  if (language === 'python') return last.startsWith('@') || /(^|\n)\s*@[\w.]+(\(.*\))?\s*$/.test(before.slice(-200));
  return last.startsWith('@');
}

/** Offsets of comments, docstrings and string literals, sorted: a name inside them is not a use. */
function nonCodeRanges(root: SgNode, language: Language): number[] {
  const s = SYNTAX[language];
  const out: number[] = [];
  for (const n of root.findAll({ rule: { any: [...s.comments, ...s.strings, ...s.imports].map((kind) => ({ kind })) } } as unknown as NapiConfig)) {
    const r = n.range();
    out.push(r.start.index, r.end.index);
  }
  return out;
}

/**
 * The file with comments, docstrings and message strings blanked (line numbers kept): what a text
 * pattern may see of code. Code is matched on its syntax tree; this view exists only for text
 * patterns that have not been rewritten as tree rules yet.
 */
function codeView(root: SgNode, language: Language, text: string): string {
  const s = SYNTAX[language];
  const prose = { any: [...s.comments.map((kind) => ({ kind })), ...(s.docstring ? [s.docstring] : []), { all: [{ any: s.stringContent.map((kind) => ({ kind })) }, { any: mentionOnly(language) }] }] };
  const ranges: Array<[number, number]> = [];
  for (const n of root.findAll({ rule: prose } as unknown as NapiConfig)) ranges.push([n.range().start.index, n.range().end.index]);
  for (const n of root.findAll({ rule: { any: s.stringContent.map((kind) => ({ kind })) } } as unknown as NapiConfig)) {
    if (isProse(n.text())) ranges.push([n.range().start.index, n.range().end.index]);
  }
  if (!ranges.length) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [from, to] of ranges) {
    if (to <= at) continue;
    out += text.slice(at, Math.max(at, from)) + blank(text.slice(Math.max(at, from), to));
    at = to;
  }
  return out + text.slice(at);
}

/**
 * The facts of one file, from its text alone: probe matches on the syntax tree (code files) or on
 * comment-blanked text (config files), and the ranges where names are not code. Pure and
 * deterministic, so it can run in any worker and be cached by the file's content id.
 */
export function extractFacts(file: FileInput, plan: Plan): FileFacts {
  const reading = plan.probes.filter((p) => probeReads(p, file));
  const facts: FileFacts = { findings: [], read: reading.map((p) => p.id), nonCode: [], definitions: [] };
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
        facts.findings.push({ probe: p.id, startLine: line, endLine: line, text: firstLine(file.text.slice(lineStarts[line - 1], lineStarts[line] ?? file.text.length)), at: hit.offset });
      }
    }
    return facts;
  }
  let lower: string | null = null;
  const candidates = reading.filter((p) => {
    if (!p.rules[language]) return false;
    const need = p.words[language];
    return !need || need.some((w) => (lower ??= file.text.toLowerCase()).includes(w));
  });
  const root: SgRoot = parseCode(language, file.text);
  const tree = root.root();
  if (candidates.length) facts.findings.push(...treeFindings(tree, language, candidates));
  facts.nonCode = nonCodeRanges(tree, language);
  facts.definitions = definitionsOf(tree, language, file.text, lineStarts);
  const byNameAt = new Map(facts.definitions.map((d) => [d.nameAt, d.name]));
  for (const f of facts.findings) {
    const name = byNameAt.get(f.at);
    if (name) f.defines = name;
  }
  const textProbes = reading.filter((p) => p.engine === 'text' && (!p.literals || p.literals.some((l) => (p.ignoreCase ? (lower ??= file.text.toLowerCase()) : file.text).includes(l))));
  if (textProbes.length) facts.findings.push(...textFindings(textProbes, codeView(tree, language, file.text), lineStarts, true));
  facts.findings.sort((a, b) => a.at - b.at);
  return facts;
}
