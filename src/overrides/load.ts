import { readFileSync } from 'node:fs';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { InputError } from '../acquire/types.js';
import { DIMENSIONS, type Rubric } from '../rubric/schema.js';
import { expectedKeys, overridesSchema, TEXT_KEYS, type Overrides } from './schema.js';

type Path = ReadonlyArray<PropertyKey>;

/** The line of `key` inside the mapping at `parent`, if both exist. */
function keyLine(doc: Document, lines: LineCounter, parent: Path, key: string): number | undefined {
  const map = parent.length ? doc.getIn(parent as unknown[], true) : doc.contents;
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

/**
 * The line to blame: the unknown key itself; else the value at `path`; else, for a missing key,
 * the key of the deepest mapping on the way that exists (where the missing key belongs).
 */
function lineOf(doc: Document, lines: LineCounter, path: Path, unknownKey?: string): number {
  if (unknownKey !== undefined) {
    const line = keyLine(doc, lines, path, unknownKey);
    if (line !== undefined) return line;
  }
  const node = (path.length ? doc.getIn(path as unknown[], true) : doc.contents) as { range?: [number, number, number] } | null | undefined;
  if (node?.range) return lines.linePos(node.range[0]).line;
  for (let n = path.length - 1; n >= 1; n--) {
    if (doc.getIn(path.slice(0, n) as unknown[], true) !== undefined) return keyLine(doc, lines, path.slice(0, n - 1), String(path[n - 1])) ?? 1;
  }
  return 1;
}

function valueAt(data: unknown, path: Path): unknown {
  let v = data;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

/** Problems listed in full before the rest are only counted: enough for a real file, bounded for a hostile one. */
export const MAX_PROBLEMS = 10;

interface Located {
  line: number;
  message: string;
}

/** One zod issue as "line: where: what was wrong (expected …)". */
function locate(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter, data: unknown, rubric: Rubric): Located[] {
  const path = issue.path as Path;
  const where = path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      line: lineOf(doc, lines, path, key),
      message: `${[...path.map(String), key].join('.')}: unknown key '${key}' (expected ${expectedKeys(rubric, path)})`,
    }));
  }
  const value = valueAt(data, path);
  const what = value === undefined ? 'missing' : `got ${shown(value)}`;
  return [{ line: lineOf(doc, lines, path), message: `${where || '(top level)'}: ${what} (expected ${issue.message})` }];
}

/** Parses and checks an overrides file; every failure names the file, the line and what was expected. */
export function parseOverrides(text: string, file: string, rubric: Rubric): Overrides {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    const line = lines.linePos(err.pos[0]).line;
    throw new InputError(`${file}:${line}: invalid YAML: ${err.message.split('\n')[0]} (expected a YAML mapping like "C10: {S: {level: 2, reason: …}}")`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (e) {
    throw new InputError(`${file}: invalid YAML: ${(e as Error).message.split('\n')[0]} (expected a plain YAML mapping)`);
  }
  if (typeof data !== 'object' || Array.isArray(data))
    throw new InputError(`${file}:1: got ${Array.isArray(data) ? 'a list' : shown(data)} (expected a mapping of criteria to dimensions, e.g. "C10: {S: {level: 2, reason: …}}")`);
  const result = overridesSchema(rubric).safeParse(data);
  if (!result.success) {
    const all = result.error.issues.flatMap((i) => locate(i, doc, lines, data, rubric)).sort((a, b) => a.line - b.line);
    // Every problem in one pass (one line, '; ' between), so a reviewer fixes the file once, not once per run.
    const shownProblems = all.slice(0, MAX_PROBLEMS).map((p) => `${file}:${p.line}: ${p.message}`);
    const rest = all.length - shownProblems.length;
    throw new InputError(`${shownProblems.join('; ')}${rest ? `; and ${rest} more problem${rest === 1 ? '' : 's'}` : ''}`);
  }
  const parsed = result.data as Record<string, unknown> & z.infer<ReturnType<typeof overridesSchema>>;
  const out: Overrides = { levels: {}, surface: {}, ruleOfTwo: parsed.ruleOfTwo ?? {}, text: {} };
  for (const id of rubric.file.criteria) {
    const dims = parsed[id] as Overrides['levels'][string] | undefined;
    if (dims && DIMENSIONS.some((d) => dims[d])) out.levels[id] = dims;
  }
  for (const [id, o] of Object.entries(parsed.surface ?? {})) if (o) out.surface[id] = o;
  for (const k of TEXT_KEYS) if (parsed[k] !== undefined) out.text[k] = parsed[k];
  if (parsed.surfacesScored) out.text.surfacesScored = parsed.surfacesScored;
  return out;
}

export function loadOverrides(file: string, rubric: Rubric): Overrides {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot read the overrides file: ${(e as NodeJS.ErrnoException).code ?? 'error'} (expected a readable YAML file)`);
  }
  return parseOverrides(text, file, rubric);
}
