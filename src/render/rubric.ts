import { ruleSubjects } from '../model/facts.js';
import { DIMENSIONS, type Dimension } from '../rubric/names.js';
import type { Criterion, Rubric, Rule } from '../rubric/schema.js';
import { mdCode, mdText } from './escape.js';

/**
 * The rubric as readable markdown, generated from the rubric data itself, so the documentation of
 * a level, a cap or a playbook is never written by hand a second time.
 */

export const DIMENSION_NAMES: Record<Dimension, string> = { S: 'Strength', C: 'Coverage', D: 'Default & durability', B: 'Blast radius' };
export const LEVEL_KEYS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;

/** A rule in words: "found: sandbox.os AND NOT found: sandbox.fallback-flag" (plain text, not escaped). */
export function ruleText(rule: Rule): string {
  if (typeof rule === 'string') return `found: ${rule}`;
  if ('absent' in rule) return `searched, not found: ${rule.absent}`;
  if ('cond' in rule) return `condition ${rule.cond}`;
  if ('not' in rule) {
    const inner = rule.not;
    return typeof inner === 'string' || 'cond' in inner ? `NOT ${ruleText(inner)}` : `NOT (${ruleText(inner)})`;
  }
  const [items, op] = 'all' in rule ? [rule.all, ' AND '] : [rule.any, ' OR '];
  if (items.length === 1) return ruleText(items[0]!);
  // Parenthesise nested combinations so AND/OR never need a precedence rule to read.
  return items.map((r) => (typeof r === 'object' && ('all' in r || 'any' in r) && ('all' in r ? r.all : r.any).length > 1 ? `(${ruleText(r)})` : ruleText(r))).join(op);
}

/** Every probe and condition a rule names, conditions expanded through the rubric's definitions. */
export function ruleRefs(rule: Rule, conditions: Record<string, Rule>, out = { probes: new Set<string>(), conds: new Set<string>() }) {
  if (typeof rule === 'string') out.probes.add(rule);
  else if ('absent' in rule) out.probes.add(rule.absent);
  else if ('cond' in rule) {
    if (!out.conds.has(rule.cond)) {
      out.conds.add(rule.cond);
      const def = conditions[rule.cond];
      if (def) ruleRefs(def, conditions, out);
    }
  } else if ('not' in rule) ruleRefs(rule.not, conditions, out);
  else for (const r of 'all' in rule ? rule.all : rule.any) ruleRefs(r, conditions, out);
  return out;
}

/** "P3.2" → "Playbook 3 step 2", the wording improvements use. */
export function playbookRef(p: string): string {
  const [id, step] = p.slice(1).split('.');
  return `Playbook ${id}${step ? ` step ${step}` : ''}`;
}

function levelLines(c: Criterion, d: Dimension): string[] {
  const out: string[] = [];
  LEVEL_KEYS.forEach((key, l) => {
    const spec = c[d][key];
    out.push(`- **${key}** ${mdText(spec.means)}`);
    if (l === 0) out.push(`  - Rule: the default, taken when no higher level's rule holds${spec.when ? ` (typically: ${mdText(ruleText(spec.when))})` : ''}`);
    else out.push(`  - Rule: ${spec.when ? mdText(ruleText(spec.when)) : 'none: probes cannot show this level; only a reviewer can set it (score --overrides)'}`);
    if (l < 4 && (spec.gap || spec.action)) {
      const next = [spec.gap ? mdText(spec.gap) : '', spec.action ? `Improvement: ${mdText(spec.action)}${spec.playbook ? ` (${playbookRef(spec.playbook)})` : ''}` : ''].filter(Boolean).join(' ');
      out.push(`  - To reach L${l + 1}: ${next}`);
    }
  });
  return out;
}

/** The ladders, caps, conditions, probes and playbooks of one criterion, or of the whole rubric. */
export function renderRubric(rubric: Rubric, criterionId?: string): string {
  const criteria = criterionId ? rubric.criteria.filter((c) => c.id === criterionId) : rubric.criteria;
  const w = rubric.file.weights;
  const den = 4 * (w.S + w.C + w.D + w.B);
  const refs = { probes: new Set<string>(), conds: new Set<string>() };
  const playbooks = new Set<string>();
  const lines: string[] = [
    `# Rubric ${mdText(rubric.file.id)} ${mdText(rubric.file.version)}: ${mdText(rubric.file.title)}`,
    '',
    `Generated from the rubric data (hash ${mdCode(rubric.hash.slice(0, 12))}).`,
    '',
    `- Each criterion: raw = (${w.S}·S + ${w.C}·C + ${w.D}·D + ${w.B}·B) / ${den}, then capped when a cap fires; the total is the sum of the criteria, out of ${rubric.file.criteria.length}.0.`,
    `- Bands of the unrounded total: ${[...rubric.file.bands].sort((a, b) => a.min - b.min).map((b) => `${mdText(b.name)} from ${b.min}`).join(' · ')}.`,
    "- A dimension takes the highest level whose rule holds, L0 when none does. \"found: x\" holds when probe x matched; \"searched, not found: x\" when x searched a non-empty scope and matched nothing; \"condition n\" is a named rule listed under Conditions.",
  ];

  for (const c of criteria) {
    lines.push('', `## ${c.id} ${mdText(c.title)}`, '', `*${mdText(c.question)}*`);
    for (const d of DIMENSIONS) {
      lines.push('', `### ${c.id} ${d}: ${DIMENSION_NAMES[d]}`, '', ...levelLines(c, d));
      for (const spec of Object.values(c[d])) {
        if (spec.when) ruleRefs(spec.when, rubric.file.conditions, refs);
        if (spec.playbook) playbooks.add(spec.playbook.split('.')[0]!);
      }
    }
    const caps = rubric.file.caps.filter((cap) => cap.criterion === c.id);
    lines.push('', `### ${c.id} caps`, '');
    if (!caps.length) lines.push('- None.');
    for (const cap of caps) {
      ruleRefs(cap.when, rubric.file.conditions, refs);
      lines.push(`- **${cap.value.toFixed(2)}** (${mdCode(cap.id)}) when ${mdText(ruleText(cap.when))}: ${mdText(cap.explain)}`);
    }
  }

  if (!criterionId) {
    lines.push('', '## Agent surface and the Rule of Two', '');
    for (const p of rubric.surface.properties) {
      ruleRefs(p.yes, rubric.file.conditions, refs);
      if (p.optIn) ruleRefs(p.optIn, rubric.file.conditions, refs);
      lines.push(`- **${mdText(p.label)}**: yes when ${mdText(ruleText(p.yes))}${p.optIn ? `; opt-in when ${mdText(ruleText(p.optIn))}` : ''}; else no`);
    }
    for (const k of ['A', 'B', 'C'] as const) {
      const leg = rubric.surface.ruleOfTwo[k];
      ruleRefs(leg.when, rubric.file.conditions, refs);
      lines.push(`- **[${k}] ${mdText(leg.label)}** when ${mdText(ruleText(leg.when))}`);
    }
    for (const p of rubric.playbooks) playbooks.add(p.id);
  }

  if (refs.conds.size) {
    lines.push('', '## Conditions', '');
    for (const name of [...refs.conds].sort()) lines.push(`- ${mdCode(name)}: ${mdText(ruleText(rubric.file.conditions[name]!))}`);
  }

  const probes = ruleSubjects(rubric).filter((p) => refs.probes.has(p.id));
  if (probes.length) {
    lines.push('', '## Probes', '', '| Probe | Finds | Engine | An empty search means |', '|---|---|---|---|');
    for (const p of probes) lines.push(`| ${mdCode(p.id)} | ${mdText(p.title)} | ${p.engine} | ${mdText(p.absent)} |`);
  }

  const shown = rubric.playbooks.filter((p) => playbooks.has(p.id));
  if (shown.length) {
    lines.push('', '## Playbooks');
    for (const p of shown) lines.push('', `### ${p.id} ${mdText(p.title)}`, '', ...p.steps.map((s, i) => `${i + 1}. ${mdText(s)}`));
  }
  return `${lines.join('\n')}\n`;
}
