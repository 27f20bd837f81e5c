import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../src/audit.js';
import { parseOverrides } from '../src/overrides/index.js';
import { MAX_PROBLEMS } from '../src/overrides/load.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { reportSchema, type Report } from '../src/report/schema.js';
import { loadRubric } from '../src/rubric/load.js';
import { showTotal } from '../src/score/arithmetic.js';
import { cli, fixtureRepo, RUBRIC } from './helpers.js';

const rubric = loadRubric(RUBRIC);
const dir = mkdtempSync(join(tmpdir(), 'overrides-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const REVIEW = `# A reviewer's corrections to the desktop-chat draft
C10:
  S:
    level: 2
    reason: The agent loop stops after 25 steps (checked by hand in the runner).
    evidence: ["https://example.com/desktop-chat/blob/abc/runner.rs#L10", "manual run with a looping prompt"]
C5:
  B: { level: 2, reason: Fetched pages cannot reach a tool that writes or sends. }
`;

describe('overrides on the desktop-chat draft', () => {
  let draft: Report;
  let reviewed: Report;
  beforeAll(async () => {
    const { dir: repo } = fixtureRepo('desktop-chat');
    draft = await audit(repo, { rubricDir: RUBRIC });
    reviewed = await audit(repo, { rubricDir: RUBRIC, overrides: file('review.yaml', REVIEW) });
  });

  it('moves the total from 189/40 by +3 (C10 S) and +2 (C5 B) to 194/40, shown 4.8', () => {
    expect(draft.totalNumerator).toBe(189);
    expect(reviewed.totalNumerator).toBe(194);
    expect(showTotal(reviewed.totalNumerator, 40)).toBe('4.8');
    expect(reportSchema.safeParse(reviewed).success).toBe(true);
    const c10 = reviewed.criteria.find((c) => c.id === 'C10')!;
    const c5 = reviewed.criteria.find((c) => c.id === 'C5')!;
    expect(c10.levels).toEqual({ ...draft.criteria.find((c) => c.id === 'C10')!.levels, S: 2 });
    expect(c5.levels).toEqual({ ...draft.criteria.find((c) => c.id === 'C5')!.levels, B: 2 });
    expect(c10.scoreNumerator).toBe(11);
    expect(c5.scoreNumerator).toBe(17);
  });

  it('marks the two levels reviewed, with the reason, the evidence and the level the tool gave; the rest automated', () => {
    const dims = reviewed.criteria.flatMap((c) => (['S', 'C', 'D', 'B'] as const).map((d) => ({ id: `${c.id}.${d}`, x: c.dimensions[d] })));
    expect(dims.filter((d) => d.x.source === 'reviewed').map((d) => d.id)).toEqual(['C5.B', 'C10.S']);
    expect(dims.filter((d) => d.x.source === 'automated')).toHaveLength(38);
    const s = reviewed.criteria.find((c) => c.id === 'C10')!.dimensions.S;
    expect(s.reviewer).toEqual({
      reason: 'The agent loop stops after 25 steps (checked by hand in the runner).',
      evidence: ['https://example.com/desktop-chat/blob/abc/runner.rs#L10', 'manual run with a looping prompt'],
      automatedLevel: 1,
    });
    // The level's meaning and next step follow the reviewed level; the tool's evidence stays.
    expect(s.means).toBe(rubric.criteria.find((c) => c.id === 'C10')!.S.L2.means);
    expect(s.evidence).toEqual(draft.criteria.find((c) => c.id === 'C10')!.dimensions.S.evidence);
  });

  it("keeps the tool's own words where a reviewer confirms its level", async () => {
    // A level the tool words otherwise than its ladder (an L0 reached without its own finding says
    // what the code lacks): confirming it must not swap in the ladder's claim.
    const own = draft.criteria.flatMap((c) => (['S', 'C', 'D', 'B'] as const).map((d) => ({ c, d, x: c.dimensions[d] }))).find(({ c, d, x }) => x.means !== rubric.criteria.find((r) => r.id === c.id)![d][`L${x.level}` as 'L0'].means)!;
    expect(own).toBeDefined();
    const { dir: repo } = fixtureRepo('desktop-chat');
    const confirmed = await audit(repo, { rubricDir: RUBRIC, overrides: file('confirm.yaml', `${own.c.id}:\n  ${own.d}: { level: ${own.x.level}, reason: Checked by hand. }\n`) });
    const x = confirmed.criteria.find((c) => c.id === own.c.id)!.dimensions[own.d];
    expect(x.source).toBe('reviewed');
    expect(x.means).toBe(own.x.means);
    expect(x.next).toBe(own.x.next);
  });

  it('recomputes improvements from the final levels', () => {
    const moves = (r: Report) => r.improvements.map((m) => `${m.criterion} ${m.dimension} L${m.from}→L${m.to}`);
    expect(moves(draft)).toContain('C10 S L1→L2');
    expect(moves(reviewed)).not.toContain('C10 S L1→L2');
    expect(moves(reviewed)).not.toContain('C5 B L1→L2');
  });

  it('shows reviewed levels beside the tool evidence in the markdown and counts them in the Limitations', () => {
    const md = renderMarkdown(reviewed);
    expect(md).toContain('## Score: 4.8 / 10.0 (Minimal)');
    const line = md.split('\n').find((l) => l.startsWith('- **S L2** (reviewed; tool: L1):'))!;
    expect(line).toContain('An iteration cap on the tool loop — ');
    expect(line).toContain('(verified) — Reviewer: The agent loop stops after 25 steps (checked by hand in the runner). ([https://example.com/desktop-chat/blob/abc/runner.rs#L10](https://example.com/desktop-chat/blob/abc/runner.rs#L10); manual run with a looping prompt)');
    expect(md).toMatch(/^- \*\*B L2\*\* \(reviewed; tool: L1\): .* — Reviewer: Fetched pages cannot reach a tool that writes or sends\.$/m);
    expect(md).toContain("- 2 of 40 levels were reviewed by a person (C5 B, C10 S; 2 changed from the tool's level); the other 38 are the tool's.");
    // Automated levels render exactly as before.
    expect(md).toContain('- **C L1:** Timeouts on some calls');
  });

  it('takes surface, Rule-of-Two and header answers, recomputing the same-session verdict', async () => {
    const { dir: repo } = fixtureRepo('desktop-chat');
    const r = await audit(repo, {
      rubricDir: RUBRIC,
      category: 'Desktop chat app (flag)',
      overrides: file(
        'surface.yaml',
        [
          'surface:',
          '  sub-agents: {value: yes, reason: "spawns a research helper"}',
          'ruleOfTwo:',
          '  A: {holds: false, reason: "web search is off in the scored configuration", evidence: [settings.json]}',
          'scoredConfiguration: Desktop Chat 0.6 with web search off',
          'category: Desktop chat app (overrides)',
          'surfacesScored: [desktop app, local API server]',
        ].join('\n'),
      ),
    });
    expect(r.surface.find((s) => s.id === 'sub-agents')).toMatchObject({ value: 'yes', reviewer: { reason: 'spawns a research helper', automated: 'no' } });
    expect(r.ruleOfTwo.A).toMatchObject({ holds: false, reviewer: { automated: true, evidence: ['settings.json'] } });
    expect(r.ruleOfTwo.sameDefaultSession).toBe(false);
    expect(r.target.scoredConfiguration).toBe('Desktop Chat 0.6 with web search off');
    expect(r.target.category).toBe('Desktop chat app (flag)');
    expect(r.target.surfacesScored).toEqual(['desktop app', 'local API server']);
    expect(r.totalNumerator).toBe(189);
    const md = renderMarkdown(r);
    expect(md).toContain('sub agents yes (reviewed; tool: no — Reviewer: spawns a research helper)');
    expect(md).toContain('[A] untrusted input: no (reviewed; tool: yes — Reviewer: web search is off in the scored configuration (settings.json))');
    expect(md).toContain('Same default session? No');
    expect(md).toContain('**Surfaces scored:** desktop app, local API server');
    expect(r.limitations).toContain('Reviewed by a person rather than the tool: agent surface sub agents, Rule-of-Two leg [A].');
  });
});

describe('malformed overrides', () => {
  const bad = (text: string) => {
    try {
      parseOverrides(text, 'review.yaml', rubric);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it.each([
    ['an unknown criterion', 'C10:\n  S: {level: 2, reason: ok}\nC11:\n  S: {level: 2, reason: x}\n', "review.yaml:3: C11: unknown key 'C11' (expected a criterion (C1, C2, C3, C4, C5, C6, C7, C8, C9, C10), surface, ruleOfTwo"],
    ['a level out of range', 'C10:\n  S:\n    reason: x\n    level: 5\n', "review.yaml:4: C10.S.level: got 5 (expected a 'level' from 0 to 4)"],
    ['a fractional level', 'C10:\n  S: {level: 1.5, reason: x}\n', "review.yaml:2: C10.S.level: got 1.5 (expected a 'level': an integer from 0 to 4)"],
    ['a missing reason', 'C4:\n  D: {level: 3}\nC10:\n  S:\n    level: 2\n', "review.yaml:2: C4.D.reason: missing (expected a 'reason': text saying why"],
    ['an empty reason', 'C10:\n  S:\n    level: 2\n    reason: "  "\n', "review.yaml:4: C10.S.reason: got \"  \" (expected a non-empty 'reason')"],
    ['an unknown key in a level', 'C10:\n  S:\n    level: 2\n    reason: x\n    confidence: high\n', "review.yaml:5: C10.S.confidence: unknown key 'confidence' (expected level, reason or evidence)"],
    ['an unknown dimension', 'C10:\n  X: {level: 1, reason: x}\n', "review.yaml:2: C10.X: unknown key 'X' (expected a dimension (S, C, D, B))"],
    ['an unknown surface property', 'surface:\n  subagents: {value: yes, reason: x}\n', "review.yaml:2: surface.subagents: unknown key 'subagents' (expected an agent surface property (code-execution,"],
    ['a bad surface value', 'surface:\n  sub-agents: {value: maybe, reason: x}\n', 'review.yaml:2: surface.sub-agents.value: got "maybe" (expected a \'value\': yes, no or opt-in)'],
    ['a Rule-of-Two leg without a boolean', 'ruleOfTwo:\n  A:\n    holds: yes\n    reason: x\n', 'review.yaml:3: ruleOfTwo.A.holds: got "yes" (expected \'holds\': true or false)'],
    ['an unknown Rule-of-Two leg', 'ruleOfTwo:\n  D: {holds: true, reason: x}\n', "review.yaml:2: ruleOfTwo.D: unknown key 'D' (expected a Rule-of-Two leg (A, B or C))"],
    ['evidence that is not a list', 'C10:\n  S: {level: 2, reason: x, evidence: "https://x"}\n', 'review.yaml:2: C10.S.evidence: got "https://x" (expected a list of links or notes'],
    ['a duplicate criterion', 'C10:\n  S: {level: 1, reason: x}\nC10:\n  C: {level: 1, reason: x}\n', 'review.yaml:3: invalid YAML: Map keys must be unique'],
    ['a list instead of a mapping', '- C10\n', 'review.yaml:1: got a list (expected a mapping of criteria to dimensions'],
  ])('rejects %s with the file, the line and what was expected', (_what, text, message) => {
    expect(bad(text)).toContain(message);
  });

  it('lists every problem, each with its file, line, place, what was found and what was expected', () => {
    const text = 'C4:\n  D: {level: 3}\nC10:\n  S:\n    level: 7\n    reason: x\nC11:\n  S: {level: 2, reason: x}\n';
    expect(bad(text)).toBe(
      [
        "review.yaml:2: C4.D.reason: missing (expected a 'reason': text saying why the level is what it is)",
        "review.yaml:5: C10.S.level: got 7 (expected a 'level' from 0 to 4)",
        "review.yaml:7: C11: unknown key 'C11' (expected a criterion (C1, C2, C3, C4, C5, C6, C7, C8, C9, C10), surface, ruleOfTwo, name, whatItIs, category, scoredConfiguration or surfacesScored)",
      ].join('; '),
    );
  });

  it(`lists the first ${MAX_PROBLEMS} problems in line order and counts the rest`, () => {
    const criteria = rubric.file.criteria.slice(0, 10);
    // Two problems per criterion: a level out of range, and a missing reason (reported at the dimension).
    const text = criteria.map((id) => `${id}:\n  S: {level: 9}\n`).join('') + 'C99: {}\nC98: {}\nC97: {}\n';
    const message = bad(text);
    const problems = message.split('; ');
    expect(problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(problems.slice(0, MAX_PROBLEMS).every((p) => /^review\.yaml:\d+: \S+: .+ \(expected .+\)$/.test(p))).toBe(true);
    const lines = problems.slice(0, MAX_PROBLEMS).map((p) => Number(p.split(':')[1]));
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(problems[0]).toBe("review.yaml:2: C1.S.level: got 9 (expected a 'level' from 0 to 4)");
    expect(problems[MAX_PROBLEMS]).toBe(`and ${2 * criteria.length + 3 - MAX_PROBLEMS} more problems`);
  });

  // The CLI run in this process (see `cli` in helpers.ts).
  it('fails the score command with exit code 2 and one line before fetching anything', async () => {
    const p = file('bad.yaml', 'C10:\n  S:\n    level: 5\n    reason: x\n');
    const r = await cli(['score', 'fixtures/desktop-chat', '--overrides', p]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`audit: ${p}:3: C10.S.level: got 5 (expected a 'level' from 0 to 4)\n`);
    const missing = await cli(['score', 'fixtures/desktop-chat', '--overrides', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.yaml: cannot read the overrides file: ENOENT/);
  });

  it('publishes the reviewed scorecard from the CLI', async () => {
    const r = await cli(['score', 'fixtures/desktop-chat', '--overrides', file('cli.yaml', REVIEW)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## Score: 4.8 / 10.0 (Minimal)');
    expect(r.stdout).toContain('| C10 | Limits & kill switch | L2 | L1 | L1 | L0 | 0.28 | — | **0.28** | High |');
  });
});
