import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, basename, resolve } from 'node:path';
import { folderHash } from '../cache/build.js';
import { RubricError } from './error.js';
import { parse, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { modelProbes, probeRules } from '../facts/plan.js';
import { PARSER, ruleError } from '../facts/parse.js';
import { shareNegations } from '../facts/ruleGuard.js';
import {
  checklistSchema,
  claimsSchema,
  criterionSchema,
  modelSchema,
  playbooksSchema,
  probeSchema,
  rubricFileSchema,
  surfaceSchema,
  DIMENSIONS,
  type Language,
  type Rubric,
  type Rule,
} from './schema.js';
import { insteadsOf } from './instead.js';
import { keepBounded } from '../cache/memo.js';

/** A rubric that cannot be used: names the file, the path inside it and what was expected. */
export { RubricError };

/**
 * Parsed files by their text, as JSON text (so no caller shares a mutable object): parsing the
 * rubric's YAML is most of a rubric load, and a process that loads several copies of one rubric
 * (the test suite, a batch with --rubric) parses each distinct file once.
 */
const parsed = new Map<string, string>();

function readYaml(file: string, rootDir: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new RubricError(`${relative(rootDir, file) || file}: cannot read the file`);
  }
  const known = parsed.get(text);
  if (known !== undefined) return JSON.parse(known);
  // yaml's plain parse is several times faster than parseDocument and still reports the line.
  try {
    const data: unknown = parse(text, { prettyErrors: false, uniqueKeys: true });
    // A file that may hold a value JSON cannot carry (.inf, .nan) is parsed again each time instead.
    if (!/\.(inf|nan)/i.test(text)) parsed.set(text, JSON.stringify(data));
    return data;
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    const line = err.linePos?.[0]?.line;
    throw new RubricError(`${relative(rootDir, file)}${line ? `:${line}` : ''}: invalid YAML: ${err.message.split('\n')[0]}`);
  }
}

function validate<T extends z.ZodType>(schema: T, data: unknown, file: string, rootDir: string): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : '(top level)';
  throw new RubricError(`${relative(rootDir, file)}: at ${where}: ${issue.message}`);
}

function hashFiles(files: string[], dir: string): string {
  const h = createHash('sha256');
  for (const f of [...files].sort()) {
    h.update(relative(dir, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .map((n) => join(dir, n));
}

function* ruleRefs(rule: Rule): Generator<{ probe?: string; cond?: string }> {
  if (typeof rule === 'string') yield { probe: rule };
  else if ('all' in rule) for (const r of rule.all) yield* ruleRefs(r);
  else if ('any' in rule) for (const r of rule.any) yield* ruleRefs(r);
  else if ('not' in rule) yield* ruleRefs(rule.not);
  else if ('absent' in rule) yield { probe: rule.absent };
  else yield { cond: rule.cond };
}

/**
 * Rubrics already loaded in this process, by the hash of their folder's content: parsing and
 * checking some hundred YAML files costs seconds, and a batch or a test suite loads one rubric many
 * times. Each caller gets its own copy.
 */
const loaded = new Map<string, Rubric>();

/** Loads and cross-checks a rubric folder (rubric.yaml, criteria/, probes/, surface.yaml, playbooks.yaml; optional checklist.yaml, claims.yaml); `hash` is the folder's hash when the caller already has it. */
export function loadRubric(dir: string, hash?: string): Rubric {
  if (!existsSync(join(dir, 'rubric.yaml'))) throw new RubricError(`${dir}: not a rubric folder (no rubric.yaml)`);
  const key = `${resolve(dir)}\0${hash ?? folderHash(dir)}`;
  let rubric = loaded.get(key);
  if (!rubric) {
    rubric = loadRubricFiles(dir);
    keepBounded(loaded, key, rubric, 8);
  }
  return structuredClone(rubric);
}

function loadRubricFiles(dir: string): Rubric {
  const rubricPath = join(dir, 'rubric.yaml');
  const file = validate(rubricFileSchema, readYaml(rubricPath, dir), rubricPath, dir);

  const criteria = file.criteria.map((id) => {
    const p = join(dir, 'criteria', `${id}.yaml`);
    const c = validate(criterionSchema, readYaml(p, dir), p, dir);
    if (c.id !== id) throw new RubricError(`${relative(dir, p)}: at id: expected "${id}" to match the file name, got "${c.id}"`);
    return c;
  });

  const probeFiles = yamlFiles(join(dir, 'probes'));
  const probes = probeFiles.map((p) => {
    const probe = validate(probeSchema, readYaml(p, dir), p, dir);
    if (`${probe.id}.yaml` !== basename(p))
      throw new RubricError(`${relative(dir, p)}: at id: expected "${basename(p, '.yaml')}" to match the file name, got "${probe.id}"`);
    return probe;
  });

  const surfacePath = join(dir, 'surface.yaml');
  const surface = validate(surfaceSchema, readYaml(surfacePath, dir), surfacePath, dir);
  const modelPath = join(dir, 'model.yaml');
  const model = existsSync(modelPath) ? validate(modelSchema, readYaml(modelPath, dir), modelPath, dir) : undefined;
  const playbooksPath = join(dir, 'playbooks.yaml');
  const playbooks = validate(playbooksSchema, readYaml(playbooksPath, dir), playbooksPath, dir);

  // Cross references: a rule may only name probes (or model facts), conditions and playbooks that exist.
  const probeIds = new Set([...probes.map((p) => p.id), ...(model?.facts ?? []).map((f) => f.id)]);
  for (const f of model?.facts ?? []) if (probes.some((p) => p.id === f.id)) throw new RubricError(`model.yaml: at facts: "${f.id}" is also a probe file (probes/${f.id}.yaml): one id, one meaning`);
  const named: Array<[string, string]> = [...(model?.isolation ?? []).map((id): [string, string] => ['isolation', id]), ...(['runners', 'loops'] as const).flatMap((k): Array<[string, string]> => (model?.[k] ? [[k, model[k]]] : []))];
  for (const f of model?.facts ?? []) if (typeof f.paths.loop === 'string') named.push([`facts.${f.id}.paths.loop`, f.paths.loop]);
  for (const [key, id] of named) if (!probes.some((p) => p.id === id)) throw new RubricError(`model.yaml: at ${key}: unknown probe "${id}" (expected a file probes/${id}.yaml)`);
  const checkRule = (rule: Rule, where: string) => {
    for (const ref of ruleRefs(rule)) {
      if (ref.probe && !probeIds.has(ref.probe)) throw new RubricError(`${where}: unknown probe "${ref.probe}" (expected a file probes/${ref.probe}.yaml)`);
      if (ref.cond && !(ref.cond in file.conditions)) throw new RubricError(`${where}: unknown condition "${ref.cond}" (expected a key under conditions in rubric.yaml)`);
    }
  };
  for (const [name, rule] of Object.entries(file.conditions)) checkRule(rule, `rubric.yaml: at conditions.${name}`);
  for (const cap of file.caps) {
    checkRule(cap.when, `rubric.yaml: at caps.${cap.id}.when`);
    if (!file.criteria.includes(cap.criterion)) throw new RubricError(`rubric.yaml: at caps.${cap.id}.criterion: unknown criterion "${cap.criterion}"`);
  }
  const playbookSteps = new Map(playbooks.map((p) => [p.id, p.steps.length]));
  for (const c of criteria) {
    for (const d of DIMENSIONS) {
      for (const [lv, spec] of Object.entries(c[d])) {
        const where = `criteria/${c.id}.yaml: at ${d}.${lv}`;
        if (spec.when) checkRule(spec.when, `${where}.when`);
        if (spec.otherwise && (lv !== 'L0' || !spec.when)) throw new RubricError(`${where}.otherwise: only an L0 with a when rule has an otherwise (the words for L0 reached without its finding)`);
        if (spec.instead) {
          if (!spec.when) throw new RubricError(`${where}.instead: only a level with a when rule has other words for one of its alternatives`);
          insteadsOf(spec).forEach((i, n) => checkRule(i.when, `${where}.instead${Array.isArray(spec.instead) ? `[${n}]` : ''}.when`));
        }
        if (spec.playbook) {
          const [pid, step] = spec.playbook.split('.');
          const steps = playbookSteps.get(pid!);
          if (steps === undefined || (step !== undefined && Number(step) > steps))
            throw new RubricError(`${where}.playbook: "${spec.playbook}" names no playbook step in playbooks.yaml`);
        }
      }
    }
  }
  for (const p of probes) if (p.within && !probeIds.has(p.within.probe)) throw new RubricError(`probes/${p.id}.yaml: at within.probe: unknown probe "${p.within.probe}"`);
  for (const prop of surface.properties) {
    checkRule(prop.yes, `surface.yaml: at properties.${prop.id}.yes`);
    if (prop.optIn) checkRule(prop.optIn, `surface.yaml: at properties.${prop.id}.optIn`);
  }
  for (const leg of ['A', 'B', 'C'] as const) checkRule(surface.ruleOfTwo[leg].when, `surface.yaml: at ruleOfTwo.${leg}.when`);

  // Optional: the release checklist and the claim matchers (`audit checklist`), cross-checked the same way.
  const checklistPath = join(dir, 'checklist.yaml');
  const checklist = existsSync(checklistPath) ? validate(checklistSchema, readYaml(checklistPath, dir), checklistPath, dir) : undefined;
  const itemIds = new Set<string>();
  for (const [i, item] of (checklist ?? []).entries()) {
    if (itemIds.has(item.id)) throw new RubricError(`checklist.yaml: at ${i}.id: duplicate item id "${item.id}"`);
    itemIds.add(item.id);
    if (!file.criteria.includes(item.criterion)) throw new RubricError(`checklist.yaml: at ${i}.criterion: unknown criterion "${item.criterion}"`);
    if (item.holds) checkRule(item.holds, `checklist.yaml: at ${i}.holds`);
  }
  const claimsPath = join(dir, 'claims.yaml');
  const claims = existsSync(claimsPath) ? validate(claimsSchema, readYaml(claimsPath, dir), claimsPath, dir) : undefined;
  for (const [i, m] of (claims?.matchers ?? []).entries()) {
    const named = { probes: m.probes.flatMap((p) => (typeof p === 'string' ? [p] : p.any)), contradictedBy: m.contradictedBy, bypassedBy: m.bypassedBy };
    for (const [key, ids] of Object.entries(named)) {
      for (const p of ids) if (!probeIds.has(p)) throw new RubricError(`claims.yaml: at matchers.${i}.${key}: unknown probe "${p}" (expected a file probes/${p}.yaml)`);
    }
    if (m.bypassedBy.length && claims?.absolute === undefined) throw new RubricError(`claims.yaml: at matchers.${i}.bypassedBy: applies only to absolute sentences (expected a top-level absolute pattern)`);
  }

  // Every syntax-tree rule must compile for its language: a broken rule is the rubric's error, found here.
  const rules: Array<[string, string, Record<string, unknown>]> = [
    ...probes.flatMap((p) => Object.entries(probeRules(p)).map(([lang, r]) => [`probes/${p.id}.yaml: at rules.${lang}`, lang, r] as [string, string, Record<string, unknown>])),
    ...(model ? modelProbes(model).flatMap((p) => Object.entries(p.rules).map(([lang, r]) => [`model.yaml: at ${p.id.replace(/^@/, '')} (${lang})`, lang, r] as [string, string, Record<string, unknown>])) : []),
  ];
  // All rules of a language compile together when every one is valid (one compile, not one per
  // rule); only a failing language is checked rule by rule, to name the culprit.
  const compiled = new Set<string>();
  for (const lang of new Set(rules.map(([, l]) => l))) {
    const mine = rules.filter(([, l]) => l === lang);
    const { rule, shared } = shareNegations({ rule: { any: mine.map(([, , r]) => r) } });
    // JavaScript parses as TSX: the same rules on the same parser compile the same way.
    const key = JSON.stringify([PARSER[lang as Language], rule]);
    if (compiled.has(key)) continue;
    compiled.add(key);
    const together = ruleError(lang as Language, rule, shared);
    if (!together) continue;
    for (const [where, , rule] of mine) {
      const why = ruleError(lang as Language, rule);
      if (why) throw new RubricError(`${where}: not a valid ast-grep rule: ${why}`);
    }
    throw new RubricError(`the ${lang} rules do not compile together: ${together}`);
  }

  const optional = [model ? modelPath : null, checklist ? checklistPath : null, claims ? claimsPath : null].filter((p): p is string => p !== null);
  const all = [rubricPath, surfacePath, playbooksPath, ...criteria.map((c) => join(dir, 'criteria', `${c.id}.yaml`)), ...probeFiles, ...optional];
  return { dir, file, criteria, probes, surface, playbooks, ...(model ? { model } : {}), ...(checklist ? { checklist } : {}), ...(claims ? { claims } : {}), hash: hashFiles(all, dir) };
}
