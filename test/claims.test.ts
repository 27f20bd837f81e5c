import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runReleaseCheck } from '../src/release/index.js';
import { renderReleaseCheck } from '../src/release/render.js';
import type { ReleaseReport } from '../src/release/schema.js';
import { sentencesOf } from '../src/claims/extract.js';
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
