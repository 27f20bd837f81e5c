import { RE2JS } from 're2js';

/**
 * Every regular expression the tool runs over the target's text goes through RE2: matching takes
 * time linear in the input, so no crafted file can make a search backtrack for seconds and no
 * time budget (which would make results depend on the machine's load) is needed.
 */
export interface LinearRegex {
  /** Each match's offsets in the string (UTF-16 units, as JavaScript strings index). */
  matches(text: string, max: number): Array<{ start: number; end: number; text: string }>;
  test(text: string): boolean;
  /** The first match, as RegExp.exec would give it (`[whole match]`), or null. */
  exec(text: string): [string] | null;
}

const compiled = new Map<string, LinearRegex>();

/** Compiles (once) a pattern in the common subset of JavaScript and RE2 syntax; `^`/`$` anchor at lines. */
export function linearRegex(source: string, ignoreCase = false): LinearRegex {
  const key = `${ignoreCase ? 'i' : '-'}${source}`;
  let re = compiled.get(key);
  if (re) return re;
  const pattern = RE2JS.compile(source, RE2JS.MULTILINE | (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  re = {
    matches(text, max) {
      const out: Array<{ start: number; end: number; text: string }> = [];
      const m = pattern.matcher(text);
      while (out.length < max && m.find()) {
        if (m.end() === m.start()) continue;
        out.push({ start: m.start(), end: m.end(), text: m.group() ?? '' });
      }
      return out;
    },
    test: (text) => pattern.matcher(text).find(),
    exec(text) {
      const m = pattern.matcher(text);
      return m.find() ? [m.group() ?? ''] : null;
    },
  };
  compiled.set(key, re);
  return re;
}

/** Why a pattern cannot run under RE2 (lookaround, backreferences), or null when it can. */
export function linearRegexError(source: string): string | null {
  try {
    RE2JS.compile(source);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
