import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditDetailed } from '../src/audit.js';
import { explain, outcomesFromReport, outcomesFromResults, parseSelector, type Explanation } from '../src/explain/index.js';
import { explainLeg, type LegExplanation } from '../src/explain/leg.js';
import { renderExplanation, renderLegExplanation } from '../src/explain/markdown.js';
import { mdText } from '../src/render/escape.js';
import { ruleText } from '../src/render/rubric.js';
import type { Report } from '../src/report/schema.js';
import { loadRubric } from '../src/rubric/load.js';
import { DIMENSIONS, type Rubric } from '../src/rubric/schema.js';
import { insteadsOf } from '../src/rubric/instead.js';
import { cli, fixtureRepo, ROOT, RUBRIC } from './helpers.js';

const LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;
const names = readdirSync(join(ROOT, 'fixtures')).filter((n) => existsSync(join(ROOT, 'fixtures', n, 'expected.json')));

/** The checks every explanation must pass: it names the level, the rule that picked it and, below L4, the next level's failing rule. */
function checkExplanation(x: Explanation, md: string, rubric: Rubric, level: number): void {
  const ladder = rubric.criteria.find((c) => c.id === x.criterion)![x.dimension];
  expect(x.level).toBe(level);
  expect(md.split('\n')[0]).toBe(`# ${x.criterion}.${x.dimension} ${mdText(x.title)}, ${x.dimensionName}: L${level}`);
  // The ladder's words, or at an L0 reached without its own finding, the words for that, or the
  // words for an alternative the ladder does not describe.
  const spec = ladder[LEVELS[level]!];
  expect([spec.means, ...(level === 0 && spec.otherwise ? [spec.otherwise.means] : []), ...insteadsOf(spec).map((i) => i.means)]).toContain(x.means);
  expect(md).toContain(`**L${level}** (automated): ${mdText(x.means)}.`);
  if (level > 0) expect(md).toContain(`The highest level whose rule holds is **L${level}**: ${mdText(ruleText(ladder[LEVELS[level]!].when!))}`);
  else expect(md).toContain('No rule of L1–L4 holds, so the tool gives **L0**, the default');
  if (level === 4) {
    expect(x.next).toBeNull();
    expect(md).toContain('L4 is the top of the ladder.');
    return;
  }
  const next = ladder[LEVELS[level + 1]!];
  expect(x.next!.level).toBe(level + 1);
  expect(md).toContain(`## What would raise it to L${level + 1}`);
  const failing = next.when ? next.when : [level + 2, level + 3].filter((l) => l <= 4).map((l) => ladder[LEVELS[l]!].when).find(Boolean);
  if (!next.when) expect(md).toContain(`L${level + 1} has no rule: probes cannot show it`);
  if (failing) {
    const at = next.when ? level + 1 : x.nextWithRule!.level;
    expect(md).toContain(`L${at}'s rule fails: ${mdText(ruleText(failing))}`);
    // A failing rule comes with at least one way to satisfy it, each naming probes by title.
    const step = next.when ? x.next! : x.nextWithRule!;
    expect(step.needs.length).toBeGreaterThan(0);
    for (const alt of step.needs) expect(alt.length).toBeGreaterThan(0);
    expect(md).toContain(`${step.needs[0]![0]!.need}: ${mdText(step.needs[0]![0]!.title)} (\`${step.needs[0]![0]!.probe}\`)`);
  }
}

describe.each(names)('explain on fixture %s', (name) => {
  let run: Awaited<ReturnType<typeof auditDetailed>>;
  beforeAll(async () => {
    run = await auditDetailed(fixtureRepo(name).dir, { rubricDir: RUBRIC });
  });

  it('answers for all 40 dimensions from the repository, agreeing with the scored level', () => {
    const outcomes = outcomesFromResults(run.rubric, run.results, { webUrl: run.report.target.webUrl, commit: run.report.target.commit });
    let n = 0;
    for (const c of run.report.criteria) {
      for (const d of DIMENSIONS) {
        const x = explain({ report: run.report, rubric: run.rubric, outcomes, from: 'repo' }, c.id, d);
        expect(x.automated.level, `${c.id}.${d}`).toBe(c.levels[d]);
        expect(x.notes).toEqual([]);
        checkExplanation(x, renderExplanation(x), run.rubric, c.levels[d]);
        // Every probe a found rule leans on is listed with links to its lines.
        for (const p of x.probes.filter((o) => o.state === 'found')) expect(p.findings.length).toBeGreaterThan(0);
        n++;
      }
    }
    expect(n).toBe(40);
  });

  it('answers for the three Rule-of-Two legs, from the repository and from the saved report, agreeing with the scored legs', () => {
    const report = JSON.parse(JSON.stringify(run.report)) as Report;
    const fromRepo = outcomesFromResults(run.rubric, run.results, { webUrl: run.report.target.webUrl, commit: run.report.target.commit });
    for (const k of ['A', 'B', 'C'] as const) {
      for (const [input, from] of [[{ report: run.report, outcomes: fromRepo }, 'repo'], [{ report, outcomes: outcomesFromReport(run.rubric, report) }, 'report']] as const) {
        const x = explainLeg({ ...input, rubric: run.rubric, from }, k);
        const want = run.report.ruleOfTwo[k].holds;
        expect(x.automated.holds, `${k} from the ${from}`).toBe(want);
        if (from === 'repo') expect(x.notes).toEqual([]);
        const md = renderLegExplanation(x);
        expect(md.split('\n')[0]).toBe(`# Rule of Two [${k}] ${mdText(run.report.ruleOfTwo[k].label)}: ${want ? 'yes' : 'no'}`);
        expect(md).toContain(`## Why the tool says ${want ? 'yes' : 'no'}`);
        expect(md).toContain(`Same default session? ${run.report.ruleOfTwo.sameDefaultSession ? 'Yes' : 'No'}`);
        // Each way to turn the answer names at least one probe outcome.
        for (const alt of x.flip) expect(alt.length).toBeGreaterThan(0);
      }
    }
  });

  it('answers for all 40 dimensions from the saved report alone, reconstructing the same levels', () => {
    const report = JSON.parse(JSON.stringify(run.report)) as Report;
    const outcomes = outcomesFromReport(run.rubric, report);
    for (const c of report.criteria) {
      for (const d of DIMENSIONS) {
        const x = explain({ report, rubric: run.rubric, outcomes, from: 'report' }, c.id, d);
        expect(x.automated.level, `${c.id}.${d}`).toBe(c.levels[d]);
        const md = renderExplanation(x);
        expect(md).toContain('Explained from the report');
        checkExplanation(x, md, run.rubric, c.levels[d]);
      }
    }
  });
});

describe('explain', () => {
  // The CLI run in this process (see `cli` in helpers.ts).
  const run = (...args: string[]) => cli(args);

  it('shows, for desktop-chat C4.S, the picked rule, a probe that found it with links, and a search that came back empty', async () => {
    const rubric = loadRubric(RUBRIC);
    const r = await run('explain', 'fixtures/desktop-chat', 'C4.S');
    expect(r.code).toBe(0);
    const x = JSON.parse((await run('explain', 'fixtures/desktop-chat', 'C4.S', '--format', 'json')).stdout) as Explanation;
    const ladder = rubric.criteria.find((c) => c.id === 'C4')!.S;
    expect(x.level).toBeGreaterThan(0);
    expect(x.level).toBeLessThan(4);
    expect(r.stdout).toContain(`The highest level whose rule holds is **L${x.level}**: ${mdText(ruleText(ladder[LEVELS[x.level]!].when!))}`);
    expect(r.stdout).toMatch(/^- ✓ `[a-z.-]+` .*: found \d+ match(es)?.* — \[[^\]]+:\d+\]\([^)]+#L\d+\)/m);
    expect(r.stdout).toMatch(/^- ✗ `[a-z.-]+` .*: searched `[^`]+` in product code \(\d+ files\) → 0 hits \(.+\)$/m);
    expect(r.stdout).toContain(`## What would raise it to L${x.level + 1}`);
    expect(r.stdout).toMatch(/^Evidence that would satisfy it(: found: |, any one of:)/m);
  });

  it('explains a reviewed level from a saved report, and says the probe details need the repo', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explain-'));
    const overrides = join(dir, 'review.yaml');
    writeFileSync(overrides, 'C10:\n  S: {level: 2, reason: "loop capped at 25 steps", evidence: ["https://example.com/x#L3"]}\n');
    const json = await run('score', 'fixtures/desktop-chat', '--format', 'json', '--overrides', overrides);
    expect(json.code).toBe(0);
    const file = join(dir, 'report.json');
    writeFileSync(file, json.stdout);
    const md = await run('explain', file, 'c10.s');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('**L2** (reviewed; tool: L1): an iteration cap on the tool loop. Reviewer: loop capped at 25 steps ([https://example.com/x#L3](https://example.com/x#L3))');
    expect(md.stdout).toContain('The highest level whose rule holds is **L1**');
    expect(md.stdout).toContain('## What would raise it to L3');
    expect(md.stdout).toContain('need the repository');
    const x = JSON.parse((await run('explain', file, 'C10.S', '--format', 'json')).stdout) as Explanation;
    expect(x).toMatchObject({ from: 'report', level: 2, source: 'reviewed', automated: { level: 1 }, reviewer: { automatedLevel: 1 }, next: { level: 3 } });
  });

  it('explains a Rule-of-Two leg: the condition traced to its probes, what would turn it, and a reviewer who changed it', async () => {
    const r = await run('explain', 'fixtures/desktop-chat', 'R2.A');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('# Rule of Two [A] untrusted input: yes');
    expect(r.stdout).toContain("The leg's rule holds: condition untrusted-in");
    expect(r.stdout).toMatch(/^- ✓ `[a-z.-]+` .*: found .* — \[[^\]]+:\d+\]\([^)]+#L\d+\)/m);
    expect(r.stdout).toContain('## What would make it no');
    const dir = mkdtempSync(join(tmpdir(), 'explain-leg-'));
    const overrides = join(dir, 'review.yaml');
    writeFileSync(overrides, 'ruleOfTwo:\n  A: {holds: false, reason: "web search is off in the scored configuration", evidence: [settings.json]}\n');
    const json = await run('score', 'fixtures/desktop-chat', '--format', 'json', '--overrides', overrides);
    const file = join(dir, 'report.json');
    writeFileSync(file, json.stdout);
    const x = JSON.parse((await run('explain', file, 'r2:a', '--format', 'json')).stdout) as LegExplanation;
    expect(x).toMatchObject({ from: 'report', leg: 'A', holds: false, source: 'reviewed', automated: { holds: true }, session: { A: false, same: false } });
    expect((await run('explain', file, 'R2.A')).stdout).toContain('**no** (reviewed; tool: yes). Reviewer: web search is off in the scored configuration (settings.json)');
  });

  it.each([
    [['explain', 'fixtures/desktop-chat', 'R2.D'], /^audit: unknown Rule-of-Two leg 'R2\.D' \(expected R2\.A, R2\.B or R2\.C\)/],
    [['explain', 'fixtures/desktop-chat', 'C11.S'], /^audit: unknown dimension 'C11\.S' \(expected <criterion>\.<dimension>, e\.g\. C4\.S/],
    [['explain', 'fixtures/desktop-chat', 'C4'], /^audit: unknown dimension 'C4'/],
    [['explain', 'package.json', 'C4.S'], /^audit: package\.json: not a valid report: at tool: .*\(expected a report written by `agent-audit score --format json`\)$/m],
  ])('fails on bad input with exit code 2: %s', async (args, message) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('parses selectors in either case and with a colon', () => {
    const rubric = loadRubric(RUBRIC);
    expect(parseSelector('c4.s', rubric)).toEqual({ criterion: 'C4', dimension: 'S' });
    expect(parseSelector('C10:B', rubric)).toEqual({ criterion: 'C10', dimension: 'B' });
  });
});
