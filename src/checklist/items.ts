import { evidenceFor, type LinkBase } from '../evaluate/evidence.js';
import { holds, whyFalse, whyTrue, type RuleContext } from '../evaluate/rules.js';
import type { ChecklistItem } from '../rubric/schema.js';
import type { Item } from './schema.js';
import { whereLooked } from '../outcomes/where-looked.js';

/**
 * Decides each checklist item: a `holds` rule is pass or fail with the probe outcomes that decided
 * it (the lines that make it hold, or the empty search and contrary lines that make it fail); a
 * `manual` item stays for a person, with how to check it.
 */
export function checkItems(items: ChecklistItem[], ctx: RuleContext, base: LinkBase, rubricDir: string): Item[] {
  return items.map((item): Item => {
    const common = { id: item.id, criterion: item.criterion, text: item.text };
    if (!item.holds) return { ...common, status: 'manual', evidence: [], how: item.manual ?? null };
    const ok = holds(item.holds, ctx);
    const reasons = whereLooked(ok ? whyTrue(item.holds, ctx) : whyFalse(item.holds, ctx), ctx.results);
    return { ...common, status: ok ? 'pass' : 'fail', evidence: evidenceFor(reasons, ctx.results, base, rubricDir), how: null };
  });
}
