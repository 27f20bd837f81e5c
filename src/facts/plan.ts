import { createHash } from 'node:crypto';
import { LANGUAGES, type Language } from '../rubric/names.js';
import type { ModelSpec, Probe, Rubric } from '../rubric/schema.js';
import { requiredLiterals, requiredWords } from '../probes/prefilter.js';
import { asciiRule } from './asciiRegex.js';
import { orderRule } from './ruleOrder.js';
import { expandCode } from './codeRules.js';

type Rule = Record<string, unknown>;

/**
 * What the per-file extraction needs from the rubric, as plain data: its hash keys the per-file
 * facts cache. Rules are resolved per language here, once.
 */
export interface PlanProbe {
  id: string;
  engine: Probe['engine'];
  languages: Language[];
  files: string[];
  /** Syntax-tree rule per language (ast-grep rules and the expanded `code` shorthand). */
  rules: Partial<Record<Language, Rule>>;
  /** Words one of which a file must contain for the rule to match (null: no prefilter); lower-cased when `wordsCi`. */
  words: Partial<Record<Language, string[] | null>>;
  /** The rule has a case-insensitive regex: compare its words with the lower-cased text. */
  wordsCi?: Partial<Record<Language, boolean>>;
  /** text engine (non-code files): RE2 pattern and its prefilter literals. */
  pattern?: string;
  ignoreCase: boolean;
  literals?: string[] | null;
  /** text engine: the probe counts only in a file where this one matched (`within` at file scope), so it is searched only there. */
  inFileOf?: string;
  /** config engine. */
  select?: string;
  matches?: string;
  /** For a tool construct of the agent model: where its name and handler are read from. */
  tool?: { name: ToolExtractor; handler: ToolExtractor };
}

export type ToolExtractor = ModelSpec['tools'][number]['name'];

export interface Plan {
  /** Identity of everything that decides a file's facts (rubric probes and model catalogue). */
  key: string;
  probes: PlanProbe[];
  /** Whether to record every call (callee name and offset) for the agent model's call graph. */
  calls?: boolean;
}

/** Ids of the agent model's own matchers: never a rubric probe id (those have no '@'). */
export const SINK = '@sink:';
/** A name bound to a sink function: calls of it in the same file are sinks of that kind. */
export const ALIAS = '@alias:';
export const ASKS = '@asks';
export const TOOL = '@tool:';
export const CHECKS = '@checks';

/**
 * Each language's rule as it runs (ASCII regexes, cheap checks first) and, unless only the rules
 * are wanted, the words one of which a file must contain for it to match.
 */
function resolve(ruleOf: (lang: Language) => Rule | undefined, withWords = true): Pick<PlanProbe, 'rules' | 'words' | 'wordsCi'> {
  const rules: PlanProbe['rules'] = {};
  const words: PlanProbe['words'] = {};
  const wordsCi: NonNullable<PlanProbe['wordsCi']> = {};
  for (const lang of CODE_LANGUAGES) {
    const r = ruleOf(lang);
    if (!r) continue;
    rules[lang] = orderRule(asciiRule(r));
    if (!withWords) continue;
    words[lang] = requiredWords(r);
    wordsCi[lang] = JSON.stringify(r).includes('(?i');
  }
  return { rules, words, wordsCi };
}

function planRules(id: string, rules: Partial<Record<Language, Rule>>, extra: Partial<PlanProbe> = {}): PlanProbe {
  const languages = Object.keys(rules) as Language[];
  const resolved = resolve((lang) => rules[lang] ?? (lang === 'tsx' || lang === 'javascript' ? rules.typescript : undefined));
  return { id, engine: 'ast-grep', languages, files: [], ...resolved, ignoreCase: false, ...extra };
}

/** The agent model's matchers (sinks, asks, tool constructs) as probes the extractor runs with the rest. */
export function modelProbes(model: ModelSpec): PlanProbe[] {
  return [
    ...Object.entries(model.sinks).map(([kind, s]) => planRules(`${SINK}${kind}`, s.rules)),
    ...Object.entries(model.sinks).flatMap(([kind, s]) => (s.aliases ? [planRules(`${ALIAS}${kind}`, s.aliases)] : [])),
    planRules(ASKS, model.asks.rules),
    ...(model.checks ? [planRules(CHECKS, model.checks.rules)] : []),
    ...model.tools.map((t) => planRules(`${TOOL}${t.id}`, t.rules, { tool: { name: t.name, handler: t.handler } })),
  ];
}

const CODE_LANGUAGES: Language[] = [...LANGUAGES];

/** A probe's syntax-tree rule for one language: tsx and javascript read the typescript rule. */
function ruleFor(probe: Probe, language: Language): Rule | undefined {
  if (probe.engine === 'code' && probe.code) {
    const reads = probe.languages.includes(language) || ((language === 'tsx' || language === 'javascript') && probe.languages.includes('typescript'));
    return reads ? expandCode(probe.code, language) : undefined;
  }
  const rules = probe.rules ?? {};
  if (rules[language]) return rules[language];
  if (language === 'tsx' || language === 'javascript') return rules['typescript'];
  return undefined;
}

const syntaxTree = (probe: Probe) => probe.engine === 'ast-grep' || probe.engine === 'code';

/** A probe's syntax-tree rules per language, as they run (ASCII regexes, cheap checks first). */
export function probeRules(probe: Probe): PlanProbe['rules'] {
  return syntaxTree(probe) ? resolve((lang) => ruleFor(probe, lang), false).rules : {};
}

export function planProbe(probe: Probe): PlanProbe {
  const { rules, words, wordsCi } = syntaxTree(probe) ? resolve((lang) => ruleFor(probe, lang)) : { rules: {}, words: {}, wordsCi: {} };
  return {
    id: probe.id,
    engine: probe.engine,
    languages: probe.languages,
    files: probe.files,
    rules,
    words,
    wordsCi,
    ignoreCase: probe.ignoreCase,
    ...(probe.pattern !== undefined ? { pattern: probe.pattern, literals: requiredLiterals(probe.pattern, probe.ignoreCase) } : {}),
    ...(probe.engine === 'text' && probe.within?.scope === 'file' ? { inFileOf: probe.within.probe } : {}),
    ...(probe.select !== undefined ? { select: probe.select } : {}),
    ...(probe.matches !== undefined ? { matches: probe.matches } : {}),
  };
}

/** Plans of whole rubrics, by the rubric object: resolving ~135 rules (ASCII regexes, order, required words) costs half a second. */
const plans = new WeakMap<object, Plan | (() => Plan | null)>();

/**
 * Records where a rubric cache stored the rubric's plan: it is read the first time an audit needs
 * it (a report answered from the result cache never does), and resolved afresh if it cannot be.
 */
export function rememberPlan(rubric: object, plan: () => Plan | null): void {
  plans.set(rubric, plan);
}

/** The identity of a plan's facts. */
function planKey(probes: PlanProbe[], calls: boolean): string {
  return createHash('sha256').update(JSON.stringify([probes, calls])).digest('hex');
}

/**
 * Probes in an order where each comes after the probe it is confined to (`inFileOf`), when that
 * one is among them: the text search then knows, file by file, whether the dependent can match.
 */
function dependentsLast(probes: PlanProbe[]): PlanProbe[] {
  const out: PlanProbe[] = [];
  let pending = probes;
  while (pending.length) {
    const waiting = (p: PlanProbe) => !!p.inFileOf && p.inFileOf !== p.id && pending.some((q) => q.id === p.inFileOf);
    const ready = pending.filter((p) => !waiting(p));
    if (!ready.length) return [...out, ...pending]; // a cycle: the rubric check rejects it, so this is never reached
    out.push(...ready);
    pending = pending.filter(waiting);
  }
  return out;
}

export function planOf(rubric: Pick<Rubric, 'probes' | 'model'>, probes: Probe[] = rubric.probes): Plan {
  const whole = probes === rubric.probes;
  const known = whole ? plans.get(rubric) : undefined;
  const stored = typeof known === 'function' ? known() : known;
  if (stored) {
    plans.set(rubric, stored);
    return stored;
  }
  const planned = dependentsLast([...probes.filter((p) => p.engine !== 'ts').map(planProbe), ...(rubric.model ? modelProbes(rubric.model) : [])]);
  const calls = !!rubric.model;
  const plan = { key: planKey(planned, calls), probes: planned, calls };
  if (whole) plans.set(rubric, plan);
  return plan;
}
