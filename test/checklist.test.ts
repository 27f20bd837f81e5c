import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBaseline } from '../src/release/baseline.js';
import { gateFailures } from '../src/release/gate.js';
import { runReleaseCheck } from '../src/release/index.js';
import { parseGates } from '../src/commands/checklist.js';
import { linearRegexError } from '../src/facts/re2.js';
import { renderReleaseCheck } from '../src/release/render.js';
import { releaseReportSchema, type ReleaseReport } from '../src/release/schema.js';
import { mdRubricText } from '../src/render/escape.js';
import { loadRubric, RubricError } from '../src/rubric/load.js';
import { cli, fixtureRepo, ROOT, RUBRIC } from './helpers.js';

const FIXTURE = join(ROOT, 'fixtures', 'claims-agent');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected-claims.json'), 'utf8')) as { items: Record<string, string> };

/** The CLI run in this process (see `cli` in helpers.ts). */
const run = (args: string[], cwd?: string) => cli(args, { cwd });

/** A copy of the fixture with some files edited: what the same harness looks like a release later. */
function editedFixture(edits: Record<string, (text: string) => string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'claims-agent-')), 'claims-agent');
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

function brokenRubric(file: string, edit: (text: string) => string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'rubric-')), 'dids');
  cpSync(RUBRIC, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

/** Every module a source file imports (static, re-export or dynamic) as a path relative to src/, with the value names it takes (type-only imports left out). */
function importsOf(file: string): Array<{ module: string; names: string[] }> {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/\b(?:import|export)\s+(type\s+)?(?:\{([^}]*)\}|[\w*\s,]+?)\s*from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return found
    .filter((m) => !m[1])
    .map((m) => ({ spec: (m[3] ?? m[4])!, names: (m[2] ?? '').split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!) }))
    .filter((i) => i.spec.startsWith('.'))
    .map((i) => ({ module: relative(join(ROOT, 'src'), resolve(dirname(file), i.spec)).replace(/\.js$/, ''), names: i.names }));
}
const modulesIn = (folder: string) =>
  readdirSync(join(ROOT, 'src', folder))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `${folder}/${f}`, imports: importsOf(join(ROOT, 'src', folder, f)) }));

describe('module boundaries: claims and checklist each do one job, release composes them', () => {
  const importing = (folder: string, target: RegExp) => modulesIn(folder).flatMap((m) => m.imports.filter((i) => target.test(i.module)).map((i) => `${m.file} → ${i.module}`));

  it('finds the imports it scans for (the scanner itself works)', () => {
    expect(importsOf(join(ROOT, 'src', 'release', 'index.ts'))).toEqual(
      expect.arrayContaining([
        { module: 'audit', names: ['auditDetailed', 'TOOL'] },
        { module: 'checklist/items', names: ['checkItems'] },
      ]),
    );
    // A type-only import is no dependency at run time.
    expect(importsOf(join(ROOT, 'src', 'release', 'index.ts')).some((i) => i.module === 'acquire/index')).toBe(false);
  });

  it('claims imports nothing of checklist or release, and checklist nothing of claims or release', () => {
    expect(importing('claims', /^(checklist|release)\//)).toEqual([]);
    expect(importing('checklist', /^(claims|release)\//)).toEqual([]);
  });

  it('runs no pipeline stage of its own: probe results come from the audit pipeline (src/audit.ts), not a second acquire → inventory → probes', () => {
    const stages = new Set(['acquire', 'buildInventory', 'runProbes', 'runRubricProbes', 'evaluate', 'score']);
    const own = ['release', 'claims', 'checklist'].flatMap((f) => modulesIn(f).flatMap((m) => m.imports.flatMap((i) => i.names.filter((n) => stages.has(n)).map((n) => `${m.file} → ${n}`))));
    expect(own).toEqual([]);
    expect(importing('release', /^audit$/)).toEqual(['release/index.ts → audit']);
  });
});

describe("the rubric's own text: code spans render as code, the rest is escaped", () => {
  it.each([
    ['Run `env` on the release build.', 'Run `env` on the release build.'],
    ['Read `../../etc/passwd`, `~/.ssh/id_ed25519` and *more*.', 'Read `../../etc/passwd`, `~/.ssh/id_ed25519` and \\*more\\*.'],
    ['A span holding a backtick: ``a ` b``.', 'A span holding a backtick: ``a ` b``.'],
    ['An unclosed ` stays text <b>', 'An unclosed \\` stays text &lt;b&gt;'],
    ['`<script>` | [x](javascript:1)', '`<script>` \\| \\[x\\](javascript:1)'],
    ['No code at all_here', 'No code at all\\_here'],
  ])('%s', (text, md) => {
    expect(mdRubricText(text)).toBe(md);
  });
});

describe('checklist.yaml and claims.yaml as rubric data', () => {
  const rubric = loadRubric(RUBRIC);

  it('loads both, with probe-backed and manual items for every criterion', () => {
    const items = rubric.checklist ?? [];
    for (const c of rubric.file.criteria) {
      expect(items.some((i) => i.criterion === c && i.holds), `${c} probe-backed`).toBe(true);
      expect(items.some((i) => i.criterion === c && i.manual), `${c} manual`).toBe(true);
    }
    expect(rubric.claims?.matchers.length).toBeGreaterThan(10);
  });

  it('has only claim patterns RE2 can run: they run over the untrusted documents of the target', () => {
    const spec = rubric.claims!;
    const patterns = [spec.disclaimers, ...spec.candidates.map((c) => c.pattern), ...spec.matchers.map((m) => m.pattern)];
    expect(patterns.filter((p) => linearRegexError(p) !== null)).toEqual([]);
  });

  it('pins both files in the rubric hash', () => {
    const dir = brokenRubric('checklist.yaml', (t) => t.replace('Tool calls have timeouts.', 'Tool calls have time limits.'));
    expect(loadRubric(dir).hash).not.toBe(rubric.hash);
    const dir2 = brokenRubric('claims.yaml', (t) => t.replace("'keyring|keychain", "'keyring|key chain|keychain"));
    expect(loadRubric(dir2).hash).not.toBe(rubric.hash);
  });

  it.each([
    ['checklist.yaml', (t: string) => t.replace('holds: approval.prompt', 'holds: approval.nonexistent'), /checklist\.yaml: at \d+\.holds: unknown probe "approval\.nonexistent"/],
    ['checklist.yaml', (t: string) => t.replace('  holds: limits.step-cap', '  holds: limits.step-cap\n  manual: by hand'), /checklist\.yaml: at \d+: either a `holds` rule or a `manual` instruction/],
    ['checklist.yaml', (t: string) => t.replace('criterion: C10\n  text: Tool calls', 'criterion: C11\n  text: Tool calls'), /checklist\.yaml: at \d+\.criterion: unknown criterion "C11"/],
    ['checklist.yaml', (t: string) => t.replace('id: C10.budget', 'id: C10.step-cap'), /checklist\.yaml: at \d+\.id: duplicate item id "C10\.step-cap"/],
    ['checklist.yaml', (t: string) => t.replace('holds: { cond: narrowed }', 'holds: { cond: nowhere }'), /checklist\.yaml: at 0\.holds: unknown condition "nowhere"/],
    ['claims.yaml', (t: string) => t.replace('probes: [secrets.keyring]', 'probes: [secrets.vault]'), /claims\.yaml: at matchers\.\d+\.probes: unknown probe "secrets\.vault"/],
    ['claims.yaml', (t: string) => t.replace("'keyring|keychain", "'keyring|(keychain"), /claims\.yaml: at matchers\.\d+\.pattern: a pattern RE2 can run/],
    ['claims.yaml', (t: string) => t.replace('contradictedBy: [analytics.default-on]', 'contradictedBy: [analytics.sometimes]'), /claims\.yaml: at matchers\.\d+\.contradictedBy: unknown probe "analytics\.sometimes"/],
    ['claims.yaml', (t: string) => t.replace(/^absolute: .*$/m, ''), /claims\.yaml: at matchers\.\d+\.bypassedBy: applies only to absolute sentences \(expected a top-level absolute pattern\)/],
    ['claims.yaml', (t: string) => t.replace('    contradictedBy: [config.model-write]\n', ''), /claims\.yaml: at matchers\.\d+: probes that show the control, or contradictedBy probes/],
  ])('rejects a malformed %s with the file, the path inside it and what was expected', (file, edit, message) => {
    const dir = brokenRubric(file, edit);
    let error: unknown;
    try {
      loadRubric(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RubricError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('audit checklist on the claims-agent fixture', () => {
  let report: ReleaseReport;
  let md: string;
  let repo: { dir: string; commit: string };
  beforeAll(async () => {
    repo = fixtureRepo('claims-agent');
    report = await runReleaseCheck(repo.dir, { rubricDir: RUBRIC });
    md = renderReleaseCheck(report);
  });

  it('is pinned to the commit and valid against its JSON schema', () => {
    expect(report.target.commit).toBe(repo.commit);
    expect(releaseReportSchema.safeParse(report).success).toBe(true);
  });

  it('marks every item as pinned: pass and fail decided by probes with verified evidence, manual with how to check', () => {
    expect(Object.fromEntries(report.items.map((i) => [i.id, i.status]))).toEqual(expected.items);
    for (const i of report.items) {
      if (i.status === 'manual') {
        expect(i.how, i.id).toMatch(/\w/);
        expect(i.evidence).toEqual([]);
      } else {
        expect(i.evidence.length, i.id).toBeGreaterThan(0);
        expect(i.evidence.every((e) => e.verified), i.id).toBe(true);
      }
    }
    // A fail shows why: the empty search for what is missing.
    const budget = report.items.find((i) => i.id === 'C10.budget')!;
    expect(budget.evidence).toMatchObject([{ kind: 'search', probe: 'limits.token-budget', hits: 0, verified: true }]);
    // An item whose probe had nowhere to look is decided by the search that left it nowhere.
    // (the catalog file's entries, by the empty catalog search; entries defined in code, by their own search)
    expect(report.items.find((i) => i.id === 'C7.default-disabled')!.evidence).toMatchObject([
      { kind: 'search', probe: 'ext.catalog' },
      { kind: 'search', probe: 'ext.default-enabled-code' },
    ]);
  });

  it('counts what it shows', () => {
    const s = report.summary;
    expect([s.pass + s.fail + s.manual, s.holds + s.partly + s.notFound + s.contradicted, s.unmapped]).toEqual([report.items.length, report.claims.length, report.unmapped.length]);
    expect(s).toMatchObject({ holds: 12, partly: 3, notFound: 3, contradicted: 0, unmapped: 3, regressions: 0 });
  });

  it('reads like a release checklist: criteria in rubric order, ☑/✗/☐ per item, then the claims table', () => {
    const headings = md.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## C1 Identity & least privilege',
      '## C2 Approval gates',
      '## C3 Tool & action scoping',
      '## C4 Code-execution isolation',
      '## C5 Untrusted input blast radius',
      '## C6 Memory, context & configuration integrity',
      '## C7 Third-party extensions',
      '## C8 Secrets & sensitive-data protection',
      '## C9 Audit & traceability',
      '## C10 Limits & kill switch',
      "## Claims in the project's own security documents",
    ]);
    // The keyring found, and no credential written to a plain file (the search that came up empty:
    // its rules read `writeFile` ignoring case, so no lower-cased short form stands for them).
    expect(md).toMatch(/^- ☑ \*\*C8\.keyring\*\* Keys are stored in the OS keyring or an encrypted store\. — \[src\/secrets\.ts:(\d+)\]\(src\/secrets\.ts#L\1\); searched `syntax-tree search by the rules in rubrics\/dids\/probes\/secrets\.plaintext-store\.yaml src` → 0 hits \(no credential is written to a plain file\) \(verified\)$/m);
    // Its short form would not re-run empty (the fixture's code names what a budget is made of), so
    // the search made is shown; a short form that does re-run empty stays short.
    expect(md).toMatch(/^- ✗ \*\*C10\.budget\*\* Runs have a token or cost budget\. — searched `syntax-tree search by the rules in rubrics\/dids\/probes\/limits\.token-budget\.yaml src` → 0 hits \(.*\) \(verified\)$/m);
    expect(md).toMatch(/^- ✗ \*\*C9\.separate-log\*\* .* — searched `rg -n 'audit' src` → 0 hits /m);
    expect(md).toMatch(/^- ☐ \*\*C5\.port-scan\*\* .* — \*How:\* Start the default deployment/m);
    // The rubric's code spans are code (not escaped backticks), in the How text and in item text.
    expect(md).toContain('(e.g. `docker compose up`), run `nmap -p- localhost` and `ss -ltnp`;');
    expect(md).toContain('No extension is launched unpinned (`npx -y`, `@latest`).');
    expect(md).not.toMatch(/\\`(docker|nmap|npx)/);
    // The target's text stays escaped: backticks in a claim sentence are literal.
    expect(md).toContain('Commands pass a binary allowlist: \\`git\\`, \\`ls\\`');
    expect(md).toContain('| Verdict | Claim | Source | Evidence |');
    expect(md).toContain(
      '| ✗ not found | “Secret values are redacted from transcripts and logs before either is written.” | [THREAT\\_MODEL.md:41](THREAT_MODEL.md#L41) | ✗ secrets.redaction',
    );
    expect(md).toContain('| ◐ partly | “Outbound web fetches ask for approval unless the host is on the allowlist.”');
    // One of alternatives is enough, and a bypass that was searched for and not found supports the claim.
    expect(md).toMatch(/^\| ☑ holds \| “Shell children lose every variable .*☑ env\.credential-strip \(one of env\.credential-strip, env\.cleared\): \[src\/tools\/shell\.ts:\d+\].*✗ env\.cleared \(one of env\.credential-strip, env\.cleared\): .*☑ no env\.narrowing-switch: no switch turns environment narrowing off \(searched \d+ files, verified\)/m);
    expect(md).toContain('### Unmapped claims (check by hand)');
    expect(md).toContain(
      '| “Invite links expire after 24 hours.” | [THREAT\\_MODEL.md:48](THREAT_MODEL.md#L48) | looks like a claim (number-with-unit matched “24 hours”), but no matcher of claims.yaml covers it |',
    );
  });
});

describe('the release gate and the baseline (CLI)', () => {
  it('with --fail-on not-found writes the checklist, then exits 1 naming each claim whose control is missing', async () => {
    const { dir, commit } = fixtureRepo('claims-agent');
    const gated = await run(['checklist', dir, '--commit', commit.slice(0, 10), '--fail-on', 'not-found', '--format', 'json']);
    expect(gated.code).toBe(1);
    const report = JSON.parse(gated.stdout);
    expect(releaseReportSchema.safeParse(report).success).toBe(true);
    expect(report.target.commit).toBe(commit);
    expect(gated.stderr.split('\n').filter((l) => l.startsWith('  claim not found'))).toEqual([
      '  claim not found in the code (THREAT_MODEL.md:16)',
      '  claim not found in the code (THREAT_MODEL.md:33)',
      '  claim not found in the code (THREAT_MODEL.md:41)',
    ]);
  });

  it('passes --fail-on not-found once every claimed control is in the code, while partly claims still fail --fail-on partly', async () => {
    // The release adds each missing control where the code already runs: a read-only container root,
    // an approver that declines when nobody is at the terminal, and a redacted transcript per tool result.
    const dir = editedFixture({
      'src/tools/python.ts': (t) => t.replace('"--network", "none",', '"--network", "none", "--read-only",'),
      'src/approve.ts': (t) => t.replace('  async requestApproval(call: ToolCall) {\n', "  async requestApproval(call: ToolCall) {\n    if (!process.stdin.isTTY) return 'deny';\n"),
      'src/context.ts': (t) =>
        `import { appendFileSync } from 'node:fs';\n${t}\nexport function redactSecrets(text: string, known: string[]): string {\n  return known.reduce((acc, k) => acc.replaceAll(k, '[secret]'), text);\n}\n\n` +
        `export function saveTranscript(transcriptPath: string, lines: string[], known: string[]): void {\n  appendFileSync(transcriptPath, lines.map((l) => redactSecrets(l, known)).join('\\n'));\n}\n`,
      'src/agent.ts': (t) =>
        t
          .replace("import { wrapToolOutput } from './context.js';", "import { saveTranscript, wrapToolOutput } from './context.js';")
          .replace('    history.push(wrapToolOutput(next.name, output));\n', "    history.push(wrapToolOutput(next.name, output));\n    saveTranscript('.quill/transcript.log', history.slice(-1), [process.env.ANTHROPIC_API_KEY ?? '']);\n"),
    });
    expect((await run(['checklist', dir, '--fail-on', 'not-found'])).code).toBe(0);
    const failures = gateFailures(await runReleaseCheck(dir, { rubricDir: RUBRIC }), parseGates('partly,fail'));
    expect(failures).toContain('claim only partly found in the code (SECURITY.md:11)');
    expect(failures).toContain('checklist item C1.home-hidden fails');
    expect(failures.filter((f) => f.startsWith('claim not found'))).toEqual([]);
  });

  it('lists regressions since a baseline: an item that passed and a claim that held, and gates on them', async () => {
    const base = join(mkdtempSync(join(tmpdir(), 'baseline-')), 'last-release.json');
    writeFileSync(base, `${JSON.stringify(await runReleaseCheck(FIXTURE, { rubricDir: RUBRIC }))}\n`);
    // The next release drops the keyring and keeps keys in the config file.
    const dir = editedFixture({
      'src/secrets.ts': (t) =>
        t
          .replace("import keytar from 'keytar';\n", '')
          .replace('await keytar.setPassword(SERVICE, provider, key);', 'saveConfig({ [provider]: key });')
          .replace("(await keytar.getPassword(SERVICE, provider)) ?? ''", "readConfig()[provider] ?? ''"),
    });
    const r = await run(['checklist', dir, '--baseline', base, '--fail-on', 'regression', '--format', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as ReleaseReport;
    expect(report.regressions.map((g) => (g.kind === 'item' ? [g.id, g.was, g.now] : [`${g.source.path}:${g.source.line}`, g.was, g.now]))).toEqual([
      ['C8.keyring', 'pass', 'fail'],
      ['THREAT_MODEL.md:40', 'holds', 'not-found'],
    ]);
    expect(r.stderr).toMatch(/regression: C8\.keyring passed at the baseline/);
    const md = renderReleaseCheck(report);
    expect(md).toContain(`## Regressions since ${base}`);
    expect(md).toMatch(/^- ✗ \*\*C8\.keyring\*\* Keys are stored .*: passed at the baseline, fails now — searched /m);
    expect(md).toMatch(/^- ✗ Claim “API keys live in the OS keyring, never in config files\.” \(\[THREAT\\_MODEL\.md:40\]\(THREAT_MODEL\.md#L40\)\): held at the baseline, not found now$/m);
    // The same code as the baseline regresses nothing.
    expect((await runReleaseCheck(FIXTURE, { rubricDir: RUBRIC, baseline: { data: readBaseline(base), name: base } })).regressions).toEqual([]);
  });

  it('audits the current folder by default and exits 0 without a gate, byte-identical to a second run', async () => {
    const a = await run(['checklist'], FIXTURE);
    const b = await run(['checklist', '.'], FIXTURE);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^# Release checklist: claims-agent\n/);
    expect(a.stdout).toBe(b.stdout);
  });

  it.each([
    ['an unknown gate', ['--fail-on', 'missing'], /unknown --fail-on 'missing' \(expected a comma-separated list of: not-found, partly, fail, regression\)/],
    ['a baseline that is not a checklist', ['--baseline', join(ROOT, 'package.json')], /baseline .*package\.json: at items: /],
    ['a missing baseline', ['--baseline', '/nonexistent/last-release.json'], /cannot read baseline \/nonexistent\/last-release\.json: ENOENT/],
  ])('rejects %s with exit code 2 and one line', async (_what, extra, message) => {
    const r = await run(['checklist', FIXTURE, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
