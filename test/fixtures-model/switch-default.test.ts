import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * py-leashed-runner asks before running a script only while `confirm_scripts` is on, and its
 * defaults table sets it off (the fixture's own expectations: ungated, C2 and C4 caps). The same
 * harness with the default flipped asks by default: the runner is gated and neither cap fires.
 */
describe('an ask behind a switch, by the switch default', () => {
  it('is a gate when the defaults table turns the switch on', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'leashed-on-')), 'quarry');
    cpSync(join(ROOT, 'fixtures', 'py-leashed-runner'), dir, { recursive: true });
    const settings = join(dir, 'quarry', 'settings.py');
    const text = readFileSync(settings, 'utf8');
    expect(text).toContain('"confirm_scripts": False');
    writeFileSync(settings, text.replace('"confirm_scripts": False', '"confirm_scripts": True'));
    const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
    const runner = report.agent!.tools.find((t) => t.name === 'run_script')!;
    expect({ reaches: runner.reaches, gated: runner.gated }).toEqual({ reaches: ['exec'], gated: true });
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).not.toContain('C2');
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).not.toContain('C4');
  });

  it('links the line that sets the switch off, re-verified', async () => {
    const report = await audit(join(ROOT, 'fixtures', 'py-leashed-runner'), { rubricDir: RUBRIC, factsCache: false });
    const gate = report.agent!.tools.find((t) => t.name === 'run_script')!.paths[0]!.gate!;
    expect(gate.kind).toBe('opt-in');
    expect(gate.switchOff).toMatchObject({ path: 'quarry/settings.py', text: '"confirm_scripts": False,', verified: true });
  });
});
