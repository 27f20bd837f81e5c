import { describe, expect, it } from 'vitest';
import { mdText } from '../src/render/escape.js';
import { renderRubric, ruleText } from '../src/render/rubric.js';
import { loadRubric } from '../src/rubric/load.js';
import { DIMENSIONS } from '../src/rubric/schema.js';
import { cli, RUBRIC } from './helpers.js';

const rubric = loadRubric(RUBRIC);
/** The CLI run in this process (see `cli` in helpers.ts). */
const run = (...args: string[]) => cli(args);

describe('ruleText', () => {
  it.each([
    ['sandbox.os', 'found: sandbox.os'],
    [{ all: ['sandbox.os', { not: 'sandbox.fallback-flag' }] }, 'found: sandbox.os AND NOT found: sandbox.fallback-flag'],
    [{ any: ['sandbox.os', { all: ['sandbox.container-hardening', 'sandbox.no-network'] }] }, 'found: sandbox.os OR (found: sandbox.container-hardening AND found: sandbox.no-network)'],
    [{ all: [{ cond: 'isolated-any' }, { not: { cond: 'host-exec' } }, { any: [{ not: 'ext.mcp-launch' }, 'ext.sandboxed'] }] }, 'condition isolated-any AND NOT condition host-exec AND (NOT found: ext.mcp-launch OR found: ext.sandboxed)'],
    [{ absent: 'secrets.logged' }, 'searched, not found: secrets.logged'],
    [{ not: { any: ['a.b', 'c.d'] } }, 'NOT (found: a.b OR found: c.d)'],
    [{ all: ['a.b'] }, 'found: a.b'],
  ] as const)('renders %j', (rule, text) => {
    expect(ruleText(rule as never)).toBe(text);
  });
});

describe('audit rubric show', () => {
  it('prints C4 from the rubric data: every level means and rule, the next steps, caps, conditions, probes and playbooks', async () => {
    const r = await run('rubric', 'show', 'C4');
    expect(r.code).toBe(0);
    const md = r.stdout;
    const c4 = rubric.criteria.find((c) => c.id === 'C4')!;
    expect(md).toContain(`## C4 ${mdText(c4.title)}`);
    for (const d of DIMENSIONS) {
      expect(md).toContain(`### C4 ${d}: `);
      for (const [key, spec] of Object.entries(c4[d])) {
        expect(md).toContain(`- **${key}** ${mdText(spec.means)}`);
        if (spec.when && key !== 'L0') expect(md).toContain(`  - Rule: ${mdText(ruleText(spec.when))}`);
        if (!spec.when && key !== 'L0') expect(md).toContain('  - Rule: none: probes cannot show this level');
      }
    }
    for (const cap of rubric.file.caps.filter((c) => c.criterion === 'C4')) expect(md).toContain(`(\`${cap.id}\`) when ${mdText(ruleText(cap.when))}: ${mdText(cap.explain)}`);
    expect(md).toContain(`- \`isolated-any\`: ${ruleText(rubric.file.conditions['isolated-any']!)}`);
    expect(md).toMatch(/\| `sandbox\.microvm` \| kernel-separated sandbox/);
    const p2 = rubric.playbooks.find((p) => p.id === 'P2')!;
    expect(md).toContain(`### P2 ${mdText(p2.title)}`);
    p2.steps.forEach((s, i) => expect(md).toContain(`${i + 1}. ${mdText(s)}`));
    // Only C4: no other criterion's ladder.
    expect(md).not.toContain('## C5 ');
  });

  it('prints the whole rubric: every criterion, the agent surface, the Rule of Two and every playbook', () => {
    const md = renderRubric(rubric);
    for (const c of rubric.criteria) expect(md).toContain(`## ${c.id} ${mdText(c.title)}`);
    for (const p of rubric.playbooks) expect(md).toContain(`### ${p.id} ${mdText(p.title)}`);
    for (const k of ['A', 'B', 'C'] as const) expect(md).toContain(`**[${k}] ${mdText(rubric.surface.ruleOfTwo[k].label)}** when ${mdText(ruleText(rubric.surface.ruleOfTwo[k].when))}`);
    expect(md).toContain(`Generated from the rubric data (hash \`${rubric.hash.slice(0, 12)}\`)`);
  });

  it('rejects an unknown criterion with exit code 2', async () => {
    const r = await run('rubric', 'show', 'C11');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('audit: unknown criterion \'C11\' (expected one of: C1, C2, C3, C4, C5, C6, C7, C8, C9, C10)\n');
  });
});
