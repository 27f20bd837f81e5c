import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { audit } from '../src/audit.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { NO_FILE, pathUri, renderSarif, SARIF_SCHEMA, sarifText } from '../src/render/sarif.js';
import type { Report } from '../src/report/schema.js';
import { loadRubric } from '../src/rubric/load.js';
import type { Rubric } from '../src/rubric/schema.js';
import { cli, fixtureRepo, ROOT, RUBRIC } from './helpers.js';

/**
 * The subset of SARIF 2.1.0 the tool emits, strict so nothing else slips in. The official JSON schema
 * cannot be fetched here (no network), so the required fields of the standard (sarifLog.version and
 * runs, run.tool.driver.name, result.message.text, reportingDescriptor.id) are required below, and
 * GitHub's ingestion rules on top (every result has a location with a uri and a startLine).
 */
const text = z.strictObject({ text: z.string().min(1) });
const level = z.enum(['error', 'warning', 'note']);
const location = z.strictObject({
  physicalLocation: z.strictObject({
    artifactLocation: z.strictObject({ uri: z.string().min(1) }),
    region: z.strictObject({ startLine: z.number().int().min(1), endLine: z.number().int().min(1).optional() }).refine((r) => r.endLine === undefined || r.endLine >= r.startLine, 'endLine >= startLine'),
  }),
});
const rule = z.strictObject({
  id: z.string().min(1),
  shortDescription: text,
  fullDescription: text,
  help: text,
  defaultConfiguration: z.strictObject({ level }),
  properties: z.strictObject({ tags: z.array(z.string()), criterion: z.string() }),
});
const result = z.strictObject({ ruleId: z.string().min(1), ruleIndex: z.number().int().min(0), level, message: text, locations: z.array(location).min(1).max(10) });
const sarifSchema = z
  .strictObject({
    $schema: z.literal(SARIF_SCHEMA),
    version: z.literal('2.1.0'),
    runs: z
      .array(
        z.strictObject({
          tool: z.strictObject({ driver: z.strictObject({ name: z.string().min(1), version: z.string(), semanticVersion: z.string().regex(/^\d+\.\d+\.\d+/), rules: z.array(rule) }) }),
          versionControlProvenance: z.array(z.strictObject({ repositoryUri: z.string(), revisionId: z.string() })).optional(),
          results: z.array(result),
          properties: z.record(z.string(), z.unknown()),
        }),
      )
      .length(1),
  })
  .superRefine((log, ctx) => {
    for (const run of log.runs) {
      const ids = run.tool.driver.rules.map((r) => r.id);
      if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'rule ids are unique' });
      run.results.forEach((r, i) => {
        if (ids[r.ruleIndex] !== r.ruleId) ctx.addIssue({ code: 'custom', path: ['results', i], message: 'ruleIndex points at the rule with ruleId' });
      });
    }
  });
type Sarif = z.infer<typeof sarifSchema>;

function parse(s: string): Sarif {
  const r = sarifSchema.safeParse(JSON.parse(s));
  if (!r.success) throw new Error(JSON.stringify(r.error.issues.slice(0, 3)));
  return r.data;
}

let rubric: Rubric;
let chat: Report;
let chatSarif: Sarif;
beforeAll(async () => {
  rubric = loadRubric(RUBRIC);
  chat = await audit(join(ROOT, 'fixtures', 'desktop-chat'), { rubricDir: RUBRIC });
  chatSarif = parse(renderSarif(chat, rubric, { minLevel: 2 }));
});

/** The official SARIF 2.1.0 JSON schema (draft-04), as shipped in @microsoft/jest-sarif, with its own ajv 6. */
function officialValidator(): (doc: unknown) => string[] {
  const req = createRequire(createRequire(import.meta.url).resolve('@microsoft/jest-sarif'));
  const Ajv = req('ajv');
  const ajv = new Ajv({ schemaId: 'id', meta: false, allErrors: true });
  ajv.addMetaSchema(req('ajv/lib/refs/json-schema-draft-04.json'));
  const validate = ajv.compile(JSON.parse(readFileSync(join(dirname(req.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')));
  return (doc) => (validate(doc) ? [] : (validate.errors as Array<{ dataPath: string; message: string }>).map((e) => `${e.dataPath} ${e.message}`));
}

describe('SARIF 2.1.0', () => {
  it('validates against the official SARIF 2.1.0 JSON schema, for every fixture and every minimum level', async () => {
    const validate = officialValidator();
    // The validator is real: a broken document is rejected.
    expect(validate({ version: '2.1.0', runs: [{ tool: {} }] }).length).toBeGreaterThan(0);
    for (const name of ['desktop-chat', 'naive-agent', 'hardened-agent']) {
      const report = name === 'desktop-chat' ? chat : await audit(join(ROOT, 'fixtures', name), { rubricDir: RUBRIC });
      for (const minLevel of [0, 2, 4]) expect(validate(JSON.parse(renderSarif(report, rubric, { minLevel }))), `${name} min ${minLevel}`).toEqual([]);
    }
  });

  it('has the required SARIF fields and one result per dimension below the minimum level', () => {
    const run = chatSarif.runs[0]!;
    expect(chatSarif.version).toBe('2.1.0');
    expect(run.tool.driver.name).toBe('agent-audit');
    const below = chat.criteria.flatMap((c) => (['S', 'C', 'D', 'B'] as const).filter((d) => c.levels[d] < 2).map((d) => `${c.id}/${d}/L${c.levels[d]}`));
    expect(below.length).toBeGreaterThan(5);
    expect(run.results.map((r) => r.ruleId)).toEqual(below);
    for (const r of run.results) expect(r.level).toBe(r.ruleId.endsWith('/L0') ? 'error' : 'warning');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(below);
  });

  it('takes rule text from the rubric: criterion title, the level gap and action, the playbook title and step', () => {
    const c10 = rubric.criteria.find((c) => c.id === 'C10')!;
    const spec = c10.B.L0;
    const [book, step] = spec.playbook!.slice(1).split('.');
    const playbook = rubric.playbooks.find((p) => p.id === `P${book}`)!;
    const r = chatSarif.runs[0]!.tool.driver.rules.find((x) => x.id === 'C10/B/L0')!;
    expect(r.shortDescription.text).toBe('C10 Limits & kill switch: Blast radius at L0');
    expect(r.fullDescription.text).toContain(spec.gap!);
    expect(r.help.text).toBe(`To reach L1: ${spec.action} Playbook ${book} (${playbook.title}) step ${step}: ${playbook.steps[Number(step) - 1]}`);
    expect(r.defaultConfiguration.level).toBe('error');
  });

  it('locates results at the lines their evidence cites, and marks missing controls as having no file', () => {
    const results = parse(renderSarif(chat, rubric, { minLevel: 4 })).runs[0]!.results;
    let located = 0;
    let unlocated = 0;
    for (const r of results) {
      const [id, d] = r.ruleId.split('/') as [string, 'S'];
      const lines = chat.criteria.find((c) => c.id === id)!.dimensions[d].evidence.filter((e) => e.kind === 'lines');
      const uris = r.locations.map((l) => l.physicalLocation);
      if (lines.length) {
        located++;
        const expected = lines.map((e) => ({ artifactLocation: { uri: e.path }, region: { startLine: e.startLine, endLine: e.endLine } }));
        // Two findings on the same lines make one location.
        expect(uris).toEqual(expected.filter((x, i) => expected.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i));
      } else {
        unlocated++;
        expect(uris).toEqual([{ artifactLocation: { uri: NO_FILE }, region: { startLine: 1 } }]);
        expect(r.message.text).toMatch(/searched .* → 0 hits/);
      }
    }
    expect(located).toBeGreaterThan(0);
    expect(unlocated).toBeGreaterThan(0);
  });

  it('reports each fired cap as an error at its evidence, and --sarif-min-level sets which dimensions count', async () => {
    const naive = await audit(join(ROOT, 'fixtures', 'naive-agent'), { rubricDir: RUBRIC });
    const capped = naive.criteria.filter((c) => c.cap !== null);
    expect(capped.length).toBeGreaterThan(0);
    const only = parse(renderSarif(naive, rubric, { minLevel: 0 })).runs[0]!;
    expect(only.results.map((r) => r.ruleId)).toEqual(capped.map((c) => `${c.id}/cap/${rubric.file.caps.find((x) => x.criterion === c.id && x.explain === c.capReason)!.id}`));
    for (const [i, r] of only.results.entries()) {
      const c = capped[i]!;
      expect(r.level).toBe('error');
      expect(r.message.text).toContain(`capped at ${c.cap!.toFixed(2)}: ${c.capReason}`);
      const first = c.capEvidence.find((e) => e.kind === 'lines');
      if (first) expect(r.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: first.path }, region: { startLine: first.startLine, endLine: first.endLine } });
    }
    const all = parse(renderSarif(naive, rubric, { minLevel: 4 })).runs[0]!;
    expect(all.results.length).toBe(capped.length + naive.criteria.reduce((n, c) => n + Object.values(c.levels).filter((l) => l < 4).length, 0));
  });

  it('encodes paths as URI references and escapes brackets that would form embedded links', () => {
    expect(pathUri('web-app/src/routes/threads/$threadId.tsx')).toBe('web-app/src/routes/threads/$threadId.tsx');
    expect(pathUri('a b/c#d?.ts')).toBe('a%20b/c%23d%3F.ts');
    expect(sarifText('see [here](https://evil.example) \u202e')).toBe('see [here\\](https://evil.example) ');
    expect(sarifText('\\](x) [a] b')).toBe('\\\\\\](x) [a] b');
  });
});

describe('determinism', () => {
  it('gives byte-identical markdown, JSON and SARIF for the same commit and rubric, and records what scored it', async () => {
    const { dir, commit } = fixtureRepo('desktop-chat');
    const [a, b] = [await audit(dir, { rubricDir: RUBRIC, commit }), await audit(dir, { rubricDir: RUBRIC, commit })];
    const outputs = (r: Report) => [renderMarkdown(r), `${JSON.stringify(r, null, 2)}\n`, renderSarif(r, rubric, { minLevel: 2 })];
    expect(outputs(b)).toEqual(outputs(a));
    expect(a.tool).toEqual({ name: 'agent-audit', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(a.rubric).toEqual({ id: 'dids', version: rubric.file.version, hash: rubric.hash });
    expect(a.rubric.hash).toMatch(/^[0-9a-f]{64}$/);
    // The CLI run in this process (see `cli` in helpers.ts).
    const r = await cli(['score', dir, '--commit', commit, '--format', 'sarif']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(outputs(a)[2]);
    expect(parse(r.stdout).runs[0]!.versionControlProvenance).toBeUndefined();
  });
});
