import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../src/audit.js';
import { confidenceOf } from '../src/evaluate/index.js';
import { RUBRIC } from './helpers.js';

/** A plain folder with these files: the probes read it in place, nothing is run. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-confidence-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// Haskell is a language no probe reads and none is counted as "uncovered": the only files the
// probes can search are the JSON and YAML settings.
const HASKELL_AGENT = {
  'src/Agent.hs': 'module Agent where\nimport System.Process\nrun cmd = callCommand cmd\n',
  'src/Tools.hs': 'module Tools where\nshell = "bash"\n',
  'config/mcp.json': '{"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}}\n',
  'config/settings.yaml': 'model: gpt-4.1\n',
};

describe('confidence (METHOD §8)', () => {
  it('is Low for a criterion whose probes read no source code, even when every level rule held', async () => {
    // No code the tool reads means no model call it can see: scored with --force, as a user would.
    const report = await audit(folder(HASKELL_AGENT), { rubricDir: RUBRIC, force: true });
    const c6 = report.criteria.find((c) => c.id === 'C6')!;
    // C6's levels rest on "no tool writes memory": true by silence, since nothing was read.
    expect((['S', 'C', 'D', 'B'] as const).map((d) => c6.dimensions[d].decidedBy)).toEqual(['probes', 'probes', 'probes', 'probes']);
    expect(c6.confidence).toBe('Low');
    expect(report.criteria.map((c) => c.confidence)).toEqual(Array(10).fill('Low'));
  });

  it('is High again once the same probes can read code in a language they support', async () => {
    const report = await audit(folder({ ...HASKELL_AGENT, 'cmd/agent/main.go': 'package main\n\nimport "os/exec"\n\nfunc run(c string) error { return exec.Command("sh", "-c", c).Run() }\n' }), {
      rubricDir: RUBRIC,
      force: true,
    });
    expect(report.criteria.find((c) => c.id === 'C6')!.confidence).toBe('High');
  });

  it('counts dimensions decided by the default and the share of unreadable code', () => {
    const probes = { decidedBy: 'probes' as const };
    const fallback = { decidedBy: 'default' as const };
    const go = { languages: { go: 10 }, uncovered: { java: 3 } };
    expect(confidenceOf([probes, probes, probes, probes], go, true)).toBe('High');
    expect(confidenceOf([probes, fallback, probes, probes], go, true)).toBe('Medium');
    expect(confidenceOf([probes, fallback, fallback, probes], go, true)).toBe('Low');
    expect(confidenceOf([probes, probes, probes, probes], { languages: { go: 2 }, uncovered: { java: 3 } }, true)).toBe('Low');
    expect(confidenceOf([probes, probes, probes, probes], go, false)).toBe('Low');
  });
});
