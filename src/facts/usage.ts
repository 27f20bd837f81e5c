import type { Definition, FileFacts } from './extract.js';

/** What the usage check needs of a file: its text and facts. */
export interface UsageFile {
  path: string;
  text: string;
  facts: Pick<FileFacts, 'nonCode' | 'definitions'>;
}

/** Whether offset lies inside one of the [start, end) pairs (sorted by start; they may nest). */
function inRanges(ranges: number[], offset: number): boolean {
  // The last range starting at or before offset, then back over any that could still cover it.
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[2 * mid]! <= offset) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = last; i >= 0 && i > last - 64; i--) if (offset < ranges[2 * i + 1]!) return true;
  return false;
}

// Identifier tokens: one linear pass per file (no backtracking is possible in this pattern).
const TOKEN = /[A-Za-z_$][\w$]*/g;

/**
 * Names used in code: a name is used when it occurs as a token outside comments, strings and
 * imports more often than it is defined. One pass over each file's tokens counts every name asked
 * about, so the cost is the size of the code, whatever the number of names.
 */
export function usedNames(names: Iterable<string>, files: UsageFile[]): Set<string> {
  const wanted = new Set(names);
  const occurrences = new Map<string, number>();
  const definitions = new Map<string, number>();
  if (wanted.size === 0) return new Set();
  for (const f of files) {
    for (const d of f.facts.definitions) if (wanted.has(d.name)) definitions.set(d.name, (definitions.get(d.name) ?? 0) + 1);
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(f.text); m; m = TOKEN.exec(f.text)) {
      if (wanted.has(m[0]) && !inRanges(f.facts.nonCode, m.index)) occurrences.set(m[0], (occurrences.get(m[0]) ?? 0) + 1);
    }
  }
  return new Set([...wanted].filter((n) => (occurrences.get(n) ?? 0) > (definitions.get(n) ?? 0)));
}

/** The definitions a position sits in, innermost first (a match on a definition's own name is not inside it). */
export function enclosing(definitions: Definition[], offset: number): Definition[] {
  return definitions.filter((d) => d.start <= offset && offset < d.end && d.nameAt !== offset).sort((a, b) => b.start - a.start);
}
