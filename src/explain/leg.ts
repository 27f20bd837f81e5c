import { InputError } from '../acquire/types.js';
import { holds } from '../evaluate/rules.js';
import { ruleRefs, ruleText } from '../render/rubric.js';
import { probeTitles, sourceNotes, titled, type ExplainInput } from './index.js';
import { contextOf, type ProbeOutcome } from './outcomes.js';
import { needsFalse, needsTrue, traceRule, type TraceNode } from './rules.js';

export type Leg = 'A' | 'B' | 'C';
const LEGS: readonly Leg[] = ['A', 'B', 'C'];

/** Why a Rule-of-Two leg holds or not in the default session, and what would change it. */
export interface LegExplanation {
  from: 'repo' | 'report';
  target: { name: string; repo: string; commit: string | null };
  leg: Leg;
  label: string;
  holds: boolean;
  source: 'automated' | 'reviewed';
  reviewer: { reason: string; evidence: string[]; automated: boolean } | null;
  /** What the tool's rule gives from these probe outcomes, and the rule in words with each part marked. */
  automated: { holds: boolean; rule: string; trace: TraceNode };
  /** Sets of probe outcomes, any one of which would turn the tool's answer the other way. */
  flip: Array<Array<{ probe: string; title: string; need: 'found' | 'not found' | 'searched, not found' }>>;
  /** The three legs as the report has them: the session combines all three only when each holds. */
  session: { A: boolean; B: boolean; C: boolean; same: boolean };
  probes: ProbeOutcome[];
  notes: string[];
}

/** "R2.A" (or r2.a, R2:A): a Rule-of-Two leg; null for anything else (a dimension selector). */
export function parseLeg(selector: string): Leg | null {
  const m = /^R2[.:]([A-Z])$/i.exec(selector.trim());
  if (!m) return null;
  const leg = m[1]!.toUpperCase();
  if (!(LEGS as readonly string[]).includes(leg)) throw new InputError(`unknown Rule-of-Two leg '${selector}' (expected R2.A, R2.B or R2.C)`);
  return leg as Leg;
}

export function explainLeg(input: ExplainInput, leg: Leg): LegExplanation {
  const { report, rubric, outcomes } = input;
  const spec = rubric.surface.ruleOfTwo[leg];
  const recorded = report.ruleOfTwo[leg];
  const ctx = contextOf(rubric, outcomes);
  const auto = holds(spec.when, ctx);
  const recordedAutomated = recorded.reviewer ? recorded.reviewer.automated : recorded.holds;
  const notes = sourceNotes(input);
  if (auto !== recordedAutomated)
    notes.push(`The rule gives ${auto ? 'yes' : 'no'} from these probe outcomes, but the report records the tool's answer as ${recordedAutomated ? 'yes' : 'no'}${input.from === 'report' ? ': the report does not record every outcome; run explain on the repository' : ''}.`);
  const named = [...ruleRefs(spec.when, rubric.file.conditions).probes];
  return {
    from: input.from,
    target: { name: report.target.name, repo: report.target.repo, commit: report.target.commit },
    leg,
    label: recorded.label,
    holds: recorded.holds,
    source: recorded.reviewer ? 'reviewed' : 'automated',
    reviewer: recorded.reviewer ?? null,
    automated: { holds: auto, rule: ruleText(spec.when), trace: traceRule(spec.when, ctx) },
    flip: titled(auto ? needsFalse(spec.when, ctx) : needsTrue(spec.when, ctx), probeTitles(rubric)),
    session: { A: report.ruleOfTwo.A.holds, B: report.ruleOfTwo.B.holds, C: report.ruleOfTwo.C.holds, same: report.ruleOfTwo.sameDefaultSession },
    probes: named.map((id) => outcomes.get(id)).filter((o): o is ProbeOutcome => !!o),
    notes,
  };
}
