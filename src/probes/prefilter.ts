/**
 * Literals every match of a regular expression must contain, so a file that contains none of them
 * can skip the regex entirely. Most product files match no probe; a substring test is an order of
 * magnitude cheaper than running ~100 alternation-heavy patterns over them.
 *
 * Conservative by construction: a top-level branch with no literal of at least MIN characters, or
 * any construct this reader does not understand, yields null (no prefilter, the regex always runs).
 */
const MIN = 3;
const ESCAPED_LITERAL = /[.\\/\-()[\]{}|*+?^$'"`@#:=,;<>!&%~ ]/;

function splitTopLevel(source: string): string[] | null {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      branches.push(source.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return null;
  }
  branches.push(source.slice(start));
  return depth === 0 && !inClass ? branches : null;
}

/** The longest run of characters a branch matches literally, outside groups, classes and quantified atoms. */
function longestLiteral(branch: string): string {
  let best = '';
  let run = '';
  const flush = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < branch.length; i++) {
    const c = branch[i]!;
    let atom: string | null = null;
    let end = i;
    if (c === '\\') {
      const n = branch[i + 1];
      end = i + 1;
      if (n !== undefined && ESCAPED_LITERAL.test(n)) atom = n;
      else if (n === 'x' && /^[0-9a-f]{2}$/i.test(branch.slice(i + 2, i + 4))) {
        atom = String.fromCharCode(parseInt(branch.slice(i + 2, i + 4), 16));
        end = i + 3;
      } else if (n === 'u' || n === 'p' || n === 'P' || n === 'k') {
        // \u0041, \u{…}, \p{…}, \k<…>: not worth decoding; skip the whole escape.
        const m = /^\\[upPk](\{[^}]*\}|<[^>]*>|[0-9a-fA-F]{4})/.exec(branch.slice(i));
        end = i + (m ? m[0].length : 2) - 1;
      } else if (n === 'c') end = i + 2;
    } else if (c === '(' || c === '[') {
      // Skip the whole group or class: it is not a fixed literal.
      let depth = 0;
      let inClass = false;
      for (end = i; end < branch.length; end++) {
        const d = branch[end]!;
        if (d === '\\') {
          end++;
          continue;
        }
        if (inClass) {
          if (d === ']') inClass = false;
          if (!inClass && c === '[') break;
          continue;
        }
        if (d === '[') inClass = true;
        else if (d === '(') depth++;
        else if (d === ')' && --depth === 0) break;
      }
    } else if (!'.^$|)]{}*+?'.includes(c)) atom = c;
    const next = branch[end + 1];
    const quantified = next === '?' || next === '*' || next === '+' || next === '{';
    if (atom === null || quantified) {
      // A repeated atom ('+') still occurs once, but what follows it may not be adjacent to the run.
      if (atom !== null && next === '+') run += atom;
      flush();
    } else run += atom;
    if (next === '{') {
      const close = branch.indexOf('}', end + 1);
      end = close < 0 ? branch.length : close;
    } else if (quantified) end++;
    i = end;
  }
  flush();
  return best;
}

/** Lower-cased when the regex ignores case; null when some branch has no usable literal. */
export function requiredLiterals(source: string, ignoreCase: boolean): string[] | null {
  const branches = splitTopLevel(source);
  if (!branches) return null;
  const out: string[] = [];
  for (const b of branches) {
    const lit = longestLiteral(b);
    if (lit.length < MIN) return null;
    out.push(ignoreCase ? lit.toLowerCase() : lit);
  }
  return [...new Set(out)];
}

type AstRule = Record<string, unknown>;
const WORD = /(?<![$\w])[A-Za-z_][A-Za-z0-9_]{2,}/g;

/**
 * Words at least one of which every match of an ast-grep rule must contain, or null when the rule
 * allows a match without any (a `kind` or `regex` alone, a `not`, a utility reference). Patterns
 * match code verbatim apart from metavariables, so their identifiers and keywords appear in any
 * file they match; a file with none of them need not be parsed at all.
 */
export function requiredWords(rule: AstRule): string[] | null {
  const needs: Array<string[] | null> = [];
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'pattern') {
      const source = typeof value === 'string' ? value : typeof (value as AstRule)?.['context'] === 'string' ? ((value as AstRule)['context'] as string) : '';
      const words = source.match(WORD);
      needs.push(words ? [...new Set(words)] : null);
    } else if (key === 'inside' || key === 'has' || key === 'follows' || key === 'precedes') {
      needs.push(requiredWords(value as AstRule));
    } else if (key === 'all' && Array.isArray(value)) {
      needs.push(value.map((r) => requiredWords(r as AstRule)).find((w) => w !== null) ?? null);
    } else if (key === 'any' && Array.isArray(value)) {
      const branches = value.map((r) => requiredWords(r as AstRule));
      needs.push(branches.every((b) => b !== null) ? [...new Set(branches.flat() as string[])] : null);
    }
  }
  // Every key of a rule object must hold, so any one key's requirement is necessary.
  const known = needs.filter((n): n is string[] => n !== null);
  return known.length ? known.sort((a, b) => a.length - b.length)[0]! : null;
}
