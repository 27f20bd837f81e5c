import type { Snapshot } from '../acquire/types.js';
import type { Language } from '../rubric/schema.js';
import { nestingOf } from './nesting.js';
import { excludedByPath, importOf, isConfigLike, languageOf, looksBinary, looksGenerated, scriptsModule, uncoveredLanguageOf, type ExcludeReason } from './classify.js';

/**
 * Bounds on what one audit reads and how long it searches, so a repository built to exhaust the
 * tool gets a report (with what was skipped in its Limitations) instead of a hang. README "Limits".
 */
export interface Limits {
  /** Bytes: a larger file is listed as oversize and never read. */
  maxFileBytes: number;
  /** Files read at most, in path order; the rest are listed under 'limit'. */
  maxFiles: number;
  /** Bytes read at most over all files, in path order; the rest are listed under 'limit'. */
  maxTotalBytes: number;
  /** Folders a file may be nested in; deeper files are listed under 'depth'. */
  maxDepth: number;
  /** Characters of a path; longer paths are listed under 'long-path'. */
  maxPathChars: number;
  /**
   * Levels a code file's syntax may nest, brackets and chained operators (see `nestingOf`); a
   * deeper file is listed under 'nesting' and not searched. Matching grows with about the square of
   * a nested chain's depth (40,000 nested brackets in a 40 KB file added 4.4 s to an audit, 160,000
   * chained `+` 22 s), so one crafted file could stall it for hours.
   */
  maxNesting: number;
}
export const DEFAULT_LIMITS: Limits = {
  maxFileBytes: 1024 * 1024,
  maxFiles: 50_000,
  maxTotalBytes: 128 * 1024 * 1024,
  maxDepth: 64,
  maxPathChars: 1_000,
  maxNesting: 500,
};

export interface SourceFile {
  path: string;
  language: Language | null;
  text: string;
  /** Line start offsets, for turning a match offset into a line number. */
  lineStarts: number[];
  /** The content's id where the snapshot knows it (a git blob id): keys the per-file facts cache. */
  contentId?: string;
}

export interface Inventory {
  /** Product files that were read: code in a probed language and other text (config, Dockerfiles). */
  files: SourceFile[];
  excluded: Partial<Record<ExcludeReason, { count: number; examples: string[] }>>;
  /** Product files per probed language. */
  languages: Partial<Record<Language, number>>;
  /** Product files in languages no probe reads (java, swift, …), per language. */
  uncovered: Record<string, number>;
  totalEntries: number;
  bytesRead: number;
}

export { lineAt, lineStartsOf, linesText, sourceText } from './lines.js';
import { lineStartsOf, sourceText } from './lines.js';

/** Decides which files are product code and reads each of them exactly once. */
export async function buildInventory(snapshot: Snapshot, limits: Limits = DEFAULT_LIMITS): Promise<Inventory> {
  const excluded: Inventory['excluded'] = {};
  const exclude = (reason: ExcludeReason, path: string) => {
    const slot = (excluded[reason] ??= { count: 0, examples: [] });
    slot.count++;
    if (slot.examples.length < 5) slot.examples.push(path);
  };
  const uncovered: Record<string, number> = {};
  const wanted: string[] = [];
  const oids = new Map<string, string>();
  let wantedBytes = 0;
  const pythonPackages = new Set(snapshot.entries.filter((e) => e.kind === 'file' && /(^|\/)__init__\.py$/.test(e.path)).map((e) => e.path.slice(0, Math.max(0, e.path.lastIndexOf('/')))));
  // Python files of a root scripts package, by path (their package, and the bytes read): read with
  // the product, kept only if the product imports the package.
  const pending = new Map<string, { module: string; bytes: number }>();
  for (const e of snapshot.entries) {
    if (e.kind !== 'file') {
      exclude(e.kind, e.path);
      continue;
    }
    // Path bounds first: the path rules below are regexes, and a path lands in the report.
    if (e.path.length > limits.maxPathChars) {
      exclude('long-path', e.path.slice(0, 200));
      continue;
    }
    if (depthOf(e.path) > limits.maxDepth) {
      exclude('depth', e.path);
      continue;
    }
    const reason = excludedByPath(e.path, pythonPackages);
    const deferred = reason === 'dev' ? scriptsModule(e.path, pythonPackages) : undefined;
    if (reason && !deferred) exclude(reason, e.path);
    else if (e.size > limits.maxFileBytes) exclude('oversize', e.path);
    else {
      const other = uncoveredLanguageOf(e.path);
      if (other) uncovered[other] = (uncovered[other] ?? 0) + 1;
      else if (languageOf(e.path) || isConfigLike(e.path)) {
        // Entries come sorted by path, so the same files are read on every run.
        if (wanted.length >= limits.maxFiles || wantedBytes + e.size > limits.maxTotalBytes) exclude('limit', e.path);
        else {
          wanted.push(e.path);
          if (deferred) pending.set(e.path, { module: deferred, bytes: 0 });
          if (e.oid) oids.set(e.path, e.oid);
          wantedBytes += e.size;
        }
      }
    }
  }

  const data = await snapshot.read(wanted, limits.maxFileBytes);
  const files: SourceFile[] = [];
  const languages: Inventory['languages'] = {};
  let bytesRead = 0;
  for (const path of wanted) {
    const buf = data.get(path);
    if (!buf) {
      exclude('oversize', path);
      continue;
    }
    bytesRead += buf.length;
    const scripts = pending.get(path);
    if (scripts) scripts.bytes = buf.length;
    if (looksBinary(buf)) {
      exclude('binary', path);
      continue;
    }
    const text = sourceText(buf);
    if (looksGenerated(text.slice(0, 400))) {
      exclude('generated', path);
      continue;
    }
    const language = languageOf(path);
    if (language && nestingOf(text, language) > limits.maxNesting) {
      exclude('nesting', path);
      continue;
    }
    if (language) languages[language] = (languages[language] ?? 0) + 1;
    const lineStarts = lineStartsOf(text);
    files.push({ path, language, text, lineStarts, ...(oids.get(path) ? { contentId: oids.get(path)! } : {}) });
  }
  // A scripts package counts as product where a product file outside it imports it; else it is the dev tooling its name says.
  const importers = files.filter((f) => f.language === 'python' && !pending.has(f.path));
  const imported = new Set([...new Set([...pending.values()].map((p) => p.module))].filter((m) => {
    const statement = importOf(m);
    return importers.some((f) => statement.test(f.text));
  }));
  const dropped = new Set(files.filter((f) => pending.has(f.path) && !imported.has(pending.get(f.path)!.module)));
  for (const f of dropped) {
    exclude('dev', f.path);
    if (--languages[f.language!]! === 0) delete languages[f.language!];
    bytesRead -= pending.get(f.path)!.bytes;
  }
  const kept = dropped.size ? files.filter((f) => !dropped.has(f)) : files;
  return { files: kept, excluded, languages, uncovered, totalEntries: snapshot.entries.length, bytesRead };
}

function depthOf(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) n++;
  return n;
}


const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
/** "a, b, c, …": the examples a count stands for (escaped for markdown by the renderer like every path). */
export function listed(count: number, examples: string[]): string {
  return `${examples.join(', ')}${count > examples.length ? ', …' : ''}`;
}

/** Limitations lines for every bound that left something of the target unread (README "Limits"). */
export function limitNotes(snapshot: Pick<Snapshot, 'truncated'>, inventory: Inventory, limits: Limits = DEFAULT_LIMITS): string[] {
  const out: string[] = [];
  if (snapshot.truncated) out.push('The file listing stopped early (200,000 entries, or folders nested 64 deep in a plain folder): files past that point were not seen.');
  const mib = (b: number) => `${+(b / 1024 / 1024).toFixed(1)} MiB`;
  const bounds: Array<[ExcludeReason, string, string?]> = [
    ['oversize', `larger than ${mib(limits.maxFileBytes)}`],
    ['limit', `past the bound of ${limits.maxFiles.toLocaleString('en-US')} files or ${mib(limits.maxTotalBytes)} read`],
    ['depth', `nested deeper than ${limits.maxDepth} folders`],
    ['long-path', `with a path longer than ${limits.maxPathChars.toLocaleString('en-US')} characters`],
    ['nesting', `with brackets or chained operators nested deeper than ${limits.maxNesting} levels`, 'Read but not searched'],
  ];
  for (const [reason, what, verb = 'Not read'] of bounds) {
    const x = inventory.excluded[reason];
    if (x) out.push(`${verb}, ${what}: ${plural(x.count, 'file')} (${listed(x.count, x.examples)}).`);
  }
  return out;
}
