import type { Language } from '../rubric/schema.js';

/**
 * What the tree-sitter grammars call things, per language: the node kinds the fact extractor and
 * the `code` probe shorthand need. This is parser knowledge, not security knowledge: adding a
 * language is one entry here (plus its parser in parse.ts).
 */
export interface Syntax {
  comments: string[];
  /** String literal nodes, and the child kinds holding their text (what string regexes see). */
  strings: string[];
  stringContent: string[];
  /** Identifier-like tokens: names, property and field names, type names. */
  identifiers: string[];
  /** Statements that only import: names in them are mentions, never uses. */
  imports: string[];
  /** Declarations of shape only (interface fields, struct fields, type aliases): mentions, not uses. */
  declarations: string[];
  /**
   * Definitions a finding can sit in or be, by node kind: functions, classes, and constants
   * (`binding`; only top-level ones count, told by the line they start on). `declarator` is a
   * variable that is a function when its value is one, else a constant. A definition counts only
   * when code uses it.
   */
  definitions: Record<string, 'function' | 'class' | 'binding' | 'declarator'>;
  /** A definition whose node sits inside one of these (decorators, attributes) is called by a framework. */
  entryWrappers: string[];
  /** A function preceded by one of these sibling kinds (Rust attributes: `#[tauri::command]`) is called by a framework. */
  entryAttributes?: string[];
  /** Call nodes: the kind and the field holding the callee. */
  calls: Array<{ kind: string; callee: string }>;
  /**
   * Assignments to an item (`workspace[name] = text`): a call of the object's item setter, named
   * `setter` on the object, which a class of the repository may define (Python's `__setitem__`).
   * The node kind, its target field, the target's kind and the field holding the object.
   */
  itemSetter?: { kind: string; target: string; targetKind: string; object: string; setter: string };
  /** Function literals (lambdas, arrow functions, closures): what a call in one does runs when it is called. */
  inline: string[];
  /** Member-access callee kinds and the field holding the member name (the name a call is resolved by). */
  members: Record<string, string>;
  /** Statements whose strings are messages for people (throw, raise). */
  messageStatements: string[];
  /** Object/dict entries and keyword arguments: the node kind and the field holding the key. */
  keys: Array<{ kind: string; key: string }>;
  /** Markup attributes (JSX's `placeholder="…"`): the node kind and the kind of its name, which has no field. */
  attributes?: Array<{ kind: string; name: string }>;
  /** A string that is a whole statement (a docstring), as an ast-grep rule on the string node; none where the language has none. */
  docstring?: Record<string, unknown>;
  /** The line comment marker, for deriving commented-out snippets in probe self-tests. */
  lineComment: string;
  /** The kind of a file's root node. */
  root: string;
}

const JS: Syntax = {
  comments: ['comment'],
  strings: ['string', 'template_string'],
  stringContent: ['string_fragment'],
  identifiers: ['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'type_identifier', 'private_property_identifier'],
  imports: ['import_statement'],
  declarations: ['interface_declaration', 'type_alias_declaration', 'property_signature', 'type_annotation', 'ambient_declaration'],
  definitions: {
    function_declaration: 'function',
    generator_function_declaration: 'function',
    method_definition: 'function',
    class_declaration: 'class',
    abstract_class_declaration: 'class',
    // (an enum is a table of constants: `ToolName.RUN_COMMAND` names the string its member holds)
    enum_declaration: 'binding',
    variable_declarator: 'declarator',
    public_field_definition: 'declarator',
  },
  entryWrappers: [],
  calls: [
    { kind: 'call_expression', callee: 'function' },
    { kind: 'new_expression', callee: 'constructor' },
  ],
  inline: ['arrow_function', 'function_expression'],
  members: { member_expression: 'property' },
  messageStatements: ['throw_statement'],
  keys: [{ kind: 'pair', key: 'key' }],
  lineComment: '//',
  root: 'program',
};

// TSX (and JavaScript, which parses as TSX) has markup; the TypeScript grammar has no such kinds.
const JSX: Syntax = { ...JS, attributes: [{ kind: 'jsx_attribute', name: 'property_identifier' }] };

export const SYNTAX: Record<Language, Syntax> = {
  typescript: JS,
  tsx: JSX,
  javascript: JSX,
  python: {
    comments: ['comment'],
    strings: ['string'],
    stringContent: ['string_content'],
    identifiers: ['identifier'],
    imports: ['import_statement', 'import_from_statement', 'future_import_statement'],
    declarations: ['type'],
    definitions: { function_definition: 'function', class_definition: 'class', assignment: 'binding' },
    entryWrappers: ['decorated_definition'],
    calls: [{ kind: 'call', callee: 'function' }],
    itemSetter: { kind: 'assignment', target: 'left', targetKind: 'subscript', object: 'value', setter: '__setitem__' },
    inline: ['lambda'],
    members: { attribute: 'attribute' },
    messageStatements: ['raise_statement', 'assert_statement'],
    keys: [
      { kind: 'keyword_argument', key: 'name' },
      { kind: 'pair', key: 'key' },
    ],
    docstring: { kind: 'string', inside: { kind: 'expression_statement' } },
    lineComment: '#',
    root: 'module',
  },
  go: {
    comments: ['comment'],
    strings: ['interpreted_string_literal', 'raw_string_literal'],
    stringContent: ['interpreted_string_literal_content', 'raw_string_literal_content'],
    identifiers: ['identifier', 'field_identifier', 'type_identifier'],
    imports: ['import_declaration'],
    declarations: ['field_declaration', 'method_elem'],
    definitions: { function_declaration: 'function', method_declaration: 'function', type_spec: 'class', const_spec: 'binding', var_spec: 'binding' },
    entryWrappers: [],
    calls: [{ kind: 'call_expression', callee: 'function' }],
    inline: ['func_literal'],
    members: { selector_expression: 'field' },
    messageStatements: [],
    keys: [{ kind: 'keyed_element', key: 'key' }],
    lineComment: '//',
    root: 'source_file',
  },
  rust: {
    comments: ['line_comment', 'block_comment'],
    strings: ['string_literal', 'raw_string_literal'],
    stringContent: ['string_content'],
    identifiers: ['identifier', 'field_identifier', 'type_identifier'],
    imports: ['use_declaration', 'extern_crate_declaration'],
    declarations: ['field_declaration', 'function_signature_item'],
    // (An `impl` block holds a type's methods, away from its struct: it is that type's class body.)
    definitions: { function_item: 'function', struct_item: 'class', enum_item: 'class', trait_item: 'class', impl_item: 'class', const_item: 'binding', static_item: 'binding' },
    entryWrappers: [],
    calls: [
      { kind: 'call_expression', callee: 'function' },
      { kind: 'macro_invocation', callee: 'macro' },
    ],
    inline: ['closure_expression'],
    members: { field_expression: 'field', scoped_identifier: 'name' },
    messageStatements: [],
    keys: [{ kind: 'field_initializer', key: 'field' }],
    entryAttributes: ['attribute_item'],
    lineComment: '//',
    root: 'source_file',
  },
};

/**
 * Calls across a process boundary by command name: Tauri's `invoke('name', args)` runs the Rust
 * `#[tauri::command] fn name`. The call graph follows such a call to that name as if it were called
 * directly (the string is the callee).
 */
export const IPC_CALLEES = /^(invoke|tauri\.invoke|core\.invoke|window\.__TAURI__\.(core\.)?invoke)$/;

/**
 * Callees whose string arguments are messages for people: logging, printing, error values. A
 * string passed to them is prose, whatever it says ("we do not use bwrap" in a log line is no
 * sandbox). Matched against the whole callee text (`console.warn`, `logger.info`, `fmt.Errorf`); a
 * receiver named as a logger (`auditLogger.warn`) is one by its name's form, not by a list of names.
 */
export const MESSAGE_CALLEES =
  '^(console|[A-Za-z_]*(logger|Logger|LOGGER)|log|logging|LOG|_log|self\\.log|self\\.logger|this\\.log|this\\.logger|tracing|slog|warnings)\\.[A-Za-z_]+$' +
  '|^(print|println|eprintln|eprint|printf|echo|warn|info|debug|error|trace|fatal|panic|assert\\w*|unreachable|todo|unimplemented|anyhow|bail|ensure|eyre|format_err|alert|t|_|gettext|ngettext|i18n\\.t|click\\.echo|click\\.secho|typer\\.echo|typer\\.secho|console\\.print|rprint|cprint)$' +
  '|^(fmt\\.(Print|Println|Printf|Fprint|Fprintln|Fprintf|Errorf)|errors\\.(New|Wrap|Wrapf)|log\\.(Print|Println|Printf|Fatal|Fatalf|Panic|Panicf))$' +
  '|(Error|Exception|Warning)$';

/** Keys and keyword arguments whose values are text for people: tool descriptions, help, labels. */
export const MESSAGE_KEYS =
  '^["\'`]?(description|desc|help|help_text|helpText|message|msg|title|label|placeholder|tooltip|summary|hint|reason|detail|details|usage|example|examples|documentation|docs|doc|long|short|long_about|about|text|prompt_text|system_prompt|instructions)["\'`]?$';

// Upper case, as code writes SQL: "Select a file from the list" is a sentence.
const SQL_STATEMENT = /^\s*(?:CREATE (?:TABLE|INDEX|VIEW)|INSERT (?:OR \w+ )?INTO|DELETE FROM|UPDATE \w+ SET|SELECT [\s\S]+? FROM)\b/;

/**
 * A string that reads as a sentence: four or more words, most of them plain words, none a flag,
 * path, assignment or placeholder. Commands (`docker run --rm img`), argv parts and keys are not.
 */
export function isProse(s: string): boolean {
  const words = s.trim().split(/\s+/);
  if (words.length < 4) return false;
  // An SQL statement is code, however many plain words (`CREATE TABLE … TEXT,`) it holds.
  if (SQL_STATEMENT.test(s)) return false;
  if (words.some((w) => /^-|[/=${}<>|&;`\\]|^\w+:\/\//.test(w))) return false;
  const plain = words.filter((w) => /^[A-Za-z][A-Za-z'’]*[,.;:!?)]?$/.test(w)).length;
  return plain / words.length >= 0.75;
}

/**
 * Functions nobody calls by name but the language or runtime does: entry points, constructors,
 * and methods of well-known interfaces (Display::fmt, Drop::drop, __enter__, ServeHTTP).
 */
export const IMPLICITLY_CALLED = new Set([
  'main', 'init', '__init__', '__new__', '__call__', '__enter__', '__exit__', '__aenter__', '__aexit__', '__del__', '__post_init__',
  'constructor', 'new', 'default', 'drop', 'fmt', 'from', 'into', 'deref', 'deref_mut', 'try_from', 'ServeHTTP', 'String', 'Error',
  // Go's http.RoundTripper (a client's transport runs it on every request) and the JSON and text codecs.
  'RoundTrip', 'MarshalJSON', 'UnmarshalJSON', 'MarshalText', 'UnmarshalText',
  // Route handlers and loaders a web framework finds by name in their file.
  'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'loader', 'action', 'handler', 'middleware',
]);
