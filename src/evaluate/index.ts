import { ruleSubjects } from '../model/facts.js';
import type { Inventory } from '../inventory/index.js';
import type { ProbeResult } from '../probes/types.js';
import type { CriterionResult, Evidence, Report } from '../report/schema.js';
import { DIMENSIONS, type Dimension } from '../rubric/names.js';
import type { Criterion, LevelSpec, Rubric, Rule } from '../rubric/schema.js';
import { insteadsOf } from '../rubric/instead.js';
import { evidenceFor, type LinkBase } from './evidence.js';
import { holds, probesIn, whyFalse, whyTrue, type Reason, type RuleContext } from './rules.js';

type DimensionResult = CriterionResult['dimensions'][Dimension];

const LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;

const evidenceKey = (e: Evidence) => (e.kind === 'lines' ? `${e.probe}@${e.path}:${e.startLine}` : `${e.probe}?`);

function mix(trueEv: Evidence[], falseEv: Evidence[], max = 3): Evidence[] {
  // The same finding can explain both why this level holds and why the next does not: cite it once.
  const seen = new Set(trueEv.map(evidenceKey));
  const extra = falseEv.filter((e) => !seen.has(evidenceKey(e)));
  // Keep room for one piece of negative evidence: why the next level was not reached.
  const head = trueEv.slice(0, extra.length ? max - 1 : max);
  return [...head, ...extra.slice(0, max - head.length)];
}

/**
 * A level's words: the ladder's, or at an L0 reached without its own finding (its rule does not
 * hold), its `otherwise` words, which claim only what the code lacks.
 */
export const levelWords = (spec: LevelSpec, ownRuleHolds: boolean): { means: string; gap?: string } => (!ownRuleHolds && spec.otherwise ? spec.otherwise : spec);

/** The words a chosen level is shown with: `levelWords`', with its `instead` meaning while that rule holds. */
function shownWords(spec: LevelSpec, ownRuleHolds: boolean, ctx: RuleContext): { means: string; gap?: string } {
  const words = levelWords(spec, ownRuleHolds);
  const instead = ownRuleHolds ? insteadsOf(spec).find((i) => holds(i.when, ctx)) : undefined;
  return instead ? { ...words, means: instead.means } : words;
}

/** METHOD §4: the highest level whose rule the evidence supports; silence means the lower level. */
/** The highest level whose rule holds, else L0: a level without a rule is never picked. */
export function pickLevel(criterion: Criterion, d: Dimension, ctx: RuleContext): number {
  for (let l = 4; l >= 1; l--) {
    const when = criterion[d][LEVELS[l]!].when;
    if (when && holds(when, ctx)) return l;
  }
  return 0;
}

export function decideDimension(criterion: Criterion, d: Dimension, ctx: RuleContext, base: LinkBase, rubricDir: string): DimensionResult {
  const ladder = criterion[d];
  const chosen = pickLevel(criterion, d, ctx);
  const spec = ladder[LEVELS[chosen]!];
  const ownRuleHolds = !!spec.when && holds(spec.when, ctx);
  const nextLevel = [1, 2, 3, 4].find((l) => l > chosen && ladder[LEVELS[l]!].when);
  const because: Reason[] = ownRuleHolds ? whyTrue(spec.when!, ctx) : [];
  const notHigher: Reason[] = nextLevel ? whyFalse(ladder[LEVELS[nextLevel]!].when!, ctx) : [];
  const evidence = mix(evidenceFor(because, ctx.results, base, rubricDir), evidenceFor(notHigher, ctx.results, base, rubricDir));
  const words = shownWords(spec, ownRuleHolds, ctx);
  return {
    level: chosen,
    means: words.means,
    next: chosen < 4 ? (words.gap ?? ladder[LEVELS[chosen + 1]!].means) : null,
    decidedBy: ownRuleHolds || evidence.length > 0 ? 'probes' : 'default',
    evidence,
  };
}

export interface Evaluation {
  criteria: Array<Omit<CriterionResult, 'raw' | 'rawNumerator' | 'denominator' | 'score' | 'scoreNumerator'>>;
  surface: Report['surface'];
  ruleOfTwo: Report['ruleOfTwo'];
}


/** Whether one of these probes searched source code in a language the target has (tsx and javascript read as typescript). */
function readCode(ids: string[], results: Map<string, ProbeResult>, inventory: Inventory): boolean {
  const has = (l: string) => (inventory.languages[l as keyof Inventory['languages']] ?? 0) > 0;
  return ids.some((id) => {
    const r = results.get(id);
    return !!r && r.filesSearched > 0 && r.probe.languages.some((l) => has(l) || (l === 'typescript' && (has('tsx') || has('javascript'))));
  });
}

/**
 * METHOD §8. Low when two or more dimensions fell back to the rubric's default, when most of the
 * target is in languages no probe reads, or when none of the probes behind this criterion read any
 * source file (their searches covered only config files, or nothing: an empty search there says
 * nothing about the code). Medium when one dimension defaulted; otherwise High.
 */
export function confidenceOf(dims: Array<Pick<DimensionResult, 'decidedBy'>>, inventory: Pick<Inventory, 'languages' | 'uncovered'>, sawCode: boolean): 'High' | 'Medium' | 'Low' {
  const probed = Object.values(inventory.languages).reduce((a, b) => a + (b ?? 0), 0);
  const uncovered = Object.values(inventory.uncovered).reduce((a, b) => a + b, 0);
  const defaults = dims.filter((x) => x.decidedBy === 'default').length;
  if (defaults >= 2 || uncovered > probed || !sawCode) return 'Low';
  return defaults === 1 ? 'Medium' : 'High';
}

/** Levels, caps, agent surface and the Rule of Two, from probe results and the rubric's rules. */
export function evaluate(rubric: Rubric, results: Map<string, ProbeResult>, inventory: Inventory, base: LinkBase): Evaluation {
  const ctx: RuleContext = { results, conditions: rubric.file.conditions };
  const rubricDir = `rubrics/${rubric.file.id}`;
  const ev = (reasons: Reason[], max = 3) => evidenceFor(reasons, results, base, rubricDir, max);

  const consulted = (c: Criterion) => [
    ...DIMENSIONS.flatMap((d) => LEVELS.flatMap((l) => (c[d][l].when ? probesIn(c[d][l].when!, rubric.file.conditions) : []))),
    ...rubric.file.caps.filter((cap) => cap.criterion === c.id).flatMap((cap) => probesIn(cap.when, rubric.file.conditions)),
  ];
  const criteria = rubric.criteria.map((c) => {
    const dims = Object.fromEntries(DIMENSIONS.map((d) => [d, decideDimension(c, d, ctx, base, rubricDir)])) as Record<Dimension, DimensionResult>;
    const fired = rubric.file.caps.filter((cap) => cap.criterion === c.id && holds(cap.when, ctx));
    const tightest = fired.sort((a, b) => a.value - b.value)[0];
    const mine = ruleSubjects(rubric).filter((p) => p.criteria.includes(c.id));
    const seen = (p: { id: string }) => results.get(p.id)!;
    return {
      id: c.id,
      title: c.title,
      levels: { S: dims.S.level, C: dims.C.level, D: dims.D.level, B: dims.B.level },
      dimensions: dims,
      cap: tightest ? tightest.value : null,
      capReason: tightest ? tightest.explain : null,
      capEvidence: tightest ? ev(whyTrue(tightest.when, ctx)) : [],
      confidence: confidenceOf(Object.values(dims), inventory, readCode(consulted(c), results, inventory)),
      present: mine.filter((p) => seen(p).findings.length > 0).map((p) => p.title),
      missing: mine.filter((p) => seen(p).findings.length === 0 && seen(p).applicable && seen(p).filesSearched > 0).map((p) => p.title),
      evidence: DIMENSIONS.flatMap((d) => dims[d].evidence),
    };
  });

  const surface = rubric.surface.properties.map((prop) => {
    const yes = holds(prop.yes, ctx);
    const optIn = !yes && !!prop.optIn && holds(prop.optIn, ctx);
    const evidence = yes ? ev(whyTrue(prop.yes, ctx), 2) : optIn ? ev(whyTrue(prop.optIn!, ctx), 2) : ev(whyFalse(prop.yes, ctx), 1);
    return { id: prop.id, label: prop.label, value: yes ? ('yes' as const) : optIn ? ('opt-in' as const) : ('no' as const), evidence };
  });

  const leg = (k: 'A' | 'B' | 'C') => {
    const spec = rubric.surface.ruleOfTwo[k];
    const ok = holds(spec.when, ctx);
    return { holds: ok, label: spec.label, evidence: ok ? ev(whyTrue(spec.when, ctx), 2) : ev(whyFalse(spec.when, ctx), 1) };
  };
  const A = leg('A');
  const B = leg('B');
  const C = leg('C');
  return { criteria: criteria.map((c) => ({ ...c, evidence: [...c.evidence, ...c.capEvidence] })), surface, ruleOfTwo: { A, B, C, sameDefaultSession: A.holds && B.holds && C.holds } };
}
