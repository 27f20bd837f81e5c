import { readdirSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { excludedByPath } from '../src/inventory/classify.js';
import { renderMarkdown } from '../src/render/markdown.js';
import type { Report } from '../src/report/schema.js';
import { auditedFixture, ROOT, inWorkerOrder } from './helpers.js';

/** Every fixture that is an agent: those with expected levels, and the agent-model fixtures. */
const FIXTURES = inWorkerOrder(readdirSync(join(ROOT, 'fixtures')).filter((n) => existsSync(join(ROOT, 'fixtures', n, 'expected.json')) || existsSync(join(ROOT, 'fixtures', n, 'expected-model.json'))));

const surface = (r: Report, id: string) => r.surface.find((s) => s.id === id)!.value;
const capped = (r: Report, id: string) => r.criteria.find((c) => c.id === id)!.cap !== null;

/**
 * No part of a scorecard may contradict another: the header's agent surface, the caps, the Rule of
 * Two, the Tools section and the prose are all read from the same facts, and these checks say how
 * they must agree.
 */
describe.each(FIXTURES)('the scorecard of %s agrees with itself', (name) => {
  let r: Report;
  let md: string;
  beforeAll(async () => {
    r = (await auditedFixture(name)).report;
    md = renderMarkdown(r);
  });

  it('never negates twice', () => {
    expect(md).not.toMatch(/\bno no\b|\bnot not\b/i);
  });

  it('says code execution is on wherever a cap says model code runs unasked', () => {
    if (capped(r, 'C4')) expect(surface(r, 'code-execution')).toBe('yes');
    if (capped(r, 'C2')) expect([surface(r, 'code-execution'), surface(r, 'filesystem-write')]).toContain('yes');
  });

  it('fires the approval cap exactly when the Tools section lists a command or write path that runs unasked', () => {
    const open = (r.agent?.tools ?? []).filter((t) => t.status !== 'unresolved' && t.paths.some((p) => (p.kind === 'exec' || p.kind === 'write') && !p.gated && !p.isolated));
    expect(capped(r, 'C2'), open.map((t) => t.name).join(', ') || 'no ungated command or write path').toBe(open.length > 0);
  });

  it('names in the summary the same tools the Tools section marks as acting unasked', () => {
    const ungated = (r.agent?.tools ?? []).filter((t) => t.status === 'ungated');
    const summary = md.slice(md.indexOf('## Score'), md.indexOf('## Critical gaps'));
    if (ungated.length) expect(summary).toContain('with nobody asked');
    else expect(summary).not.toContain('with nobody asked');
  });

  it('lists in each Tools row what its guard column says runs unasked', () => {
    const rows = md.slice(md.indexOf('## Tools'), md.indexOf('## Criterion details')).split('\n').filter((l) => l.startsWith('| `'));
    for (const r of rows) {
      const [, , reach, guard] = r.split(' | ');
      for (const m of guard!.matchAll(/\*\*(.+?) unasked\*\*/g)) expect(reach, r).toContain(m[1]);
    }
  });

  it('backs the Rule of Two legs it answers yes with the surface it lists', () => {
    if (r.ruleOfTwo.C.holds) expect(['code-execution', 'filesystem-write', 'network-egress', 'external-communication'].map((id) => surface(r, id))).toContain('yes');
    if (r.ruleOfTwo.A.holds) expect(['untrusted-input', 'network-egress', 'external-communication'].map((id) => surface(r, id))).toContain('yes');
  });

  it('reports code execution as off only when no tool reaches a command', () => {
    const exec = (r.agent?.tools ?? []).some((t) => t.status !== 'unresolved' && t.reaches.includes('exec'));
    if (exec) expect(surface(r, 'code-execution')).not.toBe('no');
  });

  it('shows a search as a short rg command only where that command comes back empty on the fixture', () => {
    const root = join(ROOT, 'fixtures', name);
    const filesUnder = (folder: string): string[] => {
      const at = join(root, folder);
      if (!existsSync(at)) return [];
      if (!statSync(at).isDirectory()) return [at];
      // What a reader's rg finds beyond the files the audit probes (tests, docs) is not claimed: the Limitations say so.
      return readdirSync(at, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.parentPath.includes('.git'))
        .map((e) => join(e.parentPath, e.name))
        .filter((f) => !excludedByPath(f.slice(root.length + 1)));
    };
    const shown = [...md.matchAll(/searched `rg -n (?:-e )?'([^']*)' ([^`]*)` → 0 hits/g)];
    for (const [line, pattern, where] of shown) {
      const terms = pattern!.split('|').map((t) => t.replace(/\\(.)/g, '$1'));
      const hits = where!.split(' ').flatMap(filesUnder).filter((f) => terms.some((t) => readFileSync(f, 'utf8').includes(t)));
      expect(hits.map((f) => f.slice(root.length + 1)), line).toEqual([]);
    }
  });

  it('writes every criterion paragraph as prose, never as a list of probe titles', () => {
    expect(md).not.toContain('No control of this criterion was found');
    expect(md).not.toMatch(/^Found: /m);
  });
});
