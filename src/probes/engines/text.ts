import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { countLongLines, lineAt, lineStartsOf, type SourceFile } from '../../inventory/index.js';
import type { Probe } from '../../rubric/schema.js';
import { requiredLiterals } from '../prefilter.js';
import type { Engine, Finding } from '../types.js';

/**
 * Regular expressions over the file text, reported per match like `rg -n`.
 *
 * JavaScript regexes backtrack, and a file built for it makes even an innocent pattern take
 * minutes (`^\s*X` over 200,000 blank lines, `f\([^\n]*\bx` over one long line of `f(`). So the
 * target's text is never matched on the main thread: a worker thread runs every probe of one file
 * and is killed when the file's time is up, and lines longer than `lineChars` are blanked before
 * matching (line numbers stay). A file that runs out of time, or comes after the whole run's
 * budget is spent, is skipped by the text probes and listed in the report's Limitations.
 */

export interface TextSearchLimits {
  /** Lines longer than this are blanked before matching. */
  lineChars: number;
  /** Time for all text probes on one file. */
  fileMs: number;
  /** Time for all text probes of one audit (probing and verification). */
  totalMs: number;
}
export const DEFAULT_TEXT_LIMITS: TextSearchLimits = { lineChars: 10_000, fileMs: 5_000, totalMs: 60_000 };
/** Matches kept per probe and file: enough for evidence and `within` scopes, bounded in memory. */
export const MAX_MATCHES_PER_FILE = 1_000;

export type TextSkip = 'time' | 'budget';
interface Session {
  limits: TextSearchLimits;
  spentMs: number;
  skipped: Map<string, TextSkip>;
}
let session: Session = { limits: DEFAULT_TEXT_LIMITS, spentMs: 0, skipped: new Map() };

/** Starts the bookkeeping of one audit: a fresh time budget and an empty list of skipped files. */
export function startTextSearch(limits: Partial<TextSearchLimits> = {}): void {
  session = { limits: { ...DEFAULT_TEXT_LIMITS, ...limits }, spentMs: 0, skipped: new Map() };
}

/** Files the text probes skipped since startTextSearch, in path order, and why. */
export function textSearchSkips(): Array<{ path: string; why: TextSkip }> {
  return [...session.skipped].map(([path, why]) => ({ path, why })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// The worker is plain JavaScript (it runs outside the TypeScript build and the test transform).
// A request carries the text and, when they changed, the patterns; the answer is one flat list
// [pattern index, offset, length, text, ...] over all matches, where text is what findingText
// (../types.ts) makes of a match: its first non-blank line, trimmed, at most 160 characters.
const WORKER = `
const { workerData } = require('node:worker_threads');
const { port, state } = workerData;
const flag = new Int32Array(state);
let compiled = [];
const done = () => { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
port.on('message', ({ patterns, text, max, only }) => {
  try {
    if (patterns) compiled = patterns.map(([source, flags]) => new RegExp(source, flags));
    // Flat [pattern, index, length, text, ...] for matches only: a tiny file answers with [].
    const out = [];
    only.forEach((i) => {
      const re = compiled[i];
      re.lastIndex = 0;
      let n = 0;
      for (let m = re.exec(text); m && n < max; m = re.exec(text)) {
        if (m[0] === '') { re.lastIndex++; continue; }
        const first = m[0].split('\\n').find((l) => l.trim() !== '') || '';
        out.push(i, m.index, m[0].length, first.trim().slice(0, 160));
        n++;
      }
    });
    port.postMessage({ out });
  } catch (e) {
    port.postMessage({ error: String(e && e.message || e) });
  }
  done();
});
done();
`;

/** Per match: the pattern's index in the request, the match offset and length, and its text. */
type Hits = Array<number | string>;
interface Runner {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  /** The pattern list the worker has compiled, so a request only carries patterns when they change. */
  patternsKey: string | null;
}
let runner: Runner | null = null;

function startRunner(): Runner {
  const state = new SharedArrayBuffer(4);
  const flag = new Int32Array(state);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, state }, transferList: [port2] });
  worker.unref(); // never keeps the process alive
  worker.on('error', () => {}); // a crash shows up as a timeout of the file in flight
  if (Atomics.wait(flag, 0, 0, 30_000) === 'timed-out') {
    void worker.terminate();
    throw new Error('the text search worker did not start');
  }
  return { worker, port: port1, flag, patternsKey: null };
}

function stopRunner(): void {
  if (!runner) return;
  runner.port.close();
  void runner.worker.terminate().catch(() => {});
  runner = null;
}

/** Runs the patterns over text in the worker; null when it did not finish within ms (the worker is then killed). */
function matchAll(patterns: Array<[string, string]>, key: string, only: number[], text: string, ms: number): Hits | null {
  runner ??= startRunner();
  const r = runner;
  Atomics.store(r.flag, 0, 0);
  r.port.postMessage({ patterns: r.patternsKey === key ? null : patterns, text, max: MAX_MATCHES_PER_FILE, only });
  r.patternsKey = key;
  if (Atomics.wait(r.flag, 0, 0, ms) === 'timed-out') {
    stopRunner();
    return null;
  }
  // The worker flags completion right after posting; on a loaded machine the message can reach
  // this port a moment after the flag, so poll briefly before calling the answer missing.
  let received = receiveMessageOnPort(r.port);
  for (let tries = 0; !received && tries < 200; tries++) {
    Atomics.wait(r.flag, 0, 1, 5);
    received = receiveMessageOnPort(r.port);
  }
  const reply = received?.message as { out?: Hits; error?: string } | undefined;
  if (!reply?.out) throw new Error(`text probe failed: ${reply?.error ?? 'no answer from the text search worker'}`);
  return reply.out;
}

/** The text regexes see: lines over the bound are emptied, so line numbers are those of the file. */
interface View {
  lineChars: number;
  text: string;
  lineStarts: number[];
}
const views = new WeakMap<SourceFile, View>();
function searchView(file: SourceFile, lineChars: number): View {
  let v = views.get(file);
  if (v?.lineChars === lineChars) return v;
  if (countLongLines(file.text, file.lineStarts, lineChars) === 0) v = { lineChars, text: file.text, lineStarts: file.lineStarts };
  else {
    const text = file.text.split('\n').map((l) => (l.length > lineChars ? '' : l)).join('\n');
    v = { lineChars, text, lineStarts: lineStartsOf(text) };
  }
  views.set(file, v);
  return v;
}

const literals = new Map<string, string[] | null>();
function literalsOf(probe: Probe): string[] | null {
  const key = `${probe.ignoreCase ? 'i' : ''}/${probe.pattern}`;
  if (!literals.has(key)) literals.set(key, requiredLiterals(probe.pattern!, probe.ignoreCase));
  return literals.get(key)!;
}

const compiles = new Set<string>();
function flagsOf(probe: Probe): string {
  // 'm' so that ^ and $ anchor at lines, as rg does; one pass over the whole file per probe.
  return `gm${probe.ignoreCase ? 'i' : ''}`;
}

export const textEngine: Engine = {
  run(probes: Probe[], file: SourceFile): Finding[] {
    if (probes.length === 0) return [];
    const s = session;
    if (s.skipped.has(file.path)) return [];
    const patterns = probes.map((p): [string, string] => [p.pattern!, flagsOf(p)]);
    const key = patterns.map(([source, flags]) => `${flags}/${source}`).join('\0');
    // A pattern that does not compile is a rubric bug: fail here, with its own message.
    if (!compiles.has(key)) for (const [source, flags] of patterns) new RegExp(source, flags);
    compiles.add(key);
    const left = s.limits.totalMs - s.spentMs;
    if (left <= 0) {
      s.skipped.set(file.path, 'budget');
      return [];
    }
    const view = searchView(file, s.limits.lineChars);
    // Most files contain none of the literals a probe's matches must contain: skip those probes,
    // and the worker round trip entirely when no probe is left.
    let lower: string | null = null;
    const only = probes.flatMap((p, i) => {
      const lits = literalsOf(p);
      if (!lits) return [i];
      const hay = p.ignoreCase ? (lower ??= view.text.toLowerCase()) : view.text;
      return lits.some((l) => hay.includes(l)) ? [i] : [];
    });
    if (only.length === 0) return [];
    const started = performance.now();
    const hits = matchAll(patterns, key, only, view.text, Math.min(s.limits.fileMs, left));
    s.spentMs += performance.now() - started;
    if (!hits) {
      s.skipped.set(file.path, left < s.limits.fileMs ? 'budget' : 'time');
      return [];
    }
    const out: Finding[] = [];
    for (let i = 0; i < hits.length; i += 4) {
      const [p, index, length, text] = hits.slice(i, i + 4) as [number, number, number, string];
      out.push({ probe: probes[p]!.id, path: file.path, startLine: lineAt(view, index), endLine: lineAt(view, index + length - 1), text });
    }
    return out;
  },
};

/**
 * A quantified group that itself contains a variable quantifier (`(a+)+`, `(\w*)*`, `(.*){2,}`)
 * backtracks exponentially on a near-miss, unless every repetition must start with a separator
 * its inner atoms cannot match (`(\.\w+)*`, `(,\s*\w+)*`). Returns a description of the first
 * such group in `source`, or null. The tests use it to keep such patterns out of the rubric; the
 * worker's time bound is what makes one harmless at run time.
 */
export function nestedQuantifier(source: string): string | null {
  // Per open group: where it starts, where its body starts, and whether it contains a variable quantifier.
  const stack: Array<{ start: number; body: number; repeats: boolean }> = [{ start: 0, body: 0, repeats: false }];
  let lastGroup: { start: number; body: number; end: number; repeats: boolean } | null = null;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      i += 2;
      lastGroup = null;
      continue;
    }
    if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      i++;
      lastGroup = null;
      continue;
    }
    if (c === '(') {
      // Skip the group's kind, (?: (?= (?! (?<= (?<! (?<name>, so its '?' is not read as a quantifier.
      const kind = /^\?(?:[:=!]|<[=!]|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i + 1))?.[0].length ?? 0;
      stack.push({ start: i, body: i + 1 + kind, repeats: false });
      i += 1 + kind;
      continue;
    }
    if (c === ')') {
      const g = stack.length > 1 ? stack.pop()! : { start: i, body: i, repeats: false };
      if (g.repeats) stack[stack.length - 1]!.repeats = true;
      lastGroup = { ...g, end: i };
      i++;
      continue;
    }
    const q = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(source.slice(i));
    if (q) {
      const min = q[0] === '+' ? 1 : q[1] !== undefined ? Number(q[1]) : 0;
      const max = q[0] === '?' ? 1 : q[0] === '*' || q[0] === '+' ? Infinity : q[2] === undefined ? Number(q[1]) : q[3] === '' ? Infinity : Number(q[3]);
      if (max > 1 && lastGroup?.repeats && !separated(source.slice(lastGroup.body, lastGroup.end))) {
        return `nested quantifier: ${source.slice(lastGroup.start, i + q[0].length)}`;
      }
      // Only a variable count inside makes the outer repetition ambiguous ((a{2})+ is just (aa)+).
      if (max !== min) stack[stack.length - 1]!.repeats = true;
      i += q[0].length;
      if (source[i] === '?') i++; // lazy
      lastGroup = null;
      continue;
    }
    lastGroup = null;
    i++;
  }
  return null;
}

/**
 * True when a group body starts with one literal punctuation character that nothing else in the
 * body can match: then each repetition starts at a separator and there is one way to split a run.
 */
function separated(body: string): boolean {
  const m = /^(?:\\([^A-Za-z0-9])|([^A-Za-z0-9.[(\\^$|?*+{]))/.exec(body);
  if (!m) return false;
  const sep = m[1] ?? m[2]!;
  const rest = body.slice(m[0].length);
  // Anything that could also match the separator: itself, any-char and negated classes, alternation.
  if (rest.includes(sep) || /\.|\\[WSD]|\[\^|\|/.test(rest.replace(/\\[^WSD]/g, ''))) return false;
  return !(/\s/.test(sep) && rest.includes('\\s'));
}

/** Limitations lines for the files the text probes skipped in this audit (README "Limits"). */
export function textSearchNotes(): string[] {
  const { fileMs, totalMs } = session.limits;
  const out: string[] = [];
  for (const [why, what] of [
    ['time', `stopped after ${fileMs / 1000} s on`],
    ['budget', `skipped, once the ${totalMs / 1000} s search budget was spent,`],
  ] as const) {
    const paths = textSearchSkips().filter((s) => s.why === why).map((s) => s.path);
    if (paths.length) out.push(`Text probes ${what} ${paths.length} ${paths.length === 1 ? 'file' : 'files'} (${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''}); an empty text search does not cover them.`);
  }
  return out;
}
