/**
 * ast-grep compiles a rule's regexes with Rust's regex crate, once per file the rule runs on, and
 * that compile is most of what a rule costs. Unicode makes it slow: a `\w`, `\d`, `\s` or `\b`
 * pulls in Unicode tables, and under `(?i)` every character class is case-folded over all of
 * Unicode (`[\s\S]*` in a case-insensitive regex costs 4.5 ms a compile, `(?s:.)*` 0.5 ms). Code
 * identifiers are ASCII, so rule regexes are rewritten once, when the plan is made:
 * - `\w \d \s \b` and their negations become their ASCII forms;
 * - `[\s\S]` (and `[\w\W]`, `[\d\D]`) becomes `(?s:.)`: any character, no class to fold;
 * - a class whose ASCII letters are closed under case (none, or both cases of each) is compiled
 *   with case folding off: on ASCII text it matches the same characters either way.
 * Everything else is left as written.
 */
const OUTSIDE: Record<string, string> = {
  w: '[0-9A-Za-z_]',
  W: '(?-i:[^0-9A-Za-z_])',
  d: '[0-9]',
  D: '(?-i:[^0-9])',
  s: '[\\t\\n\\x0B\\f\\r ]',
  S: '(?-i:[^\\t\\n\\x0B\\f\\r ])',
  b: '(?-u:\\b)',
  B: '(?-u:\\B)',
};
const INSIDE: Record<string, string> = { w: '0-9A-Za-z_', d: '0-9', s: '\\t\\n\\x0B\\f\\r ' };
/** Escapes that stand for one non-letter character inside a class. */
const PLAIN_ESCAPE = /^\\(?:[tnfrv0]|x[0-9A-Fa-f]{2}|[^0-9A-Za-z])$/;
const ANY = new Set(['\\s\\S', '\\S\\s', '\\w\\W', '\\W\\w', '\\d\\D', '\\D\\d']);

/** Index of the `]` closing the class opened at `start`, or -1. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  // A ']' right after '[' or '[^' is a literal member, not the end.
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[') return -1;
    else if (source[i] === ']') return i;
  }
  return -1;
}

/** Whether the letters a class body names are closed under ASCII case; false for anything it cannot read. */
function caseClosed(body: string): boolean {
  const letters = new Set<string>();
  const items: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      items.push(body[i]!);
      continue;
    }
    const esc = /^\\(?:x[0-9A-Fa-f]{2}|.)/.exec(body.slice(i))?.[0] ?? '';
    if (!PLAIN_ESCAPE.test(esc)) return false;
    items.push(esc);
    i += esc.length - 1;
  }
  for (let k = 0; k < items.length; k++) {
    const a = items[k]!;
    if (a.length === 1 && a.charCodeAt(0) > 0x7e) return false;
    if (items[k + 1] === '-' && k + 2 < items.length) {
      const b = items[k + 2]!;
      if (a.length !== 1 || b.length !== 1) return false;
      for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) if (/[A-Za-z]/.test(String.fromCharCode(c))) letters.add(String.fromCharCode(c));
      k += 2;
    } else if (/^[A-Za-z]$/.test(a)) letters.add(a);
  }
  return [...letters].every((l) => letters.has(l === l.toLowerCase() ? l.toUpperCase() : l.toLowerCase()));
}

function asciiClass(cls: string): string {
  const negated = cls[1] === '^';
  const raw = cls.slice(negated ? 2 : 1, -1);
  if (!negated && ANY.has(raw)) return '(?s:.)';
  const body = raw.replace(/\\([wds])/g, (_, n: string) => INSIDE[n]!);
  const rebuilt = `[${negated ? '^' : ''}${body}]`;
  return caseClosed(body) ? `(?-i:${rebuilt})` : rebuilt;
}

export function asciiRegex(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      const n = source[i + 1]!;
      out += OUTSIDE[n] ?? c + n;
      i++;
      continue;
    }
    if (c === '[') {
      const end = classEnd(source, i);
      // A nested class or set operation: left as written.
      if (end < 0) return out + source.slice(i);
      out += asciiClass(source.slice(i, end + 1));
      i = end;
      continue;
    }
    out += c;
  }
  return out;
}

/** The same rule with every `regex` value (at any depth) in its ASCII form. */
export function asciiRule<T>(rule: T): T {
  if (Array.isArray(rule)) return rule.map(asciiRule) as T;
  if (rule && typeof rule === 'object') {
    return Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, k === 'regex' && typeof v === 'string' ? asciiRegex(v) : asciiRule(v)])) as T;
  }
  return rule;
}
