import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { explain } from '../../src/explain/index.js';
import { renderExplanation } from '../../src/explain/markdown.js';
import { outcomesFromReport } from '../../src/explain/outcomes.js';
import { renderSarif } from '../../src/render/sarif.js';
import { loadRubric } from '../../src/rubric/load.js';
import { ROOT, RUBRIC } from '../helpers.js';

/**
 * naive-agent has no approval step at all. Its C2 D is L0 either way (METHOD §4: an absent
 * mechanism is L0), but the scorecard says what was seen: no approval step, rather than one a
 * default switches off. The same agent with a `yolo` option on by default is the ladder's own L0.
 */
async function naive(yolo = false) {
  const dir = join(mkdtempSync(join(tmpdir(), 'level-words-')), 'naive');
  cpSync(join(ROOT, 'fixtures', 'naive-agent'), dir, { recursive: true });
  if (yolo) {
    appendFileSync(join(dir, 'src', 'config.ts'), "\nexport const SETTINGS = { yolo: { type: 'boolean', default: true } };\n");
    appendFileSync(join(dir, 'src', 'index.ts'), "if (SETTINGS.yolo.default) console.error('tools run without asking');\n");
  }
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const ladder = loadRubric(RUBRIC).criteria.find((c) => c.id === 'C2')!.D.L0;

describe('the words for an L0', () => {
  it('say the mechanism is absent when L0 is reached without its own finding', async () => {
    const d = (await naive()).criteria.find((c) => c.id === 'C2')!.dimensions.D;
    expect(d.level).toBe(0);
    expect(d.means).toBe(ladder.otherwise!.means);
    expect(d.next).toBe(ladder.otherwise!.gap);
  });

  it("are the ladder's own where its finding is made", async () => {
    const d = (await naive(true)).criteria.find((c) => c.id === 'C2')!.dimensions.D;
    expect(d.level).toBe(0);
    expect(d.means).toBe(ladder.means);
    expect(d.next).toBe(ladder.gap);
  });

  it('are what explain says is missing, too', async () => {
    const report = await naive();
    const outcomes = outcomesFromReport(loadRubric(RUBRIC), report);
    const x = explain({ report, rubric: loadRubric(RUBRIC), outcomes, from: 'report' }, 'C2', 'D');
    expect(x.next!.gap).toBe(ladder.otherwise!.gap);
    expect(renderExplanation(x)).toContain(`The rubric says: ${ladder.otherwise!.gap}`);
  });

  it('are what the SARIF result says, too', async () => {
    const report = await naive();
    const sarif = JSON.parse(renderSarif(report, loadRubric(RUBRIC), { minLevel: 2 })) as { runs: Array<{ results: Array<{ ruleId: string; message: { text: string } }> }> };
    const text = sarif.runs[0]!.results.find((r) => r.ruleId === 'C2/D/L0')!.message.text;
    expect(text).toContain(`${ladder.otherwise!.means}. ${ladder.otherwise!.gap}`);
    expect(text).not.toContain(ladder.gap!);
  });
});

