/**
 * ast-grep compiles a rule's regexes with Rust's regex crate, once per file the rule runs on. A
 * Unicode `\w`, `\d`, `\s` or `\b` makes that compile ten times slower (Unicode tables), and code
 * identifiers are ASCII: so rule regexes are rewritten to their ASCII forms once, when the plan is
 * made. Inside a character class the class body is spliced in; everything else is left as written.
 */
const OUTSIDE: Record<string, string> = {
  w: '[0-9A-Za-z_]',
  W: '[^0-9A-Za-z_]',
  d: '[0-9]',
  D: '[^0-9]',
  s: '[\\t\\n\\x0B\\f\\r ]',
  S: '[^\\t\\n\\x0B\\f\\r ]',
  b: '(?-u:\\b)',
  B: '(?-u:\\B)',
};
const INSIDE: Record<string, string> = { w: '0-9A-Za-z_', d: '0-9', s: '\\t\\n\\x0B\\f\\r ' };

export function asciiRegex(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      const n = source[i + 1]!;
      const rep = inClass ? INSIDE[n] : OUTSIDE[n];
      out += rep ?? c + n;
      i++;
      continue;
    }
    if (c === '[' && !inClass) {
      inClass = true;
      out += c;
      // A ']' right after '[' or '[^' is a literal member, not the end.
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += source[++i];
      continue;
    }
    if (c === ']' && inClass) inClass = false;
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
