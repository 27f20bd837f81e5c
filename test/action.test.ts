import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fixtureRepo, git, ROOT } from './helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'ci-audit.sh');

interface Run {
  code: number;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

/** Runs the CI script as the action does: everything through the environment, summary and outputs to files. */
function ciAudit(repo: string, base: string, head: string, env: Record<string, string> = {}): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'ci-audit-'));
  const summary = join(dir, 'summary.md');
  const outputs = join(dir, 'outputs.txt');
  writeFileSync(summary, '');
  writeFileSync(outputs, '');
  const full = { ...process.env, AUDIT_REPO: repo, AUDIT_BASE_SHA: base, AUDIT_HEAD_SHA: head, AUDIT_OUT_DIR: join(dir, 'out'), GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: outputs, ...env };
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT], { cwd: tmpdir(), env: full, encoding: 'utf8' }, (err, _stdout, stderr) => {
      const lines = readFileSync(outputs, 'utf8').trim().split('\n').filter(Boolean);
      resolve({
        code: err ? Number((err as { code?: number }).code) : 0,
        stderr,
        summary: readFileSync(summary, 'utf8'),
        outputs: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])),
      });
    });
  });
}

describe('scripts/ci-audit.sh (the GitHub Action, run locally)', () => {
  let repo: string;
  let withGate: string;
  let withoutGate: string;
  let dropped: Run;
  let restored: Run;

  beforeAll(async () => {
    const fixture = fixtureRepo('desktop-chat');
    repo = fixture.dir;
    withGate = fixture.commit;
    // The second commit removes the approval gate: the hooks, the approval card, and the call in the
    // dispatcher go, so tools are called unasked and no approval code remains.
    for (const f of ['web-app/src/hooks/useToolApprovalRequests.ts', 'web-app/src/hooks/useToolApproval.ts', 'web-app/src/containers/message/ToolCallCard.tsx']) rmSync(join(repo, f));
    const route = join(repo, 'web-app/src/routes/threads/$threadId.tsx');
    writeFileSync(
      route,
      readFileSync(route, 'utf8')
        .replace("import { requestToolApproval } from '../../hooks/useToolApprovalRequests'\n", '')
        .replaceAll(', ask: Parameters<typeof requestToolApproval>[3]', '')
        .replace("  const approved = await requestToolApproval(threadId, toolName, input, ask)\n  if (!approved) return { error: 'Tool call denied by the user' }\n", ''),
    );
    expect(readFileSync(route, 'utf8')).not.toMatch(/pproval/);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'remove the approval gate');
    withoutGate = git(repo, 'rev-parse', 'HEAD');
    dropped = await ciAudit(repo, withGate, withoutGate, { AUDIT_FAIL_ON_REGRESSION: 'true' });
    restored = await ciAudit(repo, withoutGate, withGate, { AUDIT_FAIL_ON_REGRESSION: 'true' });
  });

  it("writes a summary naming C2's dropped levels and the evidence that vanished", () => {
    const s = dropped.summary;
    expect(s).toMatch(/^# Re-audit: desktop-chat\n/);
    expect(s).toContain(`| Baseline | \`${withGate.slice(0, 12)}\``);
    expect(s).toContain(`| This audit | \`${withoutGate.slice(0, 12)}\``);
    expect(s).toContain('### C2 Approval gates: 0.57 → 0.00 (-0.575)');
    for (const move of ['S L3 → L0', 'C L2 → L0', 'D L2 → L0', 'B L2 → L0']) expect(s).toContain(`- **${move}:**`);
    // The approval that vanished, cited where the dispatcher waited for the answer (the call the second commit removed).
    expect(s).toMatch(/\n  - disappeared: `approval\.prompt` \[web-app\/src\/routes\/threads\/\\\$threadId\.tsx:\d+\]\(\S+#L\d+\) \(a tool path waits for the user's answer before it acts\)\n/);
    expect(s).toContain('- appeared: `approval.prompt`: searched ');
    expect(s).toContain('- C2 S L3→L0 (level dropped)');
    expect(s).toMatch(/## Gate failed\n\n```text\naudit: gate failed: --fail-on-regression: \d+ regressions since the baseline: C2 S L3→L0, C2 C L2→L0, C2 D L2→L0, C2 B L2→L0, /);
  });

  it('fails the --fail-on-regression gate with exit 1, and still writes every file', () => {
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toMatch(/^audit: gate failed: --fail-on-regression: /m);
    expect(dropped.outputs['exit-code']).toBe('1');
    const head = JSON.parse(readFileSync(dropped.outputs['head-json']!, 'utf8'));
    expect(head.target.commit).toBe(withoutGate);
    expect(head.reaudit).toContainEqual(expect.stringMatching(/^C2 S L3→L0 \(no approval step\): disappeared: approval\.prompt at web-app\/src\/routes\/threads\/\$threadId\.tsx:\d+ \(a tool path waits for the user's answer before it acts\); .*appeared: empty search for approval\.prompt \(no approval step before tools run\)\.$/));
    const sarif = JSON.parse(readFileSync(dropped.outputs['sarif']!, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(expect.arrayContaining(['C2/S/L0', 'C2/C/L0', 'C2/D/L0', 'C2/B/L0']));
    expect(readFileSync(dropped.outputs['diff']!, 'utf8')).toBe(dropped.summary.slice(0, dropped.summary.indexOf('\n## Gate failed')));
  });

  it('passes the reverse (the gate added back) with exit 0', () => {
    expect(restored.code).toBe(0);
    expect(restored.stderr).toBe('');
    expect(restored.outputs['exit-code']).toBe('0');
    expect(restored.summary).toContain('- **S L0 → L3:**');
    expect(restored.summary).toContain('- None: no level dropped, no cap newly fired, no critical gap added.');
    expect(restored.summary).not.toContain('Gate failed');
  });

  it('rejects a missing commit or a bad gate value with exit 2', async () => {
    const noBase = await ciAudit(repo, '', withGate);
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toBe('ci-audit: AUDIT_BASE_SHA is not set (expected the base commit of the pull request)\n');
    const bad = await ciAudit(repo, withGate, withGate, { AUDIT_FAIL_ON_REGRESSION: 'yes' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/AUDIT_FAIL_ON_REGRESSION='yes': expected true or false/);
  });
});

describe('action.yml and the example workflow', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
  const example = parse(readFileSync(join(ROOT, 'docs', 'ci-example.yml'), 'utf8'));

  it('is a composite action that runs the script, then uploads SARIF even when a gate failed', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps as Array<{ run?: string; uses?: string; if?: string; env?: Record<string, string> }>;
    const audit = steps.find((s) => s.run?.includes('scripts/ci-audit.sh'))!;
    expect(Object.keys(audit.env!)).toEqual(expect.arrayContaining(['AUDIT_BASE_SHA', 'AUDIT_HEAD_SHA', 'AUDIT_FAIL_ON_REGRESSION', 'AUDIT_FAIL_UNDER', 'AUDIT_SARIF_MIN_LEVEL']));
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'))!;
    expect(upload.if).toMatch(/^always\(\)/);
    // Inputs and event fields reach shell only through env, never interpolated into a command.
    for (const s of steps) expect(s.run ?? '').not.toMatch(/\$\{\{/);
  });

  it('pins every action by a full 40-hex commit SHA, with its release tag as a trailing comment', () => {
    // The one exception: the reader pins this repository's own action to a commit of their choosing.
    const SELF = 'OWNER/agent-audit@FULL_COMMIT_SHA';
    type Step = { uses?: string };
    const files: Array<[string, Step[]]> = [
      ['action.yml', action.runs.steps as Step[]],
      ['docs/ci-example.yml', Object.values(example.jobs as Record<string, { steps: Step[] }>).flatMap((j) => j.steps)],
    ];
    const pinned: string[] = [];
    for (const [file, steps] of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const uses = steps.flatMap((st) => (st.uses ? [st.uses] : []));
      // Every `uses:` line in the text is a step the YAML parser saw (none hidden in a flow mapping).
      expect(text.split('\n').filter((l) => /^\s*(- )?uses:/.test(l))).toHaveLength(uses.length);
      for (const u of uses) {
        if (u === SELF && file === 'docs/ci-example.yml') continue;
        expect(u, `${file}: ${u}`).toMatch(/^[\w.-]+\/[\w.\/-]+@[0-9a-f]{40}$/);
        // Checked above to hold only [\w./@-], so escaping the dots makes it a literal pattern.
        expect(text, `${file}: ${u}`).toMatch(new RegExp(`uses: ${u.replaceAll('.', '\\.')} # v\\d+\\.\\d+\\.\\d+\\n`));
        pinned.push(u.slice(0, u.indexOf('@')));
      }
    }
    expect(pinned.sort()).toEqual(['actions/checkout', 'actions/setup-node', 'github/codeql-action/upload-sarif']);
    // The README's CI snippet follows the same rule.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').filter((l) => /^\s*- uses:/.test(l));
    expect(readme.length).toBeGreaterThan(0);
    for (const l of readme) expect(l).toMatch(/^\s*- uses: [\w.-]+\/[\w.\/-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('audits pull requests with both commits fetched and a pinned, not local, auditor', () => {
    expect(Object.keys(example.on)).toEqual(['pull_request']);
    expect(example.permissions['security-events']).toBe('write');
    const steps = example.jobs.reaudit.steps as Array<{ uses?: string; with?: Record<string, unknown> }>;
    expect(steps[0]!.with!['fetch-depth']).toBe(0);
    const uses = steps.find((s) => s.uses?.includes('agent-audit'))!;
    expect(uses.uses).not.toMatch(/^\.\//);
    expect(uses.with!['fail-on-regression']).toBe('true');
  });
});
