import type { ProbeResult } from '../probes/types.js';
import type { Rule } from '../rubric/schema.js';

/** One probe's part in why a rule held or failed: it found something, or it searched and found nothing. */
export interface Reason {
  probe: string;
  saw: 'found' | 'empty';
}

export interface RuleContext {
  results: Map<string, ProbeResult>;
  conditions: Record<string, Rule>;
}

const found = (ctx: RuleContext, id: string) => (ctx.results.get(id)?.findings.length ?? 0) > 0;
const searchedEmpty = (ctx: RuleContext, id: string) => {
  const r = ctx.results.get(id);
  return !!r && r.applicable && r.filesSearched > 0 && r.findings.length === 0;
};

export function holds(rule: Rule, ctx: RuleContext): boolean {
  if (typeof rule === 'string') return found(ctx, rule);
  if ('all' in rule) return rule.all.every((r) => holds(r, ctx));
  if ('any' in rule) return rule.any.some((r) => holds(r, ctx));
  if ('not' in rule) return !holds(rule.not, ctx);
  if ('absent' in rule) return searchedEmpty(ctx, rule.absent);
  return holds(ctx.conditions[rule.cond]!, ctx);
}

/** The probe outcomes that make a true rule true (the evidence for a level). */
export function whyTrue(rule: Rule, ctx: RuleContext): Reason[] {
  if (typeof rule === 'string') return [{ probe: rule, saw: 'found' }];
  if ('all' in rule) return rule.all.flatMap((r) => whyTrue(r, ctx));
  if ('any' in rule) {
    const first = rule.any.find((r) => holds(r, ctx));
    return first ? whyTrue(first, ctx) : [];
  }
  if ('not' in rule) return whyFalse(rule.not, ctx);
  if ('absent' in rule) return [{ probe: rule.absent, saw: 'empty' }];
  return whyTrue(ctx.conditions[rule.cond]!, ctx);
}

/** The probe outcomes that make a false rule false (why the next level was not reached). */
export function whyFalse(rule: Rule, ctx: RuleContext): Reason[] {
  if (typeof rule === 'string') return [{ probe: rule, saw: 'empty' }];
  if ('all' in rule) return rule.all.filter((r) => !holds(r, ctx)).flatMap((r) => whyFalse(r, ctx));
  if ('any' in rule) return rule.any.flatMap((r) => whyFalse(r, ctx));
  if ('not' in rule) return whyTrue(rule.not, ctx);
  if ('absent' in rule) return found(ctx, rule.absent) ? [{ probe: rule.absent, saw: 'found' }] : [];
  return whyFalse(ctx.conditions[rule.cond]!, ctx);
}

/** Probes by rule: a rubric's rules are read by every audit a process runs with it (they are frozen, never edited). */
const consults = new WeakMap<object, readonly string[]>();

/** Every probe a rule consults, named conditions expanded. */
export function probesIn(rule: Rule, conditions: Record<string, Rule>): readonly string[] {
  if (typeof rule === 'string') return [rule];
  let known = consults.get(rule);
  if (!known) consults.set(rule, (known = Object.freeze(expand(rule, conditions))));
  return known;
}

function expand(rule: Exclude<Rule, string>, conditions: Record<string, Rule>): string[] {
  if ('all' in rule) return rule.all.flatMap((r) => probesIn(r, conditions));
  if ('any' in rule) return rule.any.flatMap((r) => probesIn(r, conditions));
  if ('not' in rule) return [...probesIn(rule.not, conditions)];
  if ('absent' in rule) return [rule.absent];
  return [...probesIn(conditions[rule.cond]!, conditions)];
}
