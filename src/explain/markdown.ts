import { mdCode, mdLink, mdText } from '../render/escape.js';
import { playbookRef } from '../render/rubric.js';
import { unusedNote } from '../render/markdown.js';
import type { Explanation, Step } from './index.js';
import type { LegExplanation } from './leg.js';
import type { ProbeOutcome } from './outcomes.js';
import type { TraceNode } from './rules.js';

const mark = (ok: boolean) => (ok ? '✓' : '✗');

function traceLines(t: TraceNode, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  return [`${pad}- ${mark(t.holds)} ${mdText(t.text)}`, ...t.children.flatMap((c) => traceLines(c, depth + 1))];
}

function reviewerLink(s: string): string {
  return /^https?:\/\/\S+$/i.test(s.trim()) ? mdLink(s.trim(), s.trim()) : mdText(s);
}

/** What was explained and from where: the target, its commit, and the repository or a saved report. */
const targetLine = (x: Pick<Explanation, 'target' | 'from'>) =>
  `**Target:** ${mdText(x.target.name)} · **Commit:** ${x.target.commit ? mdCode(x.target.commit) : 'unpinned working tree'} · **From:** ${x.from === 'repo' ? 'the repository (probes run again)' : "the report's recorded evidence"}`;

/** A reviewer's evidence after their reason, in brackets; nothing when they gave none. */
const reviewerEvidence = (evidence: string[]) => (evidence.length ? ` (${evidence.map(reviewerLink).join('; ')})` : '');

function outcomeLine(o: ProbeOutcome): string {
  const head = `${mdCode(o.id)} ${mdText(o.title)}`;
  if (o.state === 'found') {
    const links = o.findings.map((f) => mdLink(`${f.path}:${f.startLine === f.endLine ? f.startLine : `${f.startLine}-${f.endLine}`}`, f.link)).join('; ');
    const count = o.findingsTotal === null ? 'found' : `found ${o.findingsTotal} ${o.findingsTotal === 1 ? 'match' : 'matches'}`;
    const shown = o.findingsTotal !== null && o.findingsTotal > o.findings.length ? ` (first ${o.findings.length})` : '';
    const meaning = o.meaning === o.title ? '' : ` (${mdText(o.meaning)})`;
    return `- ✓ ${head}: ${count}${meaning}${links ? ` — ${links}${shown}` : ' (the report lists it as found but records no lines of it; run explain on the repository for them)'}`;
  }
  if (o.state === 'empty') {
    const s = o.search;
    const scope = s.scope === null ? 'its files' : s.scope.length === 1 && s.scope[0] === '.' ? 'product code' : s.scope.map(mdCode).join(' ');
    return `- ✗ ${head}: searched ${mdCode(s.command)} in ${scope}${s.filesSearched === null ? '' : ` (${s.filesSearched} files)`} → 0 hits${unusedNote(s.unused)} (${mdText(o.meaning)})`;
  }
  return `- – ${head}: not searched: ${mdText(o.why ?? 'no file to read')} (${mdCode(o.search.command)})`;
}

function needText(n: Step['needs'][number][number]): string {
  return `${n.need}: ${mdText(n.title)} (${mdCode(n.probe)})`;
}

function stepLines(s: Step, title: string): string[] {
  const out = ['', `## ${title}`, '', `**L${s.level}** means: ${mdText(s.means)}.`, ''];
  if (!s.rule) {
    out.push(`L${s.level} has no rule: probes cannot show it, so the tool never gives it; only a reviewer can (score --overrides).`);
  } else {
    out.push(`L${s.level}'s rule fails: ${mdText(s.rule)}`, '', ...traceLines(s.trace!), '');
    if (s.needs.length === 1) out.push(`Evidence that would satisfy it: ${s.needs[0]!.map(needText).join(' and ')}.`);
    else out.push('Evidence that would satisfy it, any one of:', ...s.needs.map((alt, i) => `${i + 1}. ${alt.map(needText).join(' and ')}`));
  }
  const rubric = [s.gap ? mdText(s.gap) : '', s.action ? `Improvement: ${mdText(s.action)}${s.playbook ? ` (${playbookRef(s.playbook)})` : ''}` : ''].filter(Boolean).join(' ');
  if (rubric) out.push('', `The rubric says: ${rubric}`);
  return out;
}

/** The explanation as markdown; everything from the target (paths, text) is escaped. */
export function renderExplanation(x: Explanation): string {
  const L = `L${x.level}`;
  const lines = [
    `# ${x.criterion}.${x.dimension} ${mdText(x.title)}, ${mdText(x.dimensionName)}: ${L}`,
    '',
    targetLine(x),
    '',
  ];
  if (x.reviewer) {
    const ev = reviewerEvidence(x.reviewer.evidence);
    lines.push(`**${L}** (reviewed; tool: L${x.reviewer.automatedLevel}): ${mdText(x.means)}. Reviewer: ${mdText(x.reviewer.reason)}${ev}`);
  } else lines.push(`**${L}** (automated): ${mdText(x.means)}.`);
  for (const n of x.notes) lines.push('', `> ${mdText(n)}`);

  lines.push('', `## Why the tool gives L${x.automated.level}`, '');
  if (!x.automated.byDefault) lines.push(`The highest level whose rule holds is **L${x.automated.level}**: ${mdText(x.automated.rule!)}`, '', ...traceLines(x.automated.trace!));
  else {
    lines.push(`No rule of L1–L4 holds, so the tool gives **L0**, the default: where the evidence is silent, the lower level is taken.`);
    if (x.automated.rule) lines.push('', `L0's own rule describes the default (it does not decide it): ${mdText(x.automated.rule)}`, '', ...traceLines(x.automated.trace!));
  }
  if (x.reviewer) lines.push('', `A reviewer set **${L}** instead; the levels above are counted from ${L}.`);

  if (x.next) {
    lines.push(...stepLines(x.next, `What would raise it to L${x.next.level}`));
    if (x.nextWithRule) lines.push(...stepLines(x.nextWithRule, `The nearest level probes can show: L${x.nextWithRule.level}`));
  } else lines.push('', '## Above', '', 'L4 is the top of the ladder.');

  lines.push('', '## Probes the rules name', '');
  if (x.probes.length) lines.push(...x.probes.map(outcomeLine));
  else lines.push('- None: no level of this ladder that decides here has a rule.');

  if (x.tools) {
    lines.push('', '## Tools that decide it', '');
    if (!x.tools.length) lines.push('- None recognised in the code: the rules read an empty agent model.');
    for (const t of x.tools) {
      const what = t.reaches.length ? t.reaches.join(', ') : 'no command, file write or request traced';
      lines.push(`- **${mdText(t.status)}** ${mdCode(t.name)} (${mdText(t.construct)}) at ${mdLink(`${t.path}:${t.line}`, t.link)}: reaches ${mdText(what)}${t.guard ? `; ask: ${mdText(t.guard)}` : ''}`);
    }
  }

  lines.push('', '## Ladder', '');
  for (const s of x.ladder) {
    const state = s.level === 0 ? `default${s.holds === null ? '' : s.holds ? ', described by ✓' : ', described by ✗'}` : s.holds === null ? 'no rule' : s.holds ? '✓ holds' : '✗ fails';
    lines.push(`- **L${s.level}**${s.level === x.level ? ' ←' : ''} ${mdText(s.means)} — ${state}${s.rule ? `: ${mdText(s.rule)}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** A Rule-of-Two leg's explanation as markdown; everything from the target is escaped. */
export function renderLegExplanation(x: LegExplanation): string {
  const lines = [
    `# Rule of Two [${x.leg}] ${mdText(x.label)}: ${yesNo(x.holds)}`,
    '',
    targetLine(x),
    '',
  ];
  if (x.reviewer) {
    const ev = reviewerEvidence(x.reviewer.evidence);
    lines.push(`**${yesNo(x.holds)}** (reviewed; tool: ${yesNo(x.reviewer.automated)}). Reviewer: ${mdText(x.reviewer.reason)}${ev}`);
  } else lines.push(`**${yesNo(x.holds)}** (automated), read in the default session whether or not each action is asked.`);
  for (const n of x.notes) lines.push('', `> ${mdText(n)}`);
  const s = x.session;
  lines.push('', `Same default session? ${s.same ? 'Yes' : 'No'}: [A] ${yesNo(s.A)} · [B] ${yesNo(s.B)} · [C] ${yesNo(s.C)}.`);

  lines.push('', `## Why the tool says ${yesNo(x.automated.holds)}`, '', `The leg's rule ${x.automated.holds ? 'holds' : 'fails'}: ${mdText(x.automated.rule)}`, '', ...traceLines(x.automated.trace));
  lines.push('', `## What would make it ${yesNo(!x.automated.holds)}`, '');
  if (!x.flip.length) lines.push('- Nothing the probes can show.');
  else if (x.flip.length === 1) lines.push(`${x.flip[0]!.map(needText).join(' and ')}.`);
  else lines.push('Any one of:', ...x.flip.map((alt, i) => `${i + 1}. ${alt.map(needText).join(' and ')}`));

  lines.push('', '## Probes the rule names', '');
  if (x.probes.length) lines.push(...x.probes.map(outcomeLine));
  else lines.push('- None.');
  return `${lines.join('\n')}\n`;
}
