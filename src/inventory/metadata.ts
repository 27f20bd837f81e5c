import { parse as parseToml } from 'smol-toml';
import type { Snapshot } from '../acquire/types.js';

const METADATA = ['package.json', 'Cargo.toml', 'pyproject.toml', 'go.mod', 'README.md', 'readme.md', 'README.rst', 'README'];

/** The target's own metadata files at the top of its tree, read once (at most 256 KiB each). */
async function metadataFiles(snapshot: Snapshot): Promise<Map<string, string>> {
  const present = METADATA.filter((c) => snapshot.entries.some((e) => e.path === c && e.kind === 'file'));
  const data = await snapshot.read(present, 256 * 1024);
  return new Map(present.flatMap((n) => (data.get(n) ? [[n, data.get(n)!.toString('utf8')] as [string, string]] : [])));
}

/**
 * The first sentence of prose in a README: not a heading, an image, a badge, a link list, HTML or
 * an emoji-led greeting; a sentence of at least five words.
 */
export function firstProseSentence(markdown: string): string | null {
  for (const block of markdown.split(/\n\s*\n/)) {
    let text = block.replace(/<!--[\s\S]*?-->/g, '').trim();
    // A centred HTML paragraph (`<p align="center">tagline<br/>…</p>`) is prose once its tags are gone;
    // a block of only images and links leaves nothing.
    if (/^<(p|div|h[3-6])\b[^>]*>/i.test(text)) text = text.replace(/<br\s*\/?>/gi, ' ').replace(/<(img|a)\b[^>]*>[^<]*(<\/a>)?/gi, ' ').replace(/<[^>]+>/g, ' ').trim();
    if (!text || /^(#|=|-{3}|\[!\[|!\[|<|\||```|>\s*\[!)/.test(text)) continue;
    // Links and images read as their text; a block that is mostly links is navigation, not prose.
    const plain = text.replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
    const links = (text.match(/\]\(/g) ?? []).length;
    if (!plain || links * 6 > plain.split(' ').length) continue;
    if (/^[^\p{L}\p{N}"'(]/u.test(plain)) continue; // an emoji or symbol-led line: a greeting or a banner
    const sentence = /^(.+?[.!?])(\s|$)/.exec(plain)?.[1] ?? plain;
    if (sentence.split(' ').filter((w) => /\p{L}/u.test(w)).length >= 5) return oneLine(sentence);
  }
  return null;
}

/** A one-line description of the target from its own package metadata or README (escaped later, never trusted). */
export async function describeTarget(snapshot: Snapshot, files?: Map<string, string>): Promise<string | null> {
  const meta = files ?? (await metadataFiles(snapshot));
  for (const [name, text] of meta) {
    try {
      if (name === 'package.json') {
        const d = (JSON.parse(text) as { description?: unknown }).description;
        if (typeof d === 'string' && d.trim()) return oneLine(d);
      } else if (name.endsWith('.toml')) {
        const t = parseToml(text) as { package?: { description?: unknown }; project?: { description?: unknown } };
        const d = t.package?.description ?? t.project?.description;
        if (typeof d === 'string' && d.trim()) return oneLine(d);
      } else if (/^readme/i.test(name)) {
        const sentence = firstProseSentence(text);
        if (sentence) return sentence;
      }
    } catch {
      /* malformed metadata: try the next source */
    }
  }
  return null;
}

const PLACEHOLDER_NAMES = /^(root|monorepo|workspace|workspaces|app|project|main|src|repo|package)$/i;

/** The name the project gives itself in its package metadata (package.json, pyproject, Cargo, go.mod). */
export function metadataName(meta: Map<string, string>): string | null {
  for (const [name, text] of meta) {
    try {
      let n: unknown;
      if (name === 'package.json') n = (JSON.parse(text) as { name?: unknown }).name;
      else if (name.endsWith('.toml')) {
        const t = parseToml(text) as { package?: { name?: unknown }; project?: { name?: unknown }; tool?: { poetry?: { name?: unknown } } };
        n = t.project?.name ?? t.tool?.poetry?.name ?? t.package?.name;
      } else if (name === 'go.mod') n = /^module\s+(\S+)/m.exec(text)?.[1]?.split('/').slice(-2).join('/');
      if (typeof n === 'string' && n.trim() && !PLACEHOLDER_NAMES.test(n.trim())) return oneLine(n);
    } catch {
      /* malformed metadata: try the next file */
    }
  }
  return null;
}

const GENERIC_FOLDERS = /^(repo|repository|src|source|code|checkout|workspace|\.git|git|main|master|head|tmp|temp)$/i;

/** The folder's name, or its parent's when the folder itself is called something generic (a clone's `repo/`). */
function folderName(snapshot: Snapshot): string {
  if (!GENERIC_FOLDERS.test(snapshot.name)) return snapshot.name;
  const parts = snapshot.input.replace(/[\\/]+$/, '').split(/[\\/]/);
  const parent = parts.length > 1 ? parts[parts.length - 2]! : '';
  return parent && !GENERIC_FOLDERS.test(parent) ? parent : snapshot.name;
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The header text of a scorecard; each may come from a flag, a reviewer's overrides, the target's `.audit.yaml` or a default. */
export const TARGET_TEXT_KEYS = ['name', 'whatItIs', 'category', 'scoredConfiguration'] as const;
export type TargetText = Record<(typeof TARGET_TEXT_KEYS)[number], string> & { surfacesScored: string[] };

export const DEFAULT_CATEGORY = 'Agent harness';
export const DEFAULT_CONFIGURATION = 'Fresh install with default settings, as read from the code at this commit.';
const NO_DESCRIPTION = 'No description found in package metadata or README.';

// Keys a target could use to try to score itself: never honoured, always reported.
const LEVEL_LIKE = /^(c\d+|levels?|overrides?|scores?|total|band|caps?|criteria|dimensions?|ruleoftwo|rule-of-two|surface|reviewed|source|confidence)$/i;

export interface TargetClaims {
  text: Partial<TargetText>;
  /** Limitations lines: what of the file was used, and what was ignored. */
  notes: string[];
}

const listed = (keys: string[]) => keys.slice(0, 5).map((k) => (k.length > 40 ? `${k.slice(0, 39)}…` : k)).join(', ') + (keys.length > 5 ? ', …' : '');

/**
 * The target's own `.audit.yaml`: a claim about what it is, used only to describe it (escaped like
 * everything from the target). Anything that looks like a level, an override or a score is ignored
 * and said so in the Limitations.
 */
export async function readTargetClaims(snapshot: Snapshot): Promise<TargetClaims> {
  const name = '.audit.yaml';
  if (!snapshot.entries.some((e) => e.path === name && e.kind === 'file')) return { text: {}, notes: [] };
  const buf = (await snapshot.read([name], 64 * 1024)).get(name);
  if (!buf) return { text: {}, notes: ["The target's .audit.yaml is larger than 64 KiB and was ignored."] };
  // The YAML library is loaded only for a target that has the file.
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(buf.toString('utf8'), { prettyErrors: false });
  let data: unknown;
  try {
    data = doc.errors.length ? undefined : doc.toJS({ maxAliasCount: 20 });
  } catch {
    data = undefined;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { text: {}, notes: ["The target's .audit.yaml is not a YAML mapping and was ignored."] };

  const text: Partial<TargetText> = {};
  const levelKeys: string[] = [];
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if ((TARGET_TEXT_KEYS as readonly string[]).includes(key) && typeof value === 'string' && value.trim()) text[key as (typeof TARGET_TEXT_KEYS)[number]] = oneLine(value);
    else if (key === 'surfacesScored' && Array.isArray(value) && value.every((v) => typeof v === 'string')) text.surfacesScored = value.slice(0, 20).map(oneLine).filter(Boolean);
    else if (LEVEL_LIKE.test(key)) levelKeys.push(key);
    else ignored.push(key);
  }
  const notes: string[] = [];
  const used = Object.keys(text);
  if (used.length) notes.push(`Header text from the target's own .audit.yaml (${used.join(', ')}) is the target's claim about itself, not checked by the tool.`);
  if (levelKeys.length) notes.push(`The target's .audit.yaml tried to set levels or results (${listed(levelKeys)}); those keys were ignored: a target may describe itself but never score itself.`);
  if (ignored.length) notes.push(`The target's .audit.yaml has keys the tool does not use (${listed(ignored)}), or text keys that are not text; they were ignored.`);
  return { text, notes };
}

/**
 * Flags (and a reviewer's overrides) beat the target's `.audit.yaml`, which beats defaults: the
 * GitHub owner/name, then the package metadata's name, and only then the folder's name.
 */
export async function targetText(snapshot: Snapshot, explicit: Partial<TargetText>, claims: TargetClaims): Promise<TargetText> {
  const pick = <K extends keyof TargetText>(k: K): TargetText[K] | undefined => explicit[k] ?? claims.text[k];
  const meta = await metadataFiles(snapshot);
  return {
    name: pick('name') ?? (snapshot.webUrl ? snapshot.webUrl.replace(/^https:\/\/github\.com\//, '') : null) ?? metadataName(meta) ?? folderName(snapshot),
    whatItIs: pick('whatItIs') ?? (await describeTarget(snapshot, meta)) ?? NO_DESCRIPTION,
    category: pick('category') ?? DEFAULT_CATEGORY,
    scoredConfiguration: pick('scoredConfiguration') ?? DEFAULT_CONFIGURATION,
    surfacesScored: pick('surfacesScored') ?? [],
  };
}
