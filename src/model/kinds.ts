/**
 * The names the agent model gives path kinds and harness constructs, in a module of their own: the
 * report renderers read them, and a report answered from the cache must not load the model (and
 * with it the whole fact extractor) to print one.
 */

/** A file write at a path the code chose, on a tool's call chain: none of the tool's input reaches its arguments. */
export const OWN_WRITE = 'own-write';
/** A command a function on a tool's chain is handed that none of the tool's input reaches (a hook from the settings): the code's, not the model's. */
export const OWN_EXEC = 'own-exec';
/** The sink kind of a database statement the code did not write out: a path to one is of kind `remote` (where the tool's input reaches it, the model writes the query), re-checked by the statement rules. */
export const STATEMENT = 'statement';
/** Sink kinds a tool reaches without changing anything: facts ask for them by name, never as "any"; no gate is asked of them. */
export const PASSIVE: ReadonlySet<string> = new Set(['read', OWN_WRITE, OWN_EXEC]);
export const CODE_RUNNER = 'code runner';
export const EXTENSION_CALL = 'extension call';
export const FILE_WRITER = 'file writer';
export const BROWSER_DRIVER = 'browser driver';
/** Paths the harness itself gives the model's output (no tool offered to the model): shown as "<construct> in <function>". */
export const HARNESS_PATHS: ReadonlySet<string> = new Set([CODE_RUNNER, EXTENSION_CALL, FILE_WRITER, BROWSER_DRIVER]);
