import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Evidence, Report } from '../../src/report/schema.js';
import { git, ROOT } from '../helpers.js';

export const DIMENSIONS = ['S', 'C', 'D', 'B'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * Copies fixture folders into one fresh git repository, each layer over the ones before it (same paths
 * replaced), with one commit at the fixed date of test/helpers.ts.
 */
export function layeredRepo(name: string, layers: string[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), `audit-${name}-`)), name);
  for (const layer of layers) cpSync(join(ROOT, 'fixtures', layer), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `fixture ${name} (${layers.join(' + ')})`);
  return dir;
}

/** Every level of the report, keyed "C2.S". */
export function levelsOf(report: Report): Record<string, number> {
  return Object.fromEntries(report.criteria.flatMap((c) => DIMENSIONS.map((d) => [`${c.id}.${d}`, c.levels[d]])));
}

/** Every cap value, null where none fired. */
export function capsOf(report: Report): Record<string, number | null> {
  return Object.fromEntries(report.criteria.map((c) => [c.id, c.cap]));
}

/** Where the evidence points: path#line for found code, the probe for an empty search. */
export function cited(evidence: Evidence[]): string {
  return evidence.map((e) => (e.kind === 'lines' ? `${e.path}#L${e.startLine}` : `no hits for ${e.probe}`)).join(', ') || 'no evidence';
}

/** The level of one dimension with what it means and what decided it, for failure messages. */
export function describeLevel(report: Report, criterion: string, dimension: Dimension): string {
  const c = report.criteria.find((x) => x.id === criterion);
  if (!c) return `${criterion} is not in the report`;
  const dim = c.dimensions[dimension];
  return `${criterion}.${dimension} L${dim.level} (${dim.means}) from ${cited(dim.evidence)}`;
}

const reach = z.enum(['exec', 'write', 'net', 'read', 'secrets', 'config']);
const pin = z.union([z.number().int().min(0).max(4), z.tuple([z.number().int().min(0).max(4), z.number().int().min(0).max(4)])]);

/** fixtures/<name>/expected-model.json: what a reviewer reads from the fixture's code. */
export const expectedModelSchema = z
  .object({
    tools: z.array(
      z.object({ name: z.string(), reaches: z.array(reach), gated: z.boolean(), isolated: z.boolean(), why: z.string().min(1) }).strict(),
    ),
    levels: z.record(z.string().regex(/^C(10|[1-9])$/), z.object({ S: pin, C: pin, D: pin, B: pin }).partial().strict()),
    caps: z.record(z.string().regex(/^C(10|[1-9])$/), z.boolean()),
  })
  .strict();
export type ExpectedModel = z.infer<typeof expectedModelSchema>;
export type Pin = z.infer<typeof pin>;

export function readExpectedModel(name: string): ExpectedModel {
  return expectedModelSchema.parse(JSON.parse(readFileSync(join(ROOT, 'fixtures', name, 'expected-model.json'), 'utf8')));
}

export const inPin = (level: number, p: Pin): boolean => (typeof p === 'number' ? level === p : level >= p[0] && level <= p[1]);
export const showPin = (p: Pin): string => (typeof p === 'number' ? `L${p}` : `L${p[0]}–L${p[1]}`);
