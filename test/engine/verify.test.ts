import { describe, expect, it } from 'vitest';
import { acquire } from '../../src/acquire/index.js';
import { type Checkable, verifyEvidence } from '../../src/evaluate/verify.js';
import { lineStartsOf } from '../../src/inventory/lines.js';
import { loadRubric } from '../../src/rubric/load.js';
import { RUBRIC, writeTree } from '../helpers.js';

const AGENT = ['import subprocess', '', 'def run(cmd):', '    return subprocess.run(cmd, shell=True)', ''].join('\n');

describe('verification reads the cited lines again from the snapshot', () => {
  it('verifies lines that hold the cited text, and nothing else: other lines, lines past the end, text that is not there, a probe the rubric does not know', async () => {
    const dir = writeTree('verify-agent', { 'agent.py': AGENT });
    const snapshot = await acquire(dir, {});
    const rubric = await loadRubric(RUBRIC);
    const cite = (probe: string, startLine: number, endLine: number, text: string): Checkable => ({ probe, path: 'agent.py', startLine, endLine, text, verified: false });
    const checks = [
      cite('exec.host-spawn', 4, 4, 'subprocess.run(cmd, shell=True)'),
      // The same text cited one line off, past the end of the file, or text the file does not hold.
      cite('exec.host-spawn', 3, 3, 'subprocess.run(cmd, shell=True)'),
      cite('exec.host-spawn', 6, 6, 'subprocess.run(cmd, shell=True)'),
      cite('exec.host-spawn', 4, 4, 'os.system(cmd)'),
      // A file the snapshot does not hold, and a probe no rubric part defines.
      { ...cite('exec.host-spawn', 4, 4, 'subprocess.run(cmd, shell=True)'), path: 'missing.py' },
      cite('no.such-probe', 4, 4, 'subprocess.run(cmd, shell=True)'),
    ];
    // Read from the snapshot (no product file given), then taken from the files the inventory read.
    await verifyEvidence(checks, snapshot, rubric, [], 1 << 20);
    expect(checks.map((c) => c.verified)).toEqual([true, false, false, false, false, false]);
    const again = checks.map((c) => ({ ...c, verified: false }));
    await verifyEvidence(again, snapshot, rubric, [{ path: 'agent.py', language: 'python', text: AGENT, lineStarts: lineStartsOf(AGENT) }], 1 << 20);
    expect(again.map((c) => c.verified)).toEqual([true, false, false, false, false, false]);
  });
});
