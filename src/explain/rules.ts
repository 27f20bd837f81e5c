import { holds, type RuleContext } from '../evaluate/rules.js';
import { ruleText } from '../render/rubric.js';
import type { Rule } from '../rubric/schema.js';

/** A rule with each part marked as holding or not, conditions expanded. */
export interface TraceNode {
  text: string;
  holds: boolean;
  children: TraceNode[];
}

export function traceRule(rule: Rule, ctx: RuleContext): TraceNode {
  const ok = holds(rule, ctx);
  if (typeof rule === 'string' || 'absent' in rule) return { text: ruleText(rule), holds: ok, children: [] };
  if ('cond' in rule) return { text: ruleText(rule), holds: ok, children: [traceRule(ctx.conditions[rule.cond]!, ctx)] };
  if ('not' in rule) {
    const inner = rule.not;
    if (typeof inner === 'string' || 'absent' in inner) return { text: ruleText(rule), holds: ok, children: [] };
    return { text: 'NOT', holds: ok, children: [traceRule(inner, ctx)] };
  }
  const items = 'all' in rule ? rule.all : rule.any;
  if (items.length === 1) return traceRule(items[0]!, ctx);
  return { text: 'all' in rule ? 'all of' : 'any of', holds: ok, children: items.map((r) => traceRule(r, ctx)) };
}

/** One probe outcome a rule needs and does not have. */
export interface Requirement {
  probe: string;
  need: 'found' | 'not found' | 'searched, not found';
}
/** Ways to make a rule hold: any one alternative, each a set of requirements that must all be met. */
export type Alternatives = Requirement[][];

const MAX_ALTERNATIVES = 6;
const key = (r: Requirement) => `${r.probe}\u0000${r.need}`;

function tidy(alts: Alternatives): Alternatives {
  const clean = alts
    .map((alt) => [...new Map(alt.map((r) => [key(r), r])).values()].sort((a, b) => key(a).localeCompare(key(b))))
    // A probe cannot be both found and not found.
    .filter((alt) => !alt.some((r) => r.need === 'found' && alt.some((o) => o.probe === r.probe && o.need !== 'found')));
  const minimal = clean.filter((a, i) => !clean.some((b, j) => j !== i && b.length <= a.length && b.every((r) => a.some((x) => key(x) === key(r))) && (b.length < a.length || j < i)));
  return minimal.sort((a, b) => a.length - b.length).slice(0, MAX_ALTERNATIVES);
}

function product(parts: Alternatives[]): Alternatives {
  let acc: Alternatives = [[]];
  for (const p of parts) acc = tidy(acc.flatMap((a) => p.map((b) => [...a, ...b])));
  return acc;
}

/** What would have to change in the probe outcomes for the rule to hold ([[]] when it already does). */
export function needsTrue(rule: Rule, ctx: RuleContext): Alternatives {
  if (holds(rule, ctx)) return [[]];
  if (typeof rule === 'string') return [[{ probe: rule, need: 'found' }]];
  if ('absent' in rule) return [[{ probe: rule.absent, need: 'searched, not found' }]];
  if ('cond' in rule) return needsTrue(ctx.conditions[rule.cond]!, ctx);
  if ('not' in rule) return needsFalse(rule.not, ctx);
  if ('all' in rule) return product(rule.all.map((r) => needsTrue(r, ctx)));
  return tidy(rule.any.flatMap((r) => needsTrue(r, ctx)));
}

export function needsFalse(rule: Rule, ctx: RuleContext): Alternatives {
  if (!holds(rule, ctx)) return [[]];
  if (typeof rule === 'string') return [[{ probe: rule, need: 'not found' }]];
  // "searched, not found" holds: only a finding makes it false.
  if ('absent' in rule) return [[{ probe: rule.absent, need: 'found' }]];
  if ('cond' in rule) return needsFalse(ctx.conditions[rule.cond]!, ctx);
  if ('not' in rule) return needsTrue(rule.not, ctx);
  if ('all' in rule) return tidy(rule.all.flatMap((r) => needsFalse(r, ctx)));
  return product(rule.any.map((r) => needsFalse(r, ctx)));
}
