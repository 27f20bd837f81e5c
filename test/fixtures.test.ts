import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/render/markdown.js';
import { reportSchema, type Report } from '../src/report/schema.js';
import { showTotal } from '../src/score/arithmetic.js';
import { auditedFixture, ROOT, inWorkerOrder } from './helpers.js';

interface Expected {
  levels: Record<string, [number, number, number, number]>;
  caps: Record<string, number>;
  total: string;
  band: string;
}

const names = inWorkerOrder(readdirSync(join(ROOT, 'fixtures')).filter((n) => existsSync(join(ROOT, 'fixtures', n, 'expected.json'))));

describe.each(names)('fixture %s', (name) => {
  const expected = JSON.parse(readFileSync(join(ROOT, 'fixtures', name, 'expected.json'), 'utf8')) as Expected;
  let repo: { commit: string };
  let report: Report;
  beforeAll(async () => {
    ({ report, ...repo } = await auditedFixture(name));
  });

  it('is pinned to the commit and valid against the report schema', () => {
    expect(report.target.commit).toBe(repo.commit);
    expect(reportSchema.safeParse(report).success).toBe(true);
  });

  it('gives the expected levels, caps, total and band', () => {
    const levels = Object.fromEntries(report.criteria.map((c) => [c.id, [c.levels.S, c.levels.C, c.levels.D, c.levels.B]]));
    expect(levels).toEqual(expected.levels);
    const caps = Object.fromEntries(report.criteria.filter((c) => c.cap !== null).map((c) => [c.id, c.cap]));
    expect(caps).toEqual(expected.caps);
    expect(showTotal(report.totalNumerator, 40)).toBe(expected.total);
    expect(report.band).toBe(expected.band);
  });

  it('cites lines that contain the matched text, and marks every piece verified', () => {
    const all = [...report.criteria.flatMap((c) => c.evidence), ...report.surface.flatMap((s) => s.evidence)];
    expect(all.length).toBeGreaterThan(0);
    for (const e of all) {
      expect(e.verified, JSON.stringify(e)).toBe(true);
      if (e.kind !== 'lines') continue;
      const lines = readFileSync(join(ROOT, 'fixtures', name, e.path), 'utf8').split('\n');
      expect(lines.slice(e.startLine - 1, e.endLine).join('\n')).toContain(e.text);
      expect(e.link).toBe(`${e.path.replace(/[^/]+/g, (s) => encodeURIComponent(s).replace(/%24/g, '$'))}#L${e.startLine}${e.endLine === e.startLine ? '' : `-L${e.endLine}`}`);
    }
  });

  it('decides every dimension by probe evidence', () => {
    const defaulted = report.criteria.flatMap((c) => (['S', 'C', 'D', 'B'] as const).filter((d) => c.dimensions[d].decidedBy === 'default').map((d) => `${c.id}.${d}`));
    expect(defaulted).toEqual([]);
  });

  it('renders the golden scorecard', () => {
    const golden = join(ROOT, 'test', 'golden', `${name}.md`);
    const md = renderMarkdown(report);
    // Goldens are written only by `npm run golden`, after a change to the scorecard was meant.
    expect(existsSync(golden), `no golden scorecard for ${name}: write it with npm run golden and review it`).toBe(true);
    expect(md).toBe(readFileSync(golden, 'utf8'));
  });
});
