import type { Snapshot } from '../acquire/types.js';
import type { Language } from '../rubric/schema.js';
import { excludedByPath, isConfigLike, languageOf, looksBinary, looksGenerated, uncoveredLanguageOf, type ExcludeReason } from './classify.js';

export interface Limits {
  /** Bytes: a larger file is listed as oversize and never read. */
  maxFileBytes: number;
  /** Files read at most; the rest are listed under 'limit'. */
  maxFiles: number;
}
export const DEFAULT_LIMITS: Limits = { maxFileBytes: 1024 * 1024, maxFiles: 50_000 };

export interface SourceFile {
  path: string;
  language: Language | null;
  text: string;
  /** Line start offsets, for turning a match offset into a line number. */
  lineStarts: number[];
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

export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of a character offset. */
export function lineAt(file: Pick<SourceFile, 'lineStarts'>, offset: number): number {
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

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
  for (const e of snapshot.entries) {
    if (e.kind !== 'file') {
      exclude(e.kind, e.path);
      continue;
    }
    const reason = excludedByPath(e.path);
    if (reason) exclude(reason, e.path);
    else if (e.size > limits.maxFileBytes) exclude('oversize', e.path);
    else if (wanted.length >= limits.maxFiles) exclude('limit', e.path);
    else {
      const other = uncoveredLanguageOf(e.path);
      if (other) uncovered[other] = (uncovered[other] ?? 0) + 1;
      else if (languageOf(e.path) || isConfigLike(e.path)) wanted.push(e.path);
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
    if (looksBinary(buf)) {
      exclude('binary', path);
      continue;
    }
    const text = buf.toString('utf8');
    if (looksGenerated(text.slice(0, 400))) {
      exclude('generated', path);
      continue;
    }
    const language = languageOf(path);
    if (language) languages[language] = (languages[language] ?? 0) + 1;
    files.push({ path, language, text, lineStarts: lineStartsOf(text) });
  }
  return { files, excluded, languages, uncovered, totalEntries: snapshot.entries.length, bytesRead };
}
