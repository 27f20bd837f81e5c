import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRubricCached } from '../src/cache/rubric.js';
import { planOf } from '../src/facts/plan.js';
import { testProbe } from '../src/probes/selftest.js';
import { loadRubric, RubricError } from '../src/rubric/load.js';
import { RUBRIC } from './helpers.js';

function brokenRubric(file: string, edit: (text: string) => string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'rubric-')), 'dids');
  cpSync(RUBRIC, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

describe('rubric as data', () => {
  const rubric = loadRubric(RUBRIC);
  it('has ten criteria with five levels on each dimension and a hash that pins it', () => {
    expect(rubric.criteria.map((c) => c.id)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10']);
    for (const c of rubric.criteria) for (const d of ['S', 'C', 'D', 'B'] as const) expect(Object.keys(c[d])).toEqual(['L0', 'L1', 'L2', 'L3', 'L4']);
    expect(rubric.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rubric.file.caps.map((c) => `${c.criterion}=${c.value}`)).toEqual(['C1=0.25', 'C2=0.25', 'C4=0.2', 'C6=0.25', 'C7=0.2', 'C8=0.25']);
  });

  it.each([
    ['rubric.yaml', (t: string) => t.replace('version: 1.0.0', 'version: one'), /rubric\.yaml: at version: a semantic version/],
    ['rubric.yaml', (t: string) => t.replace('value: 0.25', 'value: 0.33'), /rubric\.yaml: at caps\.0\.value: a multiple of 1\/40/],
    ['criteria/C4.yaml', (t: string) => t.replace(/^S:/m, 'Strength:'), /criteria\/C4\.yaml: at /],
    ['criteria/C2.yaml', (t: string) => t.replace("when: approval.prompt", 'when: approval.nonexistent'), /criteria\/C2\.yaml: at [SCDB]\.L\d\.when: unknown probe "approval\.nonexistent"/],
    // The words for an L0 reached without its finding belong to an L0 with a rule, nowhere else.
    ['criteria/C4.yaml', (t: string) => t.replace('  L1:\n    means: in-process or subprocess', '  L1:\n    otherwise: { means: x, gap: y }\n    means: in-process or subprocess'), /criteria\/C4\.yaml: at S\.L1\.otherwise: only an L0 with a when rule has an otherwise/],
    // Other words for one alternative of a level's rule need that rule, and name known conditions.
    ['criteria/C3.yaml', (t: string) => t.replace('  L4:\n    means: every surface', '  L4:\n    instead: { when: { cond: nothing-in-reach }, means: x }\n    means: every surface'), /criteria\/C3\.yaml: at C\.L4\.instead: only a level with a when rule/],
    ['criteria/C4.yaml', (t: string) => t.replace('      when: { cond: nothing-in-reach }\n', '      when: { cond: nothing-near }\n'), /criteria\/C4\.yaml: at B\.L4\.instead\.when: unknown condition "nothing-near"/],
    ['probes/sandbox.os.yaml', (t: string) => t.replace('engine: ast-grep', 'engine: regex'), /probes\/sandbox\.os\.yaml: at engine: /],
    ['probes/sandbox.os.yaml', (t: string) => t.replace(/^rules:\n(?:[ #].*\n)*/m, ''), /probes\/sandbox\.os\.yaml: at rules: required for engine ast-grep/],
    ['surface.yaml', (t: string) => t.replace('properties:', 'props:\n  x: 1\nproperties:'), /surface\.yaml: at /],
    ['playbooks.yaml', (t: string) => `${t}\n  - [unclosed`, /playbooks\.yaml(:\d+)?: invalid YAML/],
    // Rules are compiled together per language; a broken one is still named by its own file and language.
    ['probes/sandbox.os.yaml', (t: string) => t.replace('    - kind: string\n', '    - kind: no_such_node\n'), /probes\/sandbox\.os\.yaml: at rules\.typescript: not a valid ast-grep rule: .*no_such_node/],
    ['probes/sandbox.os.yaml', (t: string) => t.replace("(bwrap|sandbox-exec", "(bwrap|(unclosed|sandbox-exec"), /probes\/sandbox\.os\.yaml: at rules\.typescript: not a valid ast-grep rule: .*regex/i],
  ])('rejects a malformed %s with the file, the path and what was expected', (file, edit, message) => {
    const dir = brokenRubric(file, edit);
    // One load (each costs a full parse): the error is a RubricError and says what went wrong.
    const error = (() => {
      try {
        loadRubric(dir);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(RubricError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('every probe against its own snippets (audit rules test)', () => {
  const rubric = loadRubric(RUBRIC);
  it("reads a driven coding agent's approvals as off by the same switches in the runners probe and in the agent model", () => {
    const rules = rubric.probes.find((p) => p.id === 'exec.host-spawn')!.rules as Record<string, unknown>;
    const quoted = (pattern: string) => JSON.stringify(`(?i)${pattern}`).slice(1, -1);
    for (const language of ['typescript', 'python', 'rust', 'go']) {
      expect(JSON.stringify(rules[language])).toContain(quoted(rubric.model!.unattended!.switches));
      expect(JSON.stringify(rules[language])).toContain(quoted(rubric.model!.unattended!.unless));
    }
  });

  it('names the same coding-agent programs in the runners probe and in the agent model', () => {
    const rules = JSON.stringify(rubric.probes.find((p) => p.id === 'exec.host-spawn')!.rules);
    const programs = /\(([^()]+)\)/.exec(rubric.model!.drivenAgent!.programs)![1]!;
    for (const language of ['typescript', 'python', 'go']) expect(JSON.stringify((JSON.parse(rules) as Record<string, unknown>)[language])).toContain(`(${programs})`);
  });

  it.each(rubric.probes.map((p) => [p.id, p] as const))('%s', async (_id, probe) => {
    const failures = (await testProbe(probe)).filter((o) => !o.ok);
    expect(failures).toEqual([]);
  });
});

describe('the rubric cache folder', () => {
  it('gives back the same rubric and the same extraction plan as loading the YAML, and reloads after an edit', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'rubric-cache-'));
    const dir = brokenRubric('rubric.yaml', (t) => t);
    const fresh = loadRubric(dir);
    const first = await loadRubricCached(dir, cacheDir);
    // The same bytes in another folder: not kept in this process under that folder, so read from the cache folder.
    const copy = mkdtempSync(join(tmpdir(), 'rubric-copy-'));
    cpSync(dir, copy, { recursive: true });
    const second = await loadRubricCached(copy, cacheDir);
    expect(second).not.toBe(first);
    expect(readdirSync(join(cacheDir, 'rubrics')).sort()).toEqual([expect.stringMatching(/^[0-9a-f-]+\.json$/), expect.stringMatching(/^[0-9a-f-]+\.plan\.json$/)]);
    for (const r of [first, second]) {
      expect(r.hash).toBe(fresh.hash);
      expect(r.probes).toEqual(fresh.probes);
      expect(planOf(r)).toEqual(planOf(fresh));
    }
    // Read again in this process: the very rubric, frozen, so no audit can change what the next one reads.
    expect(await loadRubricCached(dir, cacheDir)).toBe(first);
    expect(() => {
      (first.probes[0] as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(first.criteria[0]!.S)).toBe(true);
    writeFileSync(join(dir, 'probes', 'sandbox.os.yaml'), readFileSync(join(dir, 'probes', 'sandbox.os.yaml'), 'utf8').replace(/^title: .*$/m, 'title: renamed'));
    expect((await loadRubricCached(dir, cacheDir)).probes.find((p) => p.id === 'sandbox.os')!.title).toBe('renamed');
  });
});
