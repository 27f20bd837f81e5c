import { ruleSubjects } from '../model/facts.js';
import { InputError } from '../acquire/types.js';
import { levelWords, pickLevel } from '../evaluate/index.js';
import { holds, type RuleContext } from '../evaluate/rules.js';
import { DIMENSION_NAMES, LEVEL_KEYS, ruleRefs, ruleText } from '../render/rubric.js';
import type { Report } from '../report/schema.js';
import { DIMENSIONS, type Criterion, type Dimension, type Rubric } from '../rubric/schema.js';
import { contextOf, type ProbeOutcome } from './outcomes.js';
import { needsTrue, traceRule, type Alternatives, type TraceNode } from './rules.js';

export { outcomesFromReport, outcomesFromResults, type ProbeOutcome } from './outcomes.js';

/** A level above the current one: what it means, its rule as it stands, and what would satisfy it. */
export interface Step {
  level: number;
  means: string;
  /** The rule in words, or null when probes cannot show this level. */
  rule: string | null;
  trace: TraceNode | null;
  /** Ways to satisfy the rule: any one of these sets of probe outcomes. */
  needs: Array<Array<{ probe: string; title: string; need: 'found' | 'not found' | 'searched, not found' }>>;
  /** From the rubric, at the level below: what is missing, the improvement and its playbook step. */
  gap: string | null;
  action: string | null;
  playbook: string | null;
}

export interface Explanation {
  /** 'repo': the probes were run again; 'report': reconstructed from a saved report's evidence. */
  from: 'repo' | 'report';
  target: { name: string; repo: string; commit: string | null };
  criterion: string;
  title: string;
  dimension: Dimension;
  dimensionName: string;
  level: number;
  means: string;
  source: 'automated' | 'reviewed';
  reviewer: { reason: string; evidence: string[]; automatedLevel: number } | null;
  /**
   * The tool's own decision: the level its ladder picked and the rule that picked it. At L0 no rule
   * picked it (byDefault); the rule shown then is L0's own description, when it has one.
   */
  automated: { level: number; byDefault: boolean; rule: string | null; trace: TraceNode | null };
  ladder: Array<{ level: number; means: string; rule: string | null; holds: boolean | null }>;
  /** The level just above the final one; null at L4. */
  next: Step | null;
  /** When the next level has no rule: the nearest higher level that does. */
  nextWithRule: Step | null;
  /** Every probe the picked and the next rules name, in the order they are named. */
  probes: ProbeOutcome[];
  /** When the rules read the agent model: the tools it found, ungated first (what decides coverage). */
  tools: Array<{ name: string; construct: string; status: string; reaches: string[]; link: string; path: string; line: number; guard: string | null }> | null;
  notes: string[];
}

/** "C4.S" (or c4.s, C4:S) → criterion and dimension of this rubric. */
export function parseSelector(selector: string, rubric: Rubric): { criterion: string; dimension: Dimension } {
  const m = /^(C\d+)[.:]([SCDB])$/i.exec(selector.trim());
  const criterion = m?.[1]?.toUpperCase();
  if (!m || !criterion || !rubric.file.criteria.includes(criterion))
    throw new InputError(`unknown dimension '${selector}' (expected <criterion>.<dimension>, e.g. C4.S, with a criterion ${rubric.file.criteria[0]}–${rubric.file.criteria.at(-1)} and a dimension ${DIMENSIONS.join(', ')})`);
  return { criterion, dimension: m[2]!.toUpperCase() as Dimension };
}

/** Each probe's title by id, for naming what an explanation needs. */
export const probeTitles = (rubric: Rubric): Map<string, string> => new Map(ruleSubjects(rubric).map((p) => [p.id, p.title]));

/** Sets of probe outcomes that would change a rule's answer, each outcome with its probe's title. */
export const titled = (alternatives: Alternatives, titles: Map<string, string>) => alternatives.map((alt) => alt.map((r) => ({ ...r, title: titles.get(r.probe) ?? r.probe })));

function step(c: Criterion, d: Dimension, level: number, ctx: RuleContext, titles: Map<string, string>): Step {
  const spec = c[d][LEVEL_KEYS[level]!];
  const below = c[d][LEVEL_KEYS[level - 1]!];
  // What is missing from the level below, in the words its own rule's outcome calls for.
  const belowGap = levelWords(below, !below.when || holds(below.when, ctx)).gap;
  return {
    level,
    means: spec.means,
    rule: spec.when ? ruleText(spec.when) : null,
    trace: spec.when ? traceRule(spec.when, ctx) : null,
    needs: spec.when ? titled(needsTrue(spec.when, ctx), titles) : [],
    gap: belowGap ?? null,
    action: below.action ?? null,
    playbook: below.playbook ?? null,
  };
}

export interface ExplainInput {
  report: Report;
  rubric: Rubric;
  outcomes: Map<string, ProbeOutcome>;
  from: 'repo' | 'report';
}

/** What an explanation must say of where it reads from: a saved report's partial evidence, another rubric. */
export function sourceNotes({ report, rubric, from }: ExplainInput): string[] {
  const notes: string[] = [];
  if (from === 'report')
    notes.push('Explained from the report: probe outcomes come from its found / not-found lists and the evidence it records; every finding, the exact search scopes and the file counts need the repository (agent-audit explain <repo> …).');
  if (report.rubric.hash !== rubric.hash)
    notes.push(`The report was scored with rubric ${report.rubric.id} ${report.rubric.version} (hash ${report.rubric.hash.slice(0, 12)}); this explanation uses ${rubric.file.id} ${rubric.file.version} (hash ${rubric.hash.slice(0, 12)}), whose rules may differ.`);
  return notes;
}

/** Why one dimension has its level, and what evidence would raise it. */
export function explain(input: ExplainInput, criterionId: string, d: Dimension): Explanation {
  const { report, rubric, outcomes } = input;
  const c = rubric.criteria.find((x) => x.id === criterionId);
  const result = report.criteria.find((x) => x.id === criterionId);
  if (!c || !result) throw new InputError(`criterion ${criterionId} is not in ${c ? 'the report' : 'the rubric'} (expected one of: ${rubric.file.criteria.join(', ')})`);
  const ctx = contextOf(rubric, outcomes);
  const titles = probeTitles(rubric);
  const dim = result.dimensions[d];
  const reviewed = dim.source === 'reviewed' && !!dim.reviewer;
  const recordedAutomated = reviewed ? dim.reviewer!.automatedLevel : dim.level;

  const autoLevel = pickLevel(c, d, ctx);
  const autoWhen = c[d][LEVEL_KEYS[autoLevel]!].when ?? null;
  const level = dim.level;
  const next = level < 4 ? step(c, d, level + 1, ctx, titles) : null;
  const aboveWithRule = next && !next.rule ? [2, 3, 4].find((l) => l > level + 1 && c[d][LEVEL_KEYS[l]!].when) : undefined;
  const nextWithRule = aboveWithRule !== undefined ? step(c, d, aboveWithRule, ctx, titles) : null;

  const notes = sourceNotes(input);
  if (autoLevel !== recordedAutomated)
    notes.push(`The rules give L${autoLevel} from these probe outcomes, but the report records the tool's level as L${recordedAutomated}${input.from === 'report' ? ': the report does not record every outcome; run explain on the repository' : ''}.`);

  const facts = new Set((rubric.model?.facts ?? []).map((f) => f.id));
  // Probes in the order the rules name them: the picked rule first, then what the next level needs.
  const named: string[] = [];
  for (const rule of [autoWhen, reviewed && level > 0 ? c[d][LEVEL_KEYS[level]!].when : undefined, next && c[d][LEVEL_KEYS[next.level]!].when, nextWithRule && c[d][LEVEL_KEYS[nextWithRule.level]!].when]) {
    if (!rule) continue;
    for (const id of ruleRefs(rule, rubric.file.conditions).probes) if (!named.includes(id)) named.push(id);
  }

  return {
    from: input.from,
    target: { name: report.target.name, repo: report.target.repo, commit: report.target.commit },
    criterion: c.id,
    title: c.title,
    dimension: d,
    dimensionName: DIMENSION_NAMES[d],
    level,
    means: dim.means,
    source: reviewed ? 'reviewed' : 'automated',
    reviewer: reviewed ? dim.reviewer! : null,
    automated: { level: autoLevel, byDefault: autoLevel === 0, rule: autoWhen ? ruleText(autoWhen) : null, trace: autoWhen ? traceRule(autoWhen, ctx) : null },
    ladder: LEVEL_KEYS.map((k, l) => {
      const spec = c[d][k];
      return { level: l, means: spec.means, rule: spec.when ? ruleText(spec.when) : null, holds: spec.when ? holds(spec.when, ctx) : null };
    }),
    next,
    nextWithRule,
    probes: named.map((id) => outcomes.get(id)).filter((o): o is ProbeOutcome => !!o),
    tools: named.some((id) => facts.has(id)) && report.agent ? report.agent.tools.map((t) => ({ name: t.name, construct: t.construct, status: t.status, reaches: t.reaches, link: t.site.link, path: t.site.path, line: t.site.line, guard: t.paths.find((p) => p.gate)?.gate?.kind ?? null })) : null,
    notes,
  };
}
