import { HARNESS_PATHS } from '../model/kinds.js';
import { CONSEQUENTIAL } from '../model/report.js';
import type { AgentReport, Report } from '../report/schema.js';
import { showScore } from '../score/arithmetic.js';
import { mdCode, mdLink, mdText } from './escape.js';
import { toolLabel } from './tools.js';

/**
 * The scorecard's prose, written from the report's facts only: the agent model (tools, what they
 * reach, what guards them), the levels and their evidence, the caps and the Rule of Two. Every
 * sentence that states a fact about the code carries a link to the lines that show it, and no
 * sentence says more than those facts, so the prose cannot contradict the tables it introduces.
 */

type Tool = AgentReport['tools'][number];
type Criterion = Report['criteria'][number];

const REACH: Record<string, string> = { exec: 'runs commands', write: 'writes files', net: 'sends network requests', ext: 'calls extension tools', remote: 'changes a remote service' };
const at = (s: { path: string; line: number; link: string }) => mdLink(`${s.path}:${s.line}`, s.link);
// Tools as the Tools table names them (a harness path by the function it sits in), or by `label`.
// Units of one name (the same adapter method in each adapter's file) are named once.
const distinct = (tools: Tool[], label: (t: Tool) => string = toolLabel) => [...new Set(tools.map(label))];
const names = (tools: Tool[], max = 4, label: (t: Tool) => string = toolLabel) => {
  const all = distinct(tools, label);
  const shown = all.slice(0, max);
  const rest = all.length - shown.length;
  const list = shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : list;
};
/** Whether `names` names one tool: the verb that follows agrees with it. */
const one = (tools: Tool[]) => distinct(tools).length === 1;
const plain = (t: Tool) => mdCode(t.name);
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// The paths the tool status is read from (model/report.ts), so the prose and the Tools table agree.
const consequential = (t: Tool) => t.paths.filter((p) => CONSEQUENTIAL.has(p.kind));

function opening(r: Report, tools: Tool[], runners: Tool[], writers: Tool[]): string {
  const name = mdText(r.target.name);
  const offered = tools.filter((t) => t.status !== 'unresolved');
  if (!offered.length && !runners.length && !writers.length) return `${name} offers the model no tool the code shows: what the model writes comes back as text.`;
  const parts: string[] = [];
  if (offered.length) parts.push(`offers the model ${offered.length === 1 ? 'one tool' : `${offered.length} tools`} (${names(offered)})`);
  if (runners.length) parts.push(`runs code the model writes through ${names(runners, 2, plain)} (${at(runners[0]!.site)})`);
  if (writers.length) parts.push(`writes files at paths the model names through ${names(writers, 2, plain)} (${at(writers[0]!.site)})`);
  return `${name} ${parts.join(' and ')}.`;
}

/** An unasked path past an ask that does not hold for it (a "safe" check, a list that leaves the tool out): the tool the approval was built for, and the summary's example where there is one. */
const pastAnAsk = (p: Tool['paths'][number]) => !p.gated && !p.isolated && p.gate !== null;

/** Why an ask a path has does not hold for it, by the ask's kind. */
const UNHELD: Record<string, string> = {
  'safe-list': ', past a "safe command" check that lets chained commands through',
  list: ', because the list of tools that need approval leaves it out',
  'opt-in': ', because the approval it has is off by default',
  overwrite: ', because it asks only before replacing something that exists',
  'switched-off': ', because the code switches off the approvals of the coding agent it drives',
  'driven-agent': ', because the coding agent it drives runs headless, where its approvals ask no one',
};

function approvals(tools: Tool[]): string | null {
  const acting = tools.filter((t) => t.status !== 'unresolved' && consequential(t).length);
  if (!acting.length) return null;
  const open = acting.filter((t) => consequential(t).some((p) => !p.gated && !p.isolated));
  const asked = acting.filter((t) => consequential(t).some((p) => p.gated));
  const out: string[] = [];
  if (open.length) {
    // The example is a path past an ask where there is one, else the first: a command a tool sets off
    // deep in its calls (a configured login command) says less than the shell past its safe check.
    const pairs = open.flatMap((t) => consequential(t).filter((p) => !p.gated && !p.isolated).map((p) => [t, p] as const));
    const [first, path] = pairs.find(([, p]) => pastAnAsk(p)) ?? pairs[0]!;
    const why = UNHELD[path.gate?.kind ?? ''] ?? '';
    out.push(`${sentence(names(open))} ${one(open) ? 'acts' : 'act'} with nobody asked: ${toolLabel(first)} ${REACH[path.kind]}${why} (${at(path.sink)}).`);
  }
  if (asked.length) {
    // Named, not "the others": a tool that reaches nothing consequential neither asks nor acts.
    const askedOnly = asked.filter((t) => !open.includes(t));
    const shown = askedOnly.length ? askedOnly : asked;
    const gate = consequential(shown[0]!).find((p) => p.gated)!.gate!;
    const verb = one(shown) ? 'asks' : 'ask';
    const who = !open.length ? (acting.length === 1 ? 'It asks first' : 'Every one of them asks first') : `${names(shown)} ${verb} first${askedOnly.length ? '' : ' on some paths'}`;
    out.push(`${sentence(who)}${gate.showsInput ? ', showing the exact command or input' : ''} (${at(gate.site)}).`);
  }
  return out.join(' ');
}

function isolation(tools: Tool[]): string | null {
  const exec = tools.filter((t) => t.status !== 'unresolved').flatMap((t) => t.paths.filter((p) => p.kind === 'exec').map((p) => ({ t, p })));
  if (!exec.length) return null;
  // The example: a command past an ask that does not hold, else the one fewest calls below its tool
  // (a shell tool's own command says more than a browser launcher eight calls down).
  const host = exec.find((e) => pastAnAsk(e.p)) ?? exec.filter((e) => !e.p.isolated).sort((a, b) => a.p.via.length - b.p.via.length)[0];
  const boxed = exec.find((e) => e.p.isolated);
  if (host && !boxed) return `Commands run on the host as the user, with the user's files, network and environment (${at(host.p.sink)}).`;
  if (host && boxed) return `Some commands run in a sandbox (${at(boxed.p.sink)}), but ${toolLabel(host.t)} runs them on the host (${at(host.p.sink)}).`;
  return `Commands run inside a sandbox (${at(boxed!.p.sink)}).`;
}

function ruleOfTwo(r: Report, tools: Tool[]): string {
  const two = r.ruleOfTwo;
  // Where every acting path asks, injected text can only propose the action: a person approves it first.
  const paths = tools.filter((t) => t.status !== 'unresolved').flatMap(consequential);
  const allAsked = paths.length > 0 && paths.every((p) => p.gated);
  if (two.sameDefaultSession) return `One default session combines ${mdText(two.A.label)}, ${mdText(two.B.label)} and ${mdText(two.C.label)}, so text injected into what the agent reads can ${allAsked ? 'propose an action that changes state or sends data out, which a person approves first' : 'drive an action that changes state or sends data out'}.`;
  const missing = (['A', 'B', 'C'] as const).filter((k) => !two[k].holds).map((k) => mdText(two[k].label));
  return `The default session lacks ${missing.join(' and ')}, so the Rule of Two holds by default.`;
}

function strengths(r: Report): string {
  const best = [...r.criteria].sort((a, b) => b.scoreNumerator - a.scoreNumerator || Number(a.id.slice(1)) - Number(b.id.slice(1)))[0]!;
  const worst = [...r.criteria].sort((a, b) => a.scoreNumerator - b.scoreNumerator || Number(a.id.slice(1)) - Number(b.id.slice(1)))[0]!;
  const caps = r.criteria.filter((c) => c.cap !== null).map((c) => c.id);
  const capText = caps.length ? ` ${caps.length === 1 ? 'A cap fires on' : 'Caps fire on'} ${caps.join(', ')}.` : '';
  return `Its strongest criterion is ${best.id} ${mdText(best.title)} (${showScore(best.scoreNumerator, best.denominator)}: ${mdText(best.dimensions.S.means)}); the weakest is ${worst.id} ${mdText(worst.title)} (${showScore(worst.scoreNumerator, worst.denominator)}).${capText}`;
}

/** The summary under the score table: what the agent is given, what runs unasked, where it runs, the worst chain, what is strong. */
export function summaryParagraph(r: Report): string {
  const tools = r.agent?.tools.filter((t) => !HARNESS_PATHS.has(t.construct)) ?? [];
  const runners = r.agent?.tools.filter((t) => t.construct === 'code runner' && t.status !== 'unresolved') ?? [];
  const all = r.agent?.tools ?? [];
  const writers = r.agent?.tools.filter((t) => t.construct === 'file writer') ?? [];
  return [opening(r, tools, runners, writers), approvals(all), isolation(all), ruleOfTwo(r, all), strengths(r)].filter((s): s is string => !!s).join(' ');
}

/** The first line-evidence of a dimension, as a citation. */
function cite(c: Criterion, d: 'S' | 'C' | 'D' | 'B'): string {
  const e = c.dimensions[d].evidence.find((x) => x.kind === 'lines');
  return e && e.kind === 'lines' ? ` (${mdLink(`${e.path}:${e.startLine}`, e.link)})` : '';
}

/**
 * A criterion's paragraph: what the mechanism is and how far it reaches, whether it is on by
 * default, what is at stake if it fails, each in the words of the level the evidence supports, and
 * the cap when one fires. For approval and isolation, the tools that decide them.
 */
export function criterionParagraph(c: Criterion, agent: AgentReport | undefined): string {
  const dims = c.dimensions;
  const parts = [
    `${sentence(mdText(dims.S.means))}${cite(c, 'S')}.`,
    `Coverage: ${mdText(dims.C.means)}${cite(c, 'C')}.`,
    `By default: ${mdText(dims.D.means)}${cite(c, 'D')}.`,
    `If it fails: ${mdText(dims.B.means)}${cite(c, 'B')}.`,
  ];
  const tools = agent?.tools.filter((t) => t.status !== 'unresolved') ?? [];
  if (c.id === 'C2') {
    const acting = tools.filter((t) => consequential(t).length);
    const open = acting.filter((t) => t.status === 'ungated');
    if (acting.length) parts.splice(1, 0, open.length ? `Of the ${acting.length} tools that act, ${names(open)} ${one(open) ? 'runs' : 'run'} with nobody asked.` : `All ${acting.length} tools that act wait for an approval or run in a sandbox.`);
  }
  if (c.id === 'C4') {
    const exec = tools.filter((t) => t.reaches.includes('exec'));
    const host = exec.filter((t) => t.paths.some((p) => p.kind === 'exec' && !p.isolated));
    if (exec.length) parts.splice(1, 0, host.length ? `${sentence(names(host))} ${one(host) ? 'runs' : 'run'} commands on the host.` : `Every tool that runs commands runs them in a sandbox.`);
  }
  if (c.cap !== null && c.capReason) parts.push(`The cap of ${c.cap.toFixed(2)} fires: ${mdText(c.capReason)}.`);
  return parts.join(' ');
}
