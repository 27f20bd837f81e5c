import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runReleaseCheck } from '../src/release/index.js';
import { regressionsSince } from '../src/release/baseline.js';
import { gateFailures } from '../src/release/gate.js';
import { renderReleaseCheck } from '../src/release/render.js';
import type { ReleaseReport } from '../src/release/schema.js';
import { sentencesOf } from '../src/claims/extract.js';
import { claimsOf, compileClaims } from '../src/claims/index.js';
import { verdictOf } from '../src/claims/judge.js';
import type { ProbeResult } from '../src/probes/types.js';
import { ruleSubjects } from '../src/model/facts.js';
import { loadRubric } from '../src/rubric/load.js';
import { fixtureRepo, ROOT, RUBRIC } from './helpers.js';

interface Expected {
  claims: Array<{ path: string; line: number; starts: string; verdict: string; matchers: string[]; probes: Record<string, { role: string; found: boolean }> }>;
  unmapped: Array<{ path: string; line: number; starts: string; candidates: string[] }>;
  disclaimers: Array<{ kind: string; path: string; line: number; sentences: number }>;
}

const expected = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'claims-agent', 'expected-claims.json'), 'utf8')) as Expected;

describe('sentences of a markdown document', () => {
  const doc = [
    '# Title', //                                         1
    '', //                                                2
    'First claim here. Second one, e.g. with an', //      3
    'abbreviation, runs on. --park starts a third.', //   4
    '', //                                                5
    '- A bullet that', //                                 6
    '  continues on the next line.', //                   7
    '* Another bullet.', //                               8
    '', //                                                9
    '| Control | Default |', //                           10
    '|---|:---:|', //                                     11
    '| `--network none` | on \\| always |', //           12
    '', //                                                13
    '```sh', //                                           14
    '--read-only      immutable root', //                 15
    '', //                                                16
    '--cap-drop=ALL   no capabilities', //                17
    '```', //                                             18
    'Setext heading', //                                  19
    '---', //                                             20
    '**Bold heading**', //                                21
    '> Quoted claim.', //                                 22
    '', //                                                23
    '- A bullet before a rule.', //                       24
    '---', //                                             25
  ].join('\n');
  const { sentences, headings } = sentencesOf(doc);
  const at = (line: number) => sentences.filter((s) => s.line === line).map((s) => s.text);

  it('splits units into sentences at . ! ? before a capital or a flag, not after e.g.', () => {
    expect(at(3)).toEqual(['First claim here.', 'Second one, e.g. with an abbreviation, runs on.']);
    expect(at(4)).toEqual(['--park starts a third.']);
  });

  it('keeps a bullet with its continuation lines, on the line where it starts', () => {
    expect(at(6)).toEqual(['A bullet that continues on the next line.']);
    expect(at(7)).toEqual([]);
    expect(at(8)).toEqual(['Another bullet.']);
    // A rule under a bullet is a rule, not a setext underline.
    expect(at(24)).toEqual(['A bullet before a rule.']);
  });

  it('reads a table row as one unit, skipping the separator row, keeping escaped pipes', () => {
    expect(at(10)).toEqual(['Control | Default']);
    expect(at(11)).toEqual([]);
    expect(at(12)).toEqual(['`--network none` | on \\| always']);
  });

  it('reads each line of a code block on its own line number, whitespace collapsed', () => {
    expect(at(15)).toEqual(['--read-only immutable root']);
    expect(at(17)).toEqual(['--cap-drop=ALL no capabilities']);
  });

  it('takes ATX, setext and bold-only lines as headings, not sentences, and tracks nesting', () => {
    expect(headings.map((h) => [h.text, h.line, h.level])).toEqual([
      ['Title', 1, 1],
      ['Setext heading', 19, 2],
      ['Bold heading', 21, 7],
    ]);
    expect(at(19)).toEqual([]);
    const quoted = sentences.find((s) => s.line === 22)!;
    expect(quoted.text).toBe('Quoted claim.');
    expect(quoted.sections.map((h) => h.text)).toEqual(['Title', 'Setext heading', 'Bold heading']);
  });
});

describe('claims of the claims-agent fixture (THREAT_MODEL.md, SECURITY.md, docs/security-sandbox.md)', () => {
  let report: ReleaseReport;
  let dir: string;
  beforeAll(async () => {
    const repo = fixtureRepo('claims-agent');
    dir = repo.dir;
    report = await runReleaseCheck(dir, { rubricDir: RUBRIC });
  });

  it('reads the three security documents through the snapshot, docs glob case-insensitively', () => {
    expect(report.documents).toEqual([
      { path: 'SECURITY.md', status: 'read' },
      { path: 'THREAT_MODEL.md', status: 'read' },
      { path: 'docs/security-sandbox.md', status: 'read' },
    ]);
  });

  it('gives every claim its pinned verdict, matchers and probe outcomes, from the sentence it came from', () => {
    const got = report.claims.map((c) => ({
      path: c.source.path,
      line: c.source.line,
      verdict: c.verdict,
      matchers: c.matched.map((m) => m.matcher),
      probes: Object.fromEntries(c.probes.map((p) => [p.id, { role: p.role, found: p.found }])),
    }));
    expect(got).toEqual(expected.claims.map(({ starts: _s, ...rest }) => rest));
    report.claims.forEach((c, i) => expect(c.text.startsWith(expected.claims[i]!.starts), c.text).toBe(true));
    const lines = (p: string) => readFileSync(join(dir, p), 'utf8').split('\n');
    // The cited source line is where the sentence starts.
    for (const c of report.claims) expect(lines(c.source.path)[c.source.line - 1]).toContain(c.text.split(' ')[0]);
    expect(new Set(report.claims.map((c) => c.verdict))).toEqual(new Set(['holds', 'partly', 'not-found']));
  });

  it('derives each verdict from the probes: contradicted when a contradicting or bypassing probe found something, else holds = every control found, partly = some, not-found = none', () => {
    for (const c of report.claims) {
      // A group of alternatives (oneOf) is one control, shown when any of its probes found something.
      const controls = new Map<string, boolean>();
      for (const p of c.probes.filter((x) => x.role === 'control')) controls.set((p.oneOf ?? [p.id]).join(','), (controls.get((p.oneOf ?? [p.id]).join(',')) ?? false) || p.found);
      const hits = [...controls.values()].filter(Boolean).length;
      const against = c.probes.filter((p) => p.role !== 'control' && p.found).length;
      expect(c.verdict).toBe(against ? 'contradicted' : hits === controls.size ? 'holds' : hits === 0 ? 'not-found' : 'partly');
    }
  });

  it('shows the regex that mapped each claim, as written in claims.yaml', () => {
    const keyring = report.claims.find((c) => c.text.startsWith('API keys live'))!;
    expect(keyring.matched).toEqual([{ matcher: 'keyring', pattern: 'keyring|keychain|credential manager|secret service' }]);
  });

  it('backs every probe of a claim with verified evidence: the lines found, or the empty search', () => {
    for (const c of report.claims) {
      for (const p of c.probes) {
        // A probe that only looks `within` another probe's files is shown by that probe's empty search.
        const e = c.evidence.find((x) => x.probe === (p.via ?? p.id));
        if (p.found) expect(p.via).toBeNull();
        expect(e, `${c.source.path}:${c.source.line} ${p.id}`).toBeDefined();
        expect(e!.kind).toBe(p.found ? 'lines' : 'search');
        expect(e!.verified).toBe(true);
        if (e!.kind === 'lines') {
          const lines = readFileSync(join(dir, e!.path), 'utf8').split('\n');
          expect(lines.slice(e!.startLine - 1, e!.endLine).join('\n')).toContain(e!.text);
        } else expect(e!.filesSearched).toBeGreaterThan(0);
      }
    }
  });

  it('lists sentences that look like claims but map to no probe, with why they are candidates', () => {
    expect(report.unmapped.map((u) => ({ path: u.source.path, line: u.source.line, candidates: u.matched.map((m) => m.candidate) }))).toEqual(
      expected.unmapped.map(({ starts: _s, ...rest }) => rest),
    );
    report.unmapped.forEach((u, i) => {
      expect(u.verdict).toBe('unmapped');
      expect(u.text.startsWith(expected.unmapped[i]!.starts)).toBe(true);
      // The reason names each candidate with the words it matched, and says no matcher covers the sentence.
      for (const m of u.matched) {
        expect(u.text).toContain(m.text);
        expect(u.reason).toContain(`${m.candidate} matched “${m.text}”`);
      }
      expect(u.reason).toMatch(/no matcher of claims\.yaml covers it$/);
    });
    const cosign = report.unmapped.find((u) => u.text.includes('cosign'))!;
    expect(cosign.matched.map((m) => [m.candidate, m.text])).toEqual([
      ['quoted-identifier', '`cosign`'],
      ['control-keyword', 'signed'],
    ]);
  });

  it('reads the NOT-protected section and a self-declared disclaimer as disclaimers, and lists both', () => {
    expect(report.disclaimers.map((d) => ({ kind: d.kind, path: d.source.path, line: d.source.line, sentences: d.sentences }))).toEqual(expected.disclaimers);
    expect(report.disclaimers.find((d) => d.kind === 'section')!.text).toBe('What Quill does NOT protect against');
    const all = [...report.claims, ...report.unmapped].map((c) => c.text);
    expect(all.some((t) => t.includes('Prompt injection that steers'))).toBe(false);
    expect(all.some((t) => t.includes('does not protect against another local process'))).toBe(false);
  });

  it('renders the claims table escaped: a hostile sentence cannot add a cell, a link or HTML', () => {
    const md = renderReleaseCheck(report);
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Verdict') && !l.startsWith('| Claim'));
    expect(rows.length).toBe(report.claims.length + report.unmapped.length);
    const cells = (row: string) => row.replace(/\\./g, '').split('|').length - 2;
    for (const row of rows.slice(0, report.claims.length)) expect(cells(row), row).toBe(4);
    for (const row of rows.slice(report.claims.length)) expect(cells(row), row).toBe(3);
    const hostile = rows.find((r) => r.includes('untrusted-content'))!;
    expect(hostile).toContain('&lt;untrusted-content&gt; envelope \\| and \\[labelled\\](javascript:alert(1))');
    expect(hostile).not.toMatch(/<untrusted/);
    expect(hostile).toContain('[THREAT\\_MODEL.md:36](THREAT_MODEL.md#L36)');
  });
});

interface ExpectedVerdicts {
  claims: Array<{ path: string; line: number; starts: string; verdict: string; absolute: boolean; probes: Record<string, { role: string; found: boolean }> }>;
  unmapped: Array<{ path: string; line: number; starts: string; candidates: string[] }>;
  disclaimers: Array<{ kind: string; path: string; line: number; sentences: number }>;
}

// Threat models written for these fixtures, with the verdict of every sentence pinned before the checker ran on them.
describe.each(['claims-agent-2', 'claims-agent-3'])('the expected verdict of every sentence of %s', (fixture) => {
  const want = JSON.parse(readFileSync(join(ROOT, 'fixtures', fixture, 'expected-claims.json'), 'utf8')) as ExpectedVerdicts;
  let report: ReleaseReport;
  beforeAll(async () => {
    report = await runReleaseCheck(fixtureRepo(fixture).dir, { rubricDir: RUBRIC });
  });

  it('finds exactly the expected claims, each with its verdict and whether it is absolute (never / only / every …)', () => {
    const got = report.claims.map((c) => ({ path: c.source.path, line: c.source.line, text: c.text, verdict: c.verdict, absolute: c.absolute !== null }));
    expect(got.map(({ text, ...rest }) => ({ ...rest, starts: want.claims.find((w) => w.path === rest.path && w.line === rest.line && text.startsWith(w.starts))?.starts ?? text }))).toEqual(
      want.claims.map(({ probes: _p, ...rest }) => rest),
    );
  });

  it('decides each claim by the expected probes, in the expected role, with the expected outcome', () => {
    for (const w of want.claims) {
      const c = report.claims.find((x) => x.source.path === w.path && x.source.line === w.line && x.text.startsWith(w.starts))!;
      for (const [id, { role, found }] of Object.entries(w.probes)) {
        expect(c.probes.find((p) => p.id === id && p.role === role), `${w.path}:${w.line} ${id} as ${role}`).toMatchObject({ found });
      }
    }
  });

  it('backs each probe of each claim with verified evidence (lines found or the empty search)', () => {
    for (const c of report.claims) {
      for (const p of c.probes) {
        const e = c.evidence.find((x) => x.probe === (p.via ?? p.id));
        expect(e, `${c.source.path}:${c.source.line} ${p.id}`).toBeDefined();
        expect([e!.kind, e!.verified]).toEqual([p.found ? 'lines' : 'search', true]);
      }
    }
  });

  it('lists the sentences that only look like claims, with the candidates that made them look so', () => {
    expect(report.unmapped.map((u) => ({ path: u.source.path, line: u.source.line, starts: want.unmapped.find((w) => u.text.startsWith(w.starts))?.starts ?? u.text, candidates: u.matched.map((m) => m.candidate) }))).toEqual(want.unmapped);
    for (const u of report.unmapped) expect(u.reason).toMatch(/^looks like a claim \(.+\), but no matcher of claims\.yaml covers it$/);
  });

  it('reads the disclaimer section as disclaimers', () => {
    expect(report.disclaimers.map((d) => ({ kind: d.kind, path: d.source.path, line: d.source.line, sentences: d.sentences }))).toEqual(want.disclaimers);
  });
});

describe('a contradicted claim in the report, the table, the gate and the baseline (claims-agent-2)', () => {
  let report: ReleaseReport;
  beforeAll(async () => {
    report = await runReleaseCheck(fixtureRepo('claims-agent-2').dir, { rubricDir: RUBRIC });
  });

  it('counts contradicted claims apart and prints the probe that found the way around the control', () => {
    expect(report.summary.contradicted).toBe(report.claims.filter((c) => c.verdict === 'contradicted').length);
    const md = renderReleaseCheck(report);
    expect(md).toContain(`· ${report.summary.contradicted} contradicted by the code ·`);
    expect(md).toMatch(
      /^\| ✗ contradicted \| “The agent never runs a shell command without asking you first\.” \| \[THREAT\\_MODEL\.md:13\]\(THREAT_MODEL\.md#L13\) \| ☑ approval\.prompt: \[tern\/\w+\.py:\d+\].*<br>✗ approval\.cli-bypass-flag, a path around the control: \[tern\/cli\.py:\d+\]\(tern\/cli\.py#L\d+\) \(verified\)/m,
    );
    expect(md).toMatch(/^\| ✗ contradicted \| “Telemetry is strictly opt-in\.” .*✗ analytics\.default-on, which contradicts the claim: \[tern\/settings\.py:2\]/m);
  });

  it('fails --fail-on not-found for a contradicted claim, with its own line', () => {
    const lines = gateFailures(report, new Set(['not-found']));
    expect(lines).toContain('claim contradicted by the code (THREAT_MODEL.md:13)');
    expect(lines.filter((l) => l.startsWith('claim contradicted'))).toHaveLength(report.summary.contradicted);
    expect(gateFailures(report, new Set(['fail']))).not.toContain('claim contradicted by the code (THREAT_MODEL.md:13)');
  });

  it('lists a claim that held at the baseline and is contradicted now as a regression', () => {
    const held = report.claims.map((c) => ({ text: c.text, source: { path: c.source.path }, verdict: 'holds' as const }));
    const regressions = regressionsSince({ items: [], claims: held }, [], report.claims);
    expect(regressions.filter((g) => g.kind === 'claim' && g.now === 'contradicted').map((g) => (g.kind === 'claim' ? g.source.line : 0))).toEqual(
      report.claims.filter((c) => c.verdict === 'contradicted').map((c) => c.source.line),
    );
  });
});

/** One sentence read as a document of its own against the real claims.yaml, with the given probe results (none: nothing ran). */
const CLAIMS = compileClaims(loadRubric(RUBRIC).claims!);
const readSentence = (text: string, results: Map<string, ProbeResult> = new Map()) => claimsOf({ path: 'THREAT_MODEL.md', text }, CLAIMS, results, { webUrl: null, commit: null }, 'rubrics/dids');

describe('claim verdicts from probe outcomes (verdictOf)', () => {
  const p = (id: string, role: 'control' | 'contradicts' | 'bypass', found: boolean, oneOf: string[] | null = null) => ({ id, role, found, via: null, oneOf });
  it.each([
    ['every control found', [p('a', 'control', true), p('b', 'control', true)], 'holds'],
    ['some controls found', [p('a', 'control', true), p('b', 'control', false)], 'partly'],
    ['no control found', [p('a', 'control', false)], 'not-found'],
    ['one of a group of alternatives found', [p('a', 'control', false, ['a', 'b']), p('b', 'control', true, ['a', 'b'])], 'holds'],
    ['a group with none found next to a found control', [p('a', 'control', false, ['a', 'b']), p('b', 'control', false, ['a', 'b']), p('c', 'control', true)], 'partly'],
    ['a bypass found, the control too', [p('a', 'control', true), p('x', 'bypass', true)], 'contradicted'],
    ['a contradicting probe found', [p('a', 'control', true), p('x', 'contradicts', true)], 'contradicted'],
    ['a contradicting probe searched in vain, no control named', [p('x', 'contradicts', false)], 'holds'],
    ['a bypass searched in vain, no control found', [p('a', 'control', false), p('x', 'bypass', false)], 'not-found'],
  ] as const)('%s → %s', (_what, probes, verdict) => {
    expect(verdictOf(probes.map((x) => ({ ...x, oneOf: x.oneOf ? [...x.oneOf] : null })))).toBe(verdict);
  });
});

describe('never / only / every sentences against the real claims.yaml', () => {
  const rubric = loadRubric(RUBRIC);
  /** Every probe and agent-model fact (the audit puts both in the results) searched one file; the listed ones found one line. */
  const resultsWith = (found: readonly string[]): Map<string, ProbeResult> =>
    new Map(
      ruleSubjects(rubric).map((probe) => [
        probe.id,
        { probe, findings: found.includes(probe.id) ? [{ probe: probe.id, path: 'src/agent.ts', startLine: 1, endLine: 1, text: 'x' }] : [], scope: null, filesSearched: 1, applicable: true },
      ]),
    );
  const claimOf = (sentence: string, found: readonly string[]) => {
    const r = readSentence(sentence, resultsWith(found));
    expect(r.claims, sentence).toHaveLength(1);
    return r.claims[0]!;
  };

  it.each([
    // "never X without Y": Y found and no probe shows an X path that skips Y.
    ['The agent never runs commands without asking.', ['approval.prompt'], 'holds', 'never'],
    ['The agent never runs commands without asking.', ['approval.prompt', 'approval.builtin-exempt'], 'contradicted', 'never'],
    ['The agent never runs commands without asking.', ['approval.prompt', 'approval.cli-bypass-flag'], 'contradicted', 'never'],
    ['The agent never runs commands without asking.', ['approval.prompt', 'approval.safe-list-escape'], 'contradicted', 'never'],
    ['The agent never runs commands without asking.', [], 'not-found', 'never'],
    ['No command runs until a person approves it.', ['approval.prompt', 'approval.default-off'], 'contradicted', 'No command runs until'],
    // The same control claimed without "never": a bypass flag does not make "it asks" false.
    ['The agent asks before running commands.', ['approval.prompt', 'approval.cli-bypass-flag'], 'holds', null],
    // "only inside the sandbox": a sandbox, and no path to the host (fallback, flag, opt-in, host exec).
    ['Commands only run inside the sandbox.', ['sandbox.container'], 'holds', 'only'],
    ['Commands only run inside the sandbox.', ['sandbox.os', 'exec.host-spawn'], 'contradicted', 'only'],
    ['Commands only run inside the sandbox.', ['sandbox.microvm', 'sandbox.silent-fallback'], 'contradicted', 'only'],
    ['Commands only run inside the sandbox.', ['sandbox.container', 'sandbox.fallback-flag'], 'contradicted', 'only'],
    ['Commands only run inside the sandbox.', [], 'not-found', 'only'],
    ['Commands run inside the sandbox.', ['sandbox.container', 'exec.host-spawn'], 'holds', null],
    ['We only bind to localhost.', ['net.loopback-bind'], 'holds', 'only'],
    ['We only bind to localhost.', [], 'not-found', 'only'],
    // A claim that something is absent holds while its contradicting probe finds nothing.
    ['Secrets are never written to logs.', [], 'holds', 'never'],
    ['Secrets are never written to logs.', ['secrets.logged'], 'contradicted', 'never'],
    // What a claim denies contradicts it however it is phrased.
    ['Telemetry is opt-in.', ['analytics.opt-in', 'analytics.default-on'], 'contradicted', null],
    // "read-only" is not "only".
    ['The workspace is mounted read-only.', ['sandbox.host-fs-readable'], 'holds', null],
  ] as const)('%s with %j found → %s', (sentence, found, verdict, absolute) => {
    const c = claimOf(sentence, found);
    expect(c.verdict).toBe(verdict);
    expect(c.absolute?.text ?? null).toBe(absolute);
    // Bypass probes are consulted for absolute sentences only.
    expect(c.probes.some((p) => p.role === 'bypass')).toBe(absolute !== null && c.matched.some((m) => rubric.claims!.matchers.find((x) => x.id === m.matcher)!.bypassedBy.length > 0));
    // The probes that made it contradicted are the ones that found something against it.
    const against = c.probes.filter((p) => p.role !== 'control' && p.found).map((p) => p.id);
    expect(against.every((id) => found.includes(id as never))).toBe(true);
    expect(verdict === 'contradicted').toBe(against.length > 0);
  });
});

describe('sentences that deny being a control are disclaimers, not claims', () => {
  it.each(['It is not a sandbox against a hostile model.', 'Local fallback: no isolation at all.', 'Approval does not sandbox the command.', 'The shell is not containerized.'])('%s', (sentence) => {
    const r = readSentence(sentence);
    expect([r.claims.length, r.unmapped.length, r.disclaimers.map((d) => d.kind)]).toEqual([0, 0, ['sentence']]);
  });
  it('while a sandbox claim with a "no" elsewhere stays a claim', () => {
    const r = readSentence('Commands run in a sandbox with no network.');
    expect(r.claims.map((c) => c.matched.map((m) => m.matcher))).toEqual([['sandbox', 'no-network']]);
  });
});

describe('every control the rubric can probe can be claimed', () => {
  const rubric = loadRubric(RUBRIC);
  // Probes that report a fact about the harness (a surface or a risk), not a control a threat model
  // would claim; each is listed with why. A new control probe without a matcher fails the test below.
  const FACTS: Record<string, string> = {
    'agent.subagents': 'a surface: sub-agents exist',
    'browser.driven': 'a surface: a browser the harness drives',
    'comm.channels': 'a surface: chat bots, email, webhooks',
    'audit.runtime-checkpoint': 'a deployment file the serving runtime reads: the record is the runtime\'s, not a control the project\'s own code claims',
    'config.project-local': 'a surface: a project settings file is loaded',
    'creds.external': 'a surface: tools get service credentials',
    'ext.catalog': 'a surface: an extension catalog ships',
    'ext.catalog-code': 'a surface: an extension catalog is defined in code',
    'ext.in-process': 'a risk a disclaimer names (plugins in-process); no control claims it',
    'ext.mcp-launch': 'a surface: extension processes are launched',
    'ext.plugin-launch': 'a surface: plugin executables are launched',
    'ext.runtime-install': 'a surface: the harness installs packages at run time',
    'instructions.autoload': 'a surface: instruction files are loaded',
    'limits.unconditional-loop': 'read by the agent model: its fact limits.model-loop-unbounded (the loops that call the model) is what the claims name',
    'limits.counted-loop': 'read by the agent model: its fact limits.model-loop-counted (the counted loops that call the model) is what the claims name',
    'memory.store': 'a surface: a memory store exists',
    'sandbox.profile-from-config': 'a risk (policy from user settings); no claim sentence denies it',
    'scope.raw-shell': 'a surface: the shell takes a raw string (the checklist treats it as an alternative to an allowlist)',
    'scope.raw-url': 'a surface: the fetch tool takes any URL (even with a host allowlist)',
    'tools.fs-write': 'a surface: a file-writing tool exists',
    'untrusted.fetch-tool': 'a surface: a web fetch or search tool exists',
  };
  const named = new Set(rubric.claims!.matchers.flatMap((m) => [...m.probes.flatMap((p) => (typeof p === 'string' ? [p] : p.any)), ...m.contradictedBy, ...m.bypassedBy]));

  it('names every probe in some matcher (as control, contradiction or bypass), except the facts listed with a reason', () => {
    expect(rubric.probes.map((p) => p.id).filter((id) => !named.has(id) && !(id in FACTS))).toEqual([]);
    // The list of facts stays true: none of them is named by a matcher after all.
    expect(Object.keys(FACTS).filter((id) => named.has(id) || !rubric.probes.some((p) => p.id === id))).toEqual([]);
  });

  it.each([
    ['Code runs in a gVisor sandbox.', ['microvm', 'sandbox']],
    ['Shell commands run under bubblewrap.', ['os-sandbox']],
    ['Every mutating tool asks the user before it runs.', ['approval']],
    ['The approval card shows the exact command before you approve.', ['approval', 'approval-shows-input']],
    ['Only allowlisted binaries can run.', ['binary-allowlist']],
    ['Outbound requests are limited to a host allowlist.', ['host-allowlist']],
    ['File tools refuse paths outside the workspace.', ['path-containment']],
    ['Child processes start with a cleared environment.', ['env-allowlist']],
    ['API keys are stripped from the environment of shell commands.', ['credential-strip']],
    ['Tokens are kept in the macOS Keychain.', ['keyring']],
    ['Secrets are redacted from transcripts.', ['redaction']],
    ['Secrets are never written to logs.', ['secrets-not-logged']],
    ['Every tool call is recorded in an audit log.', ['audit-log', 'tool-calls-recorded']],
    ['Approvals are logged with the approver.', ['approvals-recorded']],
    ['Each tool call times out after 2 minutes.', ['call-timeout']],
    ['The loop is capped at 50 iterations.', ['step-cap']],
    ['Sessions have a spend limit of 5 dollars.', ['token-budget']],
    ['MCP servers are pinned to exact versions.', ['extension-pinned']],
    ['Plugins are verified against a SHA-256 digest.', ['extension-integrity']],
    ['Analytics are off by default.', ['telemetry-opt-in']],
    ['We collect no telemetry.', ['no-telemetry']],
    ['Memory is scoped per project.', ['memory-scoped']],
    ['The server binds to 127.0.0.1.', ['loopback']],
    ['Webhook requests must carry a valid HMAC signature.', ['webhook-secret']],
    ['The model cannot change its own approval policy.', ['no-self-config']],
    ['Unknown tools are rejected.', ['unknown-tool']],
    ['Tool output is wrapped and labelled untrusted before the model sees it.', ['untrusted-labelled']],
    ['Fetching a URL asks for approval.', ['approval', 'egress-approval']],
    ['Nothing runs as root.', ['not-root']],
    ['Child processes are scrubbed.', ['credential-strip']],
    ['The exec tool stays gated by approval.', ['approval']],
  ])('%s → %j', (sentence, matchers) => {
    const r = readSentence(sentence);
    expect(r.claims.flatMap((c) => c.matched.map((m) => m.matcher))).toEqual(matchers);
  });
});

describe('security documents that are not plain files', () => {
  it('finds names case-insensitively, lists a symlink without following it, and skips binaries', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'claims-docs-'));
    const dir = join(parent, 'agent');
    mkdirSync(join(dir, 'docs', 'Design'), { recursive: true });
    cpSync(join(ROOT, 'fixtures', 'claims-agent', 'src'), join(dir, 'src'), { recursive: true });
    writeFileSync(join(join(dir, 'docs', 'Design'), 'Threat-Notes.md'), 'API keys live in the OS keyring.\n');
    writeFileSync(join(dir, 'security.md'), 'Bytes\0here: keyring.\n');
    writeFileSync(join(parent, 'outside-threat.md'), 'API keys are redacted everywhere.\n');
    symlinkSync(join(parent, 'outside-threat.md'), join(dir, 'THREAT_MODEL.md'));
    const r = await runReleaseCheck(dir, { rubricDir: RUBRIC });
    expect(r.documents).toEqual([
      { path: 'THREAT_MODEL.md', status: 'symlink' },
      { path: 'docs/Design/Threat-Notes.md', status: 'read' },
      { path: 'security.md', status: 'binary' },
    ]);
    expect(r.claims.map((c) => [c.source.path, c.verdict])).toEqual([['docs/Design/Threat-Notes.md', 'holds']]);
    expect(renderReleaseCheck(r)).toContain('Not read: `THREAT_MODEL.md` (a symlink, not followed)');
  });
});
