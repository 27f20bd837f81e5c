/**
 * A file's bytes as the text every stage reads: UTF-8 without a byte-order mark, with Windows line
 * ends (CRLF) read as plain ones. Line numbers stay the same, and the regexes that follow values
 * line by line (a Python reply carried to `exec`, a name assigned on a line) see the line ends they
 * expect: with the `\r` left in, a CRLF Python agent showed no tool and no path at all.
 */
export function sourceText(buf: Buffer): string {
  // (A byte-order mark before the first line is no part of it: `^from …` must match line 1 too.)
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  return text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
}

/** Line start offsets, for turning a match offset into a line number. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The text of lines `first` to `last` (1-based, inclusive), with the last line's newline. */
export function linesText(file: { text: string; lineStarts: number[] }, first: number, last = first): string {
  return file.text.slice(file.lineStarts[first - 1], file.lineStarts[last] ?? file.text.length);
}

/** The text of line `line` (1-based), without its newline. */
export function lineText(file: { text: string; lineStarts: number[] }, line: number): string {
  return file.text.slice(file.lineStarts[line - 1], (file.lineStarts[line] ?? file.text.length + 1) - 1);
}

/** 1-based line of a character offset. */
export function lineAt(file: { lineStarts: number[] }, offset: number): number {
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** How far a line is indented: the length of its leading whitespace. */
export const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;

/**
 * The lines that open the blocks around the line at `offset`, innermost first, up to the unit's
 * first line (`unitStart` is the unit's offset): each is the nearest line above indented less.
 * `reach` bounds how many lines above the offset's are read.
 */
export function enclosing(file: { text: string; lineStarts: number[] }, offset: number, unitStart: number, reach = Infinity): number[] {
  const out: number[] = [];
  const line = lineAt(file, offset);
  const first = Math.max(lineAt(file, unitStart), line - reach);
  let own = indentOf(lineText(file, line));
  for (let l = line - 1; l > first && own > 0; l--) {
    const text = lineText(file, l);
    if (!text.trim() || indentOf(text) >= own) continue;
    out.push(l);
    own = indentOf(text);
  }
  return out;
}

/**
 * The text before `at` in its statement: its line's text up to `at`, or, where that is blank and
 * the line before ends in an assignment's `=` (a long statement broken after it, as rustfmt and
 * prettier write `let answer =⏎    read_key(…)`), that line too.
 */
export function statementHead(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const head = text.slice(lineStart, at);
  if (lineStart === 0 || head.trim()) return head;
  const previous = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
  return /(?:^|[^=!<>])=\s*$/.test(previous) ? `${previous.trimEnd()} ` : head;
}
