import { parse as parseToml } from 'smol-toml';
import type { Definition, FileFacts, Uses } from './extract.js';
import { importBindings } from './imports.js';

/** What the usage check needs of a file: its text and facts (its names, when extraction kept them). */
export interface UsageFile {
  path: string;
  text: string;
  facts: Pick<FileFacts, 'nonCode' | 'definitions' | 'uses' | 'imports'>;
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
 * The names a file's code uses, from its text and facts alone: those outside every definition (the
 * module's top level, which runs), and, by definition name, those its innermost definition uses
 * (its own name aside). Comments, strings, imports and a definition's own name are no use. Which of
 * them name a definition is asked later, over every file: a file's share is cacheable with its facts.
 */
export function usesOf(text: string, facts: Pick<FileFacts, 'nonCode' | 'definitions'>): Uses {
  const defs = [...facts.definitions].sort((a, b) => a.start - b.start || b.end - a.end);
  const names = new Set(defs.map((d) => d.nameAt));
  const top = new Set<string>();
  const inner = new Map<string, Set<string>>();
  // Sweep tokens in order with a stack of the definitions they sit in, and the set of the innermost.
  const stack: Definition[] = [];
  let inside: Definition | undefined;
  let set = top;
  // The names a definition uses (the top level's, outside every definition).
  const usedBy = (d: Definition | undefined): Set<string> => {
    if (!d) return top;
    let used = inner.get(d.name);
    if (!used) inner.set(d.name, (used = new Set()));
    return used;
  };
  const enter = () => {
    inside = stack[stack.length - 1];
    set = usedBy(inside);
  };
  let next = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const at = m.index;
    let moved = false;
    while (next < defs.length && defs[next]!.start <= at) {
      const d = defs[next++]!;
      // An object literal's method is called by whoever is handed the object: its name is a use of
      // the code around it, so it is live where that code is.
      if (d.callback) {
        let outer: Definition | undefined;
        for (let i = stack.length - 1; i >= 0 && !outer; i--) if (stack[i]!.end > d.start) outer = stack[i];
        usedBy(outer).add(d.name);
      }
      stack.push(d);
      moved = true;
    }
    while (stack.length && stack[stack.length - 1]!.end <= at) {
      stack.pop();
      moved = true;
    }
    if (moved) enter();
    const token = m[0];
    // A name already counted there needs no look at where it sits: most tokens repeat.
    if (set.has(token) || (inside && inside.name === token) || names.has(at) || inRanges(facts.nonCode, at)) continue;
    set.add(token);
  }
  // Space-separated: one string parses from the cache far faster than as many strings as it has names.
  return { top: [...top].join(' '), inner: [...inner].filter(([, used]) => used.size).map(([name, used]) => [name, [...used].join(' ')]) };
}

const words = (list: string): string[] => (list ? list.split(' ') : []);

// A name built at run time from a fixed prefix, to be looked up (`this[`handle_${msg.command}`]`,
// `getattr(self, f"do_{cmd}")`, `getattr(self, "cmd_" + name)`): the prefix, up to its underscore.
const BUILT_NAME = /(?:`|\bf["'])([A-Za-z][A-Za-z0-9]*_)(?:\$\{|\{)|["']([A-Za-z][A-Za-z0-9]*_)["']\s*\+/g;

/**
 * The names of definitions that live code uses. Code outside any definition runs (a module's
 * top-level statements), and so do definitions a framework or the runtime calls (`entry`) and
 * functions decorated only to bind them (`@staticmethod`: the runtime may call them by attribute); a
 * definition is live when its name occurs, outside comments, strings and imports, in live code.
 * So a helper only an unused function calls is as dead as that function: a sandbox module nobody
 * calls counts for nothing, however its parts refer to each other. A definition whose name starts
 * with a prefix the code builds names from (`handle_${command}`) is live: it is called by that name.
 */
export function liveNames(files: UsageFile[], entries: Iterable<string> = []): Set<string> {
  const defined = new Set<string>();
  for (const f of files) for (const d of f.facts.definitions) defined.add(d.name);
  // A name imported under another (`import { send as clientSend }`): using the alias uses the
  // definition. Names are not told apart by file here, so neither are aliases.
  const originals = new Map<string, string[]>();
  for (const f of files)
    for (const [local, , original] of f.facts.imports ?? [])
      if (original && defined.has(original)) {
        const list = originals.get(local);
        if (list) list.push(original);
        else originals.set(local, [original]);
      }
  // Definition name → the names its bodies use, space-separated, split only once the name is live.
  const refs = new Map<string, string[]>();
  const live = new Set<string>();
  const queue: string[] = [];
  const markOne = (name: string) => {
    if (defined.has(name) && !live.has(name)) {
      live.add(name);
      queue.push(name);
    }
  };
  const mark = (name: string) => {
    markOne(name);
    for (const original of originals.get(name) ?? []) markOne(original);
  };
  for (const e of entries) mark(e);
  // Each definition named with a prefix the code builds names from can be called that way (an RPC
  // handler found by `handle_` and the command's name).
  const prefixes = new Set<string>();
  for (const f of files) for (const m of f.text.matchAll(BUILT_NAME)) prefixes.add(m[1] ?? m[2]!);
  if (prefixes.size)
    for (const name of defined) {
      const cut = name.indexOf('_') + 1;
      if (cut > 2 && cut < name.length && prefixes.has(name.slice(0, cut))) mark(name);
    }
  for (const f of files) {
    for (const d of f.facts.definitions) if (d.entry || d.bound) mark(d.name);
    const uses = f.facts.uses ?? usesOf(f.text, f.facts);
    for (const name of words(uses.top)) mark(name);
    for (const [name, used] of uses.inner) {
      const lists = refs.get(name);
      if (lists) lists.push(used);
      else refs.set(name, [used]);
    }
  }
  while (queue.length) for (const used of refs.get(queue.pop()!) ?? []) for (const n of words(used)) mark(n);
  return live;
}

/** The definitions a position sits in, innermost first (a match on a definition's own name is not inside it). */
export function enclosing(definitions: Definition[], offset: number): Definition[] {
  return definitions.filter((d) => d.start <= offset && offset < d.end && d.nameAt !== offset).sort((a, b) => b.start - a.start);
}

/** The module a VS Code extension's manifest loads (its top-level `main`, where its top-level `engines` name the editor). */
function vscodeMain(text: string): string | undefined {
  if (!text.includes('"vscode"')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const { engines, main } = doc as { engines?: unknown; main?: unknown };
  const forEditor = typeof engines === 'object' && engines !== null && Object.hasOwn(engines, 'vscode');
  return forEditor && typeof main === 'string' ? main : undefined;
}

/**
 * Functions the package metadata names as entry points, with their module: `[project.scripts]`,
 * plugin entry-point groups and Poetry scripts in pyproject.toml (`sgpt = "sgpt.app:entry_point"`,
 * `shell = "oterm.tools.shell:shell"`), `console_scripts` in setup.cfg, and a VS Code extension's
 * `activate` and `deactivate`.
 */
export function packagedEntryPoints(files: Array<{ path: string; text: string }>): Array<{ module: string; name: string }> {
  const out: Array<{ module: string; name: string }> = [];
  for (const f of files) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    // A VS Code extension's manifest (its `engines` name the editor): the editor calls `activate`
    // (and `deactivate`) of the module `main` names; nothing in the repository calls them by name.
    if (base === 'package.json') {
      const main = vscodeMain(f.text);
      if (main) for (const name of ['activate', 'deactivate']) out.push({ module: main, name });
      continue;
    }
    if (base !== 'pyproject.toml' && base !== 'setup.cfg') continue;
    for (const m of f.text.matchAll(/^\s*[\w.-]+\s*=\s*["']?([\w.]+):([A-Za-z_]\w*)["']?\s*$/gm)) out.push({ module: m[1]!, name: m[2]! });
  }
  return out;
}

export const packagedEntries = (files: Array<{ path: string; text: string }>): string[] => packagedEntryPoints(files).map((e) => e.name);

// `from .session import Session, File` (also parenthesised over lines) and `__all__ = ["Session", …]`.
const REEXPORT = /^from\s+[\w.]+\s+import\s+(\([^)]*\)|[^\n#]+)/gm;
const ALL = /^__all__\s*(?::[^=]*)?=\s*[[(]([^\])]*)[\])]/m;

/**
 * The names a Python package's `__init__.py` re-exports (imports from its modules, or lists in
 * `__all__`): its public interface, which the package's users call. A library's tool class is used
 * by whoever imports it, not by code in the repository.
 */
export function reexportedNames(files: Array<{ path: string; text: string }>): string[] {
  const out = new Set<string>();
  for (const f of files) {
    if (!/(^|\/)__init__\.py$/.test(f.path)) continue;
    // The definition is found by the name it has in its own module, not by the alias it is exported as.
    for (const m of f.text.matchAll(REEXPORT)) for (const [local, , original] of importBindings(m[0], 'python')) out.add(original ?? local);
    const all = ALL.exec(f.text);
    for (const q of all?.[1]?.matchAll(/["']([A-Za-z_]\w*)["']/g) ?? []) out.add(q[1]!);
  }
  return [...out].sort();
}

// A module's top level that only declares: imports, definitions, decorators, comments, docstrings,
// constants bound without a call, and the closing lines of any of these. Such a module does
// nothing until something imports it.
const DECLARING_LINE = /^(?:$|\s|#|@|import\b|from\b|def\b|async\s+def\b|class\b|"""|'''|[)\]}]|if\s+TYPE_CHECKING\b|__all__\b|[A-Za-z_]\w*\s*(?::[^=(]*)?=\s*[^(\n]*$)/;
// Product code that loads modules by a name or path built at run time. When such a loader starts
// from its own package (`__file__`, `__path__`), any module may be loaded and none is taken for
// unused; when it names a folder (`import_module(f"tools.{name}")`, `glob("plugins/*.py")`), the
// modules of folders of that name are loaded. A loader reading a folder from the user's settings
// loads what the user put there, not what the package ships.
const OWN_LOADER = /\b(?:import_module|__import__|iter_modules|walk_packages|spec_from_file_location|load_source|run_path|run_module)\b/;
const OWN_PACKAGE = /\b(?:__file__|__path__|__package__|__spec__)\b/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Python modules nothing runs: no other product file (code or configuration) names the module,
 * it is no entry point (`__main__.py`, `__init__.py`, a `__main__` guard) and its top level only
 * declares. A tool class in such a file (an example a command copies into a user folder) is a
 * definition no product code uses. Only the libraries' `__main__` modules (below) when product code
 * loads its own modules dynamically.
 */
export function unimportedModules(files: Array<{ path: string; text: string; language: string | null }>): Set<string> {
  const out = new Set<string>(libraryMains(files));
  const python = files.filter((f) => f.language === 'python');
  const loaders = python.filter((f) => OWN_LOADER.test(f.text));
  if (loaders.some((f) => OWN_PACKAGE.test(f.text))) return out;
  const loadedFolder = (folder: string) => {
    const named = new RegExp(`["'/\\\\]${escape(folder)}(?:[/.{"'\\\\]|$)`, 'm');
    return loaders.some((f) => named.test(f.text));
  };
  const candidates = new Map<string, string[]>(); // module stem → paths
  for (const f of python) {
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (!base.endsWith('.py') || /^(__init__|__main__|setup|conftest|manage|main|app|server)\.py$/.test(base)) continue;
    if (/__name__\s*==\s*["']__main__["']/.test(f.text)) continue;
    if (!f.text.split('\n').every((line) => DECLARING_LINE.test(line))) continue;
    const dir = f.path.slice(0, Math.max(0, f.path.lastIndexOf('/')));
    if (loadedFolder(dir.slice(dir.lastIndexOf('/') + 1) || '.')) continue;
    const stem = base.slice(0, -3);
    const list = candidates.get(stem);
    if (list) list.push(f.path);
    else candidates.set(stem, [f.path]);
  }
  if (!candidates.size) return out;
  const named = new Set<string>();
  const stems = [...candidates.keys()];
  for (const f of files) {
    if (named.size === stems.length) break;
    // Only a file holding a stem not yet named somewhere is read token by token (most hold none).
    if (!stems.some((stem) => !named.has(stem) && f.text.includes(stem))) continue;
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(f.text); m; m = TOKEN.exec(f.text)) {
      const paths = candidates.get(m[0]);
      // A module's own text naming its stem is no import of it.
      if (paths && !(paths.length === 1 && paths[0] === f.path)) named.add(m[0]);
    }
  }
  for (const [stem, paths] of candidates) if (!named.has(stem)) for (const p of paths) out.add(p);
  return out;
}

/** What a `pyproject.toml` says of its project's name and dependencies. */
type Manifest = { project?: { name?: unknown; dependencies?: unknown; 'optional-dependencies'?: unknown }; tool?: { poetry?: { name?: unknown; dependencies?: unknown } } };

/** A Python project's name as pip compares it (PEP 503). */
const normalized = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/**
 * The `__main__.py` modules of the libraries of a monorepo: a project (its own `pyproject.toml`)
 * that another project of the repository depends on is a library of the product, and its
 * `python -m` program (a demo of an LLM client library with a shell tool of its own) is not how
 * the product runs.
 */
function libraryMains(files: Array<{ path: string; text: string }>): string[] {
  const projects: Array<{ dir: string; name: string; deps: Set<string> }> = [];
  for (const f of files) {
    if (!/(^|\/)pyproject\.toml$/.test(f.path)) continue;
    let doc: Manifest;
    try {
      doc = parseToml(f.text) as Manifest;
    } catch {
      continue;
    }
    const name = doc.project?.name ?? doc.tool?.poetry?.name;
    if (typeof name !== 'string') continue;
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
    const table = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
    const listed = [...list(doc.project?.dependencies), ...Object.values(table(doc.project?.['optional-dependencies'])).flatMap(list), ...Object.keys(table(doc.tool?.poetry?.dependencies))].filter((d): d is string => typeof d === 'string');
    const deps = new Set(listed.map((d) => normalized(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(d)?.[1] ?? '')));
    projects.push({ dir: folderOfPath(f.path), name: normalized(name), deps });
  }
  const libraries = new Set(projects.filter((p) => p.dir !== '' && projects.some((q) => q !== p && q.deps.has(p.name))).map((p) => p.dir));
  if (!libraries.size) return [];
  // A file belongs to the project of its nearest manifest.
  const projectOf = nearestFolder(new Set(projects.map((p) => p.dir)));
  return files.filter((f) => /(^|\/)__main__\.py$/.test(f.path) && libraries.has(projectOf(f.path))).map((f) => f.path);
}

/** The folder a path is in ('' for the repository's root). */
export const folderOfPath = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** For each path, the nearest of `roots` among the folders above it ('' when none is). */
export function nearestFolder(roots: Set<string>): (path: string) => string {
  const memo = new Map<string, string>();
  return (path) => {
    let dir = folderOfPath(path);
    const start = dir;
    const hit = memo.get(start);
    if (hit !== undefined) return hit;
    while (dir && !roots.has(dir)) dir = folderOfPath(dir);
    memo.set(start, dir);
    return dir;
  };
}

