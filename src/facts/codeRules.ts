import type { Language } from '../rubric/schema.js';
import { MESSAGE_CALLEES, MESSAGE_KEYS, SYNTAX } from './syntax.js';

/** The `code` probe shorthand: regexes (Rust syntax, as ast-grep runs them) over roles of tokens. */
export interface CodeShorthand {
  /** Identifiers, property/field and type names used in code (not in imports, type-only declarations or log lines). */
  identifiers?: string;
  /** The text of string literals used as code (argv parts, config values), never docstrings, log or help text. */
  strings?: string;
  /** The whole callee of a call (`subprocess.run`, `exec.Command`, `Command::new`). */
  calls?: string;
  /** Keys of object/dict entries, keyword arguments and struct fields in literals. */
  keys?: string;
}

type Rule = Record<string, unknown>;
const anyKind = (kinds: string[]): Rule => (kinds.length === 1 ? { kind: kinds[0] } : { any: kinds.map((kind) => ({ kind })) });
const insideAny = (kinds: string[]): Rule[] => (kinds.length ? [{ inside: { ...anyKind(kinds), stopBy: 'end' } }] : []);

/** Where a token is a mention for people or a declaration, never a use: the same for every role. */
function mentionOnly(language: Language): Rule[] {
  const s = SYNTAX[language];
  return [
    ...insideAny([...s.imports, ...s.declarations, ...s.messageStatements]),
    ...s.calls.map((c) => ({ inside: { kind: c.kind, has: { field: c.callee, regex: MESSAGE_CALLEES }, stopBy: 'end' } })),
    ...s.keys.map((k) => ({ inside: { kind: k.kind, has: { field: k.key, regex: MESSAGE_KEYS }, stopBy: 'end' } })),
    ...(s.attributes ?? []).map((a) => ({ inside: { kind: a.kind, has: { kind: a.name, regex: MESSAGE_KEYS }, stopBy: 'end' } })),
  ];
}

/** One ast-grep rule per language from the shorthand; every role is matched on the syntax tree, so comments never match. */
export function expandCode(code: CodeShorthand, language: Language): Rule {
  const s = SYNTAX[language];
  const not = { not: { any: mentionOnly(language) } };
  const roles: Rule[] = [];
  if (code.identifiers) roles.push({ all: [anyKind(s.identifiers), { regex: code.identifiers }, not] });
  if (code.strings) {
    const docstring = s.docstring ? [{ inside: s.docstring }] : [];
    roles.push({ all: [anyKind(s.stringContent), { regex: code.strings }, { not: { any: [...mentionOnly(language), ...docstring] } }] });
  }
  if (code.calls) roles.push({ any: s.calls.map((c) => ({ all: [{ kind: c.kind }, { has: { field: c.callee, regex: code.calls } }, not] })) });
  if (code.keys) roles.push({ any: s.keys.map((k) => ({ all: [{ kind: k.kind }, { has: { field: k.key, regex: code.keys } }, not] })) });
  return roles.length === 1 ? roles[0]! : { any: roles };
}
