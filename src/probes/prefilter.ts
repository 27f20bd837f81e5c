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

/** Plain (capturing or non-capturing) groups a branch must match once: not quantified, not lookaround. */
function requiredGroups(branch: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < branch.length; i++) {
    const c = branch[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < branch.length && branch[i] !== ']'; i++) if (branch[i] === '\\') i++;
      continue;
    }
    if (c !== '(') continue;
    let depth = 0;
    let end = i;
    for (; end < branch.length; end++) {
      const d = branch[end]!;
      if (d === '\\') {
        end++;
      } else if (d === '[') {
        for (end++; end < branch.length && branch[end] !== ']'; end++) if (branch[end] === '\\') end++;
      } else if (d === '(') {
        depth++;
      } else if (d === ')' && --depth === 0) {
        break;
      }
    }
    const next = branch[end + 1];
    const inner = branch.slice(i + 1, end);
    const optional = next === '?' || next === '*' || (next === '{' && /^\{0[,}]/.test(branch.slice(end + 1)));
    if (!optional && !/^\?[=!<]/.test(inner)) out.push(inner.startsWith('?:') ? inner.slice(2) : inner);
    i = end;
  }
  return out;
}

/** One of these literals is in every match of the branch: its longest literal run, or a required group's alternatives. */
function branchNeed(branch: string): string[] | null {
  const candidates: string[][] = [];
  const lit = longestLiteral(branch);
  if (lit.length >= MIN) candidates.push([lit]);
  for (const g of requiredGroups(branch)) {
    const alts = requiredLiterals(g, false);
    if (alts) candidates.push(alts);
  }
  if (candidates.length === 0) return null;
  // The most selective: the candidate whose shortest literal is longest.
  const shortest = (c: string[]) => Math.min(...c.map((l) => l.length));
  return candidates.sort((a, b) => shortest(b) - shortest(a) || a.length - b.length)[0]!;
}

/** Lower-cased when the regex ignores case; null when some branch has no usable literal. */
export function requiredLiterals(source: string, ignoreCase: boolean): string[] | null {
  // A leading (?i) (Rust regex, as ast-grep runs them) is the ignore-case flag; elsewhere, be safe.
  if (source.startsWith('(?i)')) return requiredLiterals(source.slice(4), true);
  // Other leading flags (dot-all, multi-line) change no literal; ASCII word boundaries are zero-width.
  const flags = /^\(\?[ms]+\)/.exec(source);
  if (flags) return requiredLiterals(source.slice(flags[0].length), ignoreCase);
  const unbounded = source.replace(/\(\?-u:\\[bB]\)/g, '');
  if (unbounded !== source) return requiredLiterals(unbounded, ignoreCase);
  // Case-insensitive groups: their literals, lower-cased, are required when the whole regex is read
  // ignoring case (a weaker test than the regex, so still a necessary one).
  if (ignoreCase && source.includes('(?i:')) return requiredLiterals(source.replace(/\(\?i:/g, '(?:'), true);
  if (source.includes('(?i')) return null;
  const branches = splitTopLevel(source);
  if (!branches) return null;
  const out: string[] = [];
  for (const b of branches) {
    const need = branchNeed(b);
    if (!need) return null;
    out.push(...need.map((l) => (ignoreCase ? l.toLowerCase() : l)));
  }
  return [...new Set(out)];
}

type AstRule = Record<string, unknown>;
const WORD = /(?<![$\w])[A-Za-z_][A-Za-z0-9_]{2,}/g;

/**
 * Words at least one of which every match of an ast-grep rule must contain (lower-cased, and to be
 * compared with the lower-cased text, when the rule has a case-insensitive regex), or null when the rule
 * allows a match without any (a `kind` or `regex` alone, a `not`, a utility reference). Patterns
 * match code verbatim apart from metavariables, so their identifiers and keywords appear in any
 * file they match; a file with none of them need not be parsed at all.
 */
export function requiredWords(rule: AstRule): string[] | null {
  if (JSON.stringify(rule).includes('(?i')) {
    const words = requiredWordsOf(rule, true);
    return words && [...new Set(words.map((w) => w.toLowerCase()))];
  }
  return requiredWordsOf(rule);
}

function requiredWordsOf(rule: AstRule, ignoreCase = false): string[] | null {
  const needs: Array<string[] | null> = [];
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'pattern') {
      const source = typeof value === 'string' ? value : typeof (value as AstRule)?.['context'] === 'string' ? ((value as AstRule)['context'] as string) : '';
      const words = source.match(WORD);
      needs.push(words ? [...new Set(words)] : null);
    } else if (key === 'regex' && typeof value === 'string') {
      // The node's text must match: a file without any of the regex's required literals cannot.
      needs.push(requiredLiterals(value, ignoreCase));
    } else if (key === 'inside' || key === 'has' || key === 'follows' || key === 'precedes') {
      needs.push(requiredWordsOf(value as AstRule, ignoreCase));
    } else if (key === 'all' && Array.isArray(value)) {
      needs.push(mostSelective(value.map((r) => requiredWordsOf(r as AstRule, ignoreCase)).filter((w): w is string[] => w !== null)));
    } else if (key === 'any' && Array.isArray(value)) {
      const branches = value.map((r) => requiredWordsOf(r as AstRule, ignoreCase));
      needs.push(branches.every((b) => b !== null) ? [...new Set(branches.flat() as string[])] : null);
    }
  }
  // Every key of a rule object must hold, so any one key's requirement is necessary.
  return mostSelective(needs.filter((n): n is string[] => n !== null));
}

/** Of several necessary requirements, the one a random file is least likely to meet: its shortest word is longest. */
function mostSelective(needs: string[][]): string[] | null {
  const shortest = (c: string[]) => Math.min(...c.map((l) => l.length));
  return needs.length ? [...needs].sort((a, b) => shortest(b) - shortest(a) || a.length - b.length)[0]! : null;
}
