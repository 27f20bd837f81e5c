import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../src/audit.js';
import { diffReports, gateFailures, reauditLog, renderDiffMarkdown } from '../src/diff/index.js';
import type { Evidence, Report } from '../src/report/schema.js';
import { cli, ROOT, RUBRIC } from './helpers.js';

/** The CLI run in this process (see `cli` in helpers.ts). */
const run = (...args: string[]) => cli(args);

type Criterion = Report['criteria'][number];
const crit = (r: Report, id: string): Criterion => r.criteria.find((c) => c.id === id)!;
const total = (r: Report) => ({ numerator: r.totalNumerator, denominator: 40 });

/** A report as if C2's approval step had been removed: S L3 → L0, its evidence swapped for an empty search. */
function withoutApproval(base: Report): Report {
  const r = structuredClone(base);
  const c2 = crit(r, 'C2');
  const search: Evidence = { kind: 'search', probe: 'approval.prompt', command: "rg -n 'requestToolApproval'", terms: 'requestToolApproval', scope: ['.'], filesSearched: 22, hits: 0, meaning: 'no approval step before tools run', verified: true };
  const drop = 3 * c2.levels.S; // S weighs 3 fortieths per level
  c2.levels.S = 0;
  c2.dimensions.S = { ...c2.dimensions.S, level: 0, means: 'no approval step', evidence: [search] };
  c2.rawNumerator -= drop;
  c2.scoreNumerator -= drop;
  r.totalNumerator -= drop;
  return r;
}

describe('diffReports', () => {
  let base: Report;
  beforeAll(async () => {
    base = await audit(join(ROOT, 'fixtures', 'desktop-chat'), { rubricDir: RUBRIC });
  });

  it('reports nothing for the same report, and says "No changes."', () => {
    const d = diffReports(base, structuredClone(base));
    expect(d.changed).toBe(false);
    expect(d.regressions).toEqual([]);
    expect(renderDiffMarkdown(d)).toMatch(/\nNo changes\.\n$/);
    expect(reauditLog(d).at(-1)).toBe('No changes.');
  });

  it('matches evidence by probe, path and text, so code that only moved is no change', () => {
    const moved = structuredClone(base);
    for (const c of moved.criteria)
      for (const d of ['S', 'C', 'D', 'B'] as const)
        for (const e of c.dimensions[d].evidence) {
          if (e.kind === 'lines') Object.assign(e, { startLine: e.startLine + 7, endLine: e.endLine + 7, link: `${e.path}#L${e.startLine + 7}` });
          else e.filesSearched += 3;
        }
    const d = diffReports(base, moved);
    expect(d.changed).toBe(false);
    expect(renderDiffMarkdown(d)).toContain('No changes.');
  });

  it('names the dimension that dropped, old → new level, the evidence that vanished and appeared, and the score change', () => {
    const after = withoutApproval(base);
    const d = diffReports(base, after);
    expect(d.comparison).toBe('code');
    expect(d.criteria.map((c) => c.id)).toEqual(['C2']);
    const s = d.criteria[0]!.dimensions[0]!;
    expect(s).toMatchObject({ dimension: 'S', from: 3, to: 0 });
    const before = crit(base, 'C2').dimensions.S.evidence;
    expect(before.some((e) => e.kind === 'lines' && e.probe === 'approval.prompt')).toBe(true);
    expect(s.vanished).toEqual(before.filter((e, i) => before.findIndex((x) => JSON.stringify(x) === JSON.stringify(e)) === i));
    expect(s.appeared.map((e) => e.probe)).toEqual(['approval.prompt']);
    expect(d.regressions).toEqual([{ kind: 'level', criterion: 'C2', dimension: 'S', from: 3, to: 0 }]);

    const md = renderDiffMarkdown(d);
    expect(md).toContain('### C2 Approval gates: 0.57 → 0.35 (-0.225)');
    expect(md).toContain('- **S L3 → L0:** no approval step');
    expect(md).toMatch(/\n  - disappeared: `approval\.prompt` \[web-app\/src\/[^\]]+\.tsx?:\d+\]\(web-app\/src\/[^)]+#L\d+\) \(a tool path waits for the user's answer before it acts\)\n/);
    expect(md).toMatch(/- appeared: `approval\.prompt`: searched `rg -n 'requestToolApproval' \.` → 0 hits \(no approval step before tools run\)/);
    expect(md).toContain('**Total:** 4.7 → 4.5 (-0.225)');
    expect(md).toContain('- C2 S L3→L0 (level dropped)');
    expect(md).not.toContain('No changes.');

    const log = reauditLog(d);
    const line = log.find((l) => l.startsWith('C2 S L3→L0 (no approval step): '))!;
    expect(line).toMatch(/^C2 S L3→L0 \(no approval step\): disappeared: approval\.prompt at web-app\/src\/\S+:\d+ \(a tool path waits for the user's answer before it acts\); .*; appeared: empty search for approval\.prompt \(no approval step before tools run\)\.$/);

    // The reverse is an improvement: nothing regressed.
    const back = diffReports(after, base);
    expect(back.changed).toBe(true);
    expect(back.regressions).toEqual([]);
    expect(renderDiffMarkdown(back)).toContain('- None: no level dropped, no cap newly fired, no critical gap added.');
  });

  it('counts a newly fired cap and a new critical gap as regressions', () => {
    const after = structuredClone(base);
    const c4 = crit(after, 'C4');
    Object.assign(c4, { cap: 0.2, capReason: 'model-written code runs on the host', scoreNumerator: 8 });
    after.criticalGaps.push({ criterion: 'C4', reason: 'capped at 0.20: model-written code runs on the host' });
    const d = diffReports(base, after);
    expect(d.regressions.map((r) => r.kind)).toEqual(['cap', 'critical-gap']);
    const md = renderDiffMarkdown(d);
    expect(md).toContain('- **Cap none → 0.20**: model-written code runs on the host');
    expect(md).toContain('- Critical gap added: C4: capped at 0.20');
    expect(gateFailures(total(after), d, { failOnRegression: true })[0]).toBe('--fail-on-regression: 2 regressions since the baseline: C4 capped at 0.20, C4 became a critical gap');
  });

  it('reports a rubric change as such and never as code changes', () => {
    const other = withoutApproval(base);
    other.rubric = { ...other.rubric, version: '1.1.0', hash: 'f'.repeat(64) };
    other.target.commit = 'b'.repeat(40);
    const d = diffReports(base, other);
    expect(d.comparison).toBe('incomparable');
    expect(d.criteria).toEqual([]);
    expect(d.regressions).toEqual([]);
    const md = renderDiffMarkdown(d);
    expect(md).toContain('**Rubric changed: dids 1.0.0 (');
    expect(md).toContain('levels are not compared across rubric versions');
    expect(md).not.toContain('## Changes');
    expect(md).toContain('- Not judged: levels are not compared across rubric versions.');
    // A gate cannot pass on a comparison it could not make.
    expect(gateFailures(total(other), d, { failOnRegression: true })[0]).toMatch(/^--fail-on-regression: the baseline was scored with rubric dids 1\.0\.0 .* so regressions cannot be judged/);

    // Same commit, other rubric: every movement is the rubric's, listed under the rubric note, not a regression.
    const a = structuredClone(base);
    a.target.commit = 'c'.repeat(40);
    const b = structuredClone(other);
    b.target.commit = a.target.commit;
    const same = diffReports(a, b);
    expect(same.comparison).toBe('rubric');
    expect(same.criteria.map((c) => c.id)).toEqual(['C2']);
    expect(same.regressions).toEqual([]);
    expect(renderDiffMarkdown(same)).toContain('at the same commit: every change listed comes from the rubric, not from the code.');
  });

  it('escapes everything that came from the target', () => {
    const after = withoutApproval(base);
    const ev = crit(after, 'C2').dimensions.S.evidence;
    ev.push({ kind: 'lines', probe: 'approval.prompt', path: 'x|y](javascript:alert(1))<img src=x>.ts', startLine: 1, endLine: 1, text: 'sk-ant-THISISNOTSHOWN0123456789', link: 'javascript:alert(1)', verified: true, shows: 'a <b>finding</b>' });
    after.target.name = '<script>alert(1)</script> | x';
    const md = renderDiffMarkdown(diffReports(base, after));
    expect(md).toContain('# Re-audit: &lt;script&gt;alert(1)&lt;/script&gt; \\| x');
    expect(md).not.toMatch(/<img|<script|[^\\]\]\(javascript:/);
    // The link text is escaped and the javascript: target neutralised (to '#' or a relative path).
    expect(md).toMatch(/\[x\\\|y\\\]\(javascript:alert\(1\)\)&lt;img src=x&gt;\.ts:1\]\((#|\.\/[^)\s]*)\) \(a &lt;b&gt;finding&lt;\/b&gt;\)/);
    // Matched text can be a committed secret: the log, like the scorecard, cites lines without it.
    expect(md).not.toContain('THISISNOTSHOWN');
  });
});

describe('audit diff and score --baseline (CLI)', () => {
  let dir: string;
  let oldFile: string;
  let newFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'diff-'));
    const base = await audit(join(ROOT, 'fixtures', 'desktop-chat'), { rubricDir: RUBRIC });
    oldFile = join(dir, 'old.json');
    newFile = join(dir, 'new.json');
    writeFileSync(oldFile, JSON.stringify(base));
    writeFileSync(newFile, JSON.stringify(withoutApproval(base)));
  });

  it('prints the markdown log, the JSON comparison, and exits 1 on a regression only when asked', async () => {
    const md = await run('diff', oldFile, newFile);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# Re-audit: desktop-chat\n/);
    expect(md.stdout).toContain('- **S L3 → L0:** no approval step');
    const json = await run('diff', oldFile, newFile, '--format', 'json');
    expect(JSON.parse(json.stdout)).toMatchObject({ comparison: 'code', changed: true, regressions: [{ kind: 'level', criterion: 'C2', dimension: 'S', from: 3, to: 0 }] });
    const gated = await run('diff', oldFile, newFile, '--fail-on-regression');
    expect(gated.code).toBe(1);
    expect(gated.stdout).toContain('## Regressions');
    expect(gated.stderr).toBe('audit: gate failed: --fail-on-regression: 1 regression since the baseline: C2 S L3→L0\n');
    expect((await run('diff', newFile, oldFile, '--fail-on-regression')).code).toBe(0);
  });

  it.each([
    ['a missing report', () => [join(dir, 'nope.json')], /^audit: cannot read report .*nope\.json: ENOENT \(expected a report written by `agent-audit score --format json`\)\n$/],
    ['a file that is not JSON', () => [write('bad.json', '{ nope')], /^audit: .*bad\.json: not JSON \(expected a report/],
    ['JSON that is not a report', () => [write('other.json', '{"criteria": 3}')], /^audit: .*other\.json: not a valid report: at tool: .*\(expected a report/],
  ])('rejects %s with exit code 2, naming the file', async (_what, args, message) => {
    const r = await run('diff', ...args(), newFile);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('rejects a --baseline that is not a report before scoring', async () => {
    const s = await run('score', 'fixtures/desktop-chat', '--baseline', write('other2.json', '[]'));
    expect(s.code).toBe(2);
    expect(s.stdout).toBe('');
    expect(s.stderr).toMatch(/^audit: .*other2\.json: not a valid report: at \(top level\): .*\(expected a report written by `agent-audit score --format json`\)\n$/);
  });

  function write(name: string, text: string): string {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  }

  it.each([
    [['--fail-on-regression'], /^audit: --fail-on-regression needs --baseline/],
    [['--fail-under', '11'], /^audit: --fail-under '11': expected a total from 0 to 10\n$/],
    [['--fail-under', 'high'], /^audit: --fail-under 'high'/],
    [['--format', 'sarif', '--sarif-min-level', '5'], /^audit: --sarif-min-level '5': expected a level from 0 to 4\n$/],
  ])('rejects bad gate options %j with exit code 2 before scoring', async (args, message) => {
    const r = await run('score', 'fixtures/desktop-chat', ...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('fills the Re-audit log from --baseline, and a failed gate still writes the report', async () => {
    const out = join(dir, 'card.md');
    const r = await run('score', 'fixtures/desktop-chat', '--baseline', newFile, '--fail-under', '4.8', '--fail-on-regression', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('audit: gate failed: --fail-under 4.8: total 4.725 (shown 4.7) is under 4.8\n');
    const card = readFileSync(out, 'utf8');
    const log = card.slice(card.indexOf('## Re-audit log'), card.indexOf('## Limitations'));
    expect(log).toContain('- Baseline: commit an unpinned working tree, rubric dids 1.0.0, total 4.5 (Minimal).');
    expect(log).toContain('- C2 S L0→L3 (per-call approval with the exact input and deny / once / thread / always choices): disappeared: empty search for approval.prompt');
  });

  it('judges --fail-under on the unrounded total', () => {
    const t = { numerator: 189, denominator: 40 };
    expect(gateFailures(t, null, { failUnder: 4.725 })).toEqual([]);
    expect(gateFailures(t, null, { failUnder: 4.7 })).toEqual([]);
    expect(gateFailures(t, null, { failUnder: 4.75 })).toEqual(['--fail-under 4.75: total 4.725 (shown 4.7) is under 4.75']);
  });

  it('documents the exit codes in --help', async () => {
    for (const cmd of ['score', 'diff']) expect((await run(cmd, '--help')).stdout).toContain('Exit codes: 0 done (every gate passed) · 1 a gate failed (the output is still written) · 2 usage or input error');
  });
});
