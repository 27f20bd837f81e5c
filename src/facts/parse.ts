import { createRequire } from 'node:module';
import type { Lang, NapiConfig, SgRoot } from '@ast-grep/napi';
import type { Language } from '../rubric/schema.js';

const require = createRequire(import.meta.url);
type Napi = typeof import('@ast-grep/napi');
let napi: Napi | null = null;
/** ast-grep's native binding, loaded on first use: a report answered from the cache never needs it. */
export function astGrep(): Napi {
  return (napi ??= require('@ast-grep/napi') as Napi);
}

let registered = false;
/** Python, Rust and Go parsers ship as prebuilt libraries in their npm packages; load them once, on first use. */
export function ensureDynamicLanguages(): void {
  if (registered) return;
  astGrep().registerDynamicLanguage({
    python: require('@ast-grep/lang-python'),
    rust: require('@ast-grep/lang-rust'),
    go: require('@ast-grep/lang-go'),
  });
  registered = true;
}

export const PARSER: Record<Language, Lang | string> = {
  typescript: 'TypeScript' as Lang,
  tsx: 'Tsx' as Lang,
  // JavaScript (with or without JSX) parses as TSX: one grammar, so every TypeScript rule and node kind applies.
  javascript: 'Tsx' as Lang,
  python: 'python',
  rust: 'rust',
  go: 'go',
};

/** One tree-sitter parse of a file: every rule and fact of its language reads this one tree. */
export function parseCode(language: Language, text: string): SgRoot {
  if (language === 'python' || language === 'rust' || language === 'go') ensureDynamicLanguages();
  return astGrep().parse(PARSER[language] as Lang, text);
}

const empty = new Map<Language, SgRoot>();
const ruleErrors = new Map<string, string | null>();
/** Why an ast-grep rule (with the utility rules it refers to) cannot run on a language's trees (an unknown kind, a bad regex), or null. */
export function ruleError(language: Language, rule: Record<string, unknown>, utils?: Record<string, unknown>): string | null {
  // Compiling a rule is a third of a rubric load; a process that loads the same rules again (the
  // tests, a batch) checks each once.
  const key = JSON.stringify([language, rule, utils ?? null]);
  const known = ruleErrors.get(key);
  if (known !== undefined) return known;
  const error = compileError(language, rule, utils);
  ruleErrors.set(key, error);
  return error;
}

function compileError(language: Language, rule: Record<string, unknown>, utils?: Record<string, unknown>): string | null {
  let root = empty.get(language);
  if (!root) empty.set(language, (root = parseCode(language, '')));
  try {
    root.root().findAll({ rule, ...(utils ? { utils } : {}) } as unknown as NapiConfig);
    return null;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).split('\n').map((l) => l.replace(/^\s*\|->/, '').trim()).filter(Boolean).join(': ');
  }
}
