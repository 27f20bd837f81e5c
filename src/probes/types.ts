import type { Probe } from '../rubric/schema.js';

/** One place where a probe's rule matched. Lines are 1-based and inclusive. */
export interface Finding {
  probe: string;
  path: string;
  startLine: number;
  endLine: number;
  /** The matched source text (first line, trimmed, at most 160 characters): what verification looks for. */
  text: string;
}

/** What one probe did: where it looked and what it found. An empty result is negative evidence. */
export interface ProbeResult {
  probe: Probe;
  findings: Finding[];
  /** Folders or files it was confined to by `within`, or null when it searched all its files. */
  scope: string[] | null;
  filesSearched: number;
  /** False when `within` named a probe that found nothing: there was nowhere to look. */
  applicable: boolean;
  /** Matches not counted because they sit in (or name) a definition no code uses. */
  unused?: number;
  /** The top folders of the files it searched (at most three, most files first): where a short search looks. */
  folders?: string[];
  /** For an empty result, its short search (`a|b`) when that re-runs empty where it looked (see `rerunnableTerms`), read when first cited. */
  terms?: () => string | null;
}

export function findingText(raw: string): string {
  const first = raw.split('\n').find((l) => l.trim() !== '') ?? '';
  return first.trim().slice(0, 160);
}
