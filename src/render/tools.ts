import { HARNESS_PATHS, PASSIVE } from '../model/kinds.js';
import type { AgentReport } from '../report/schema.js';
import { mdCode, mdLink, mdText } from './escape.js';

type Tool = AgentReport['tools'][number];

const REACH: Record<string, string> = { exec: 'runs commands', spawn: 'starts programs', write: 'writes files', 'own-write': 'writes files at paths the code chose', 'own-exec': 'runs commands the code chose', net: 'sends requests', ext: 'calls extension tools', remote: 'changes a remote service', browse: 'drives a browser', read: 'reads files' };
const GATE: Record<string, string> = {
  always: 'asks first',
  list: 'asks only for the tools its list names',
  'safe-list': 'skips the prompt for commands a "safe" check accepts',
  'bypass-switch': 'asks first (a switch can turn it off)',
  'opt-in': 'asks only when a switch that is off by default is on',
  condition: 'asks first unless a condition skips it',
  overwrite: 'asks only before replacing something that exists',
  'switched-off': 'the approval of the coding agent it drives, switched off by the code',
  'driven-agent': "the driven coding agent's own approval (run headless, it asks no one before the tools the code grants it)",
};
/** Rows shown in the scorecard; the JSON report has every tool. */
const MAX_ROWS = 40;
/** Unresolved names shown, with their places, in the one row that lists them. */
const UNRESOLVED_SHOWN = 5;
/** Dispatch sites named under the table. */
const DISPATCHES_SHOWN = 3;

const at = (s: { path: string; line: number; link: string }) => mdLink(`${s.path}:${s.line}`, s.link);

/** Where the code decides whether a gate stands: the switch it sets off, or the list of tools it names. */
function decidedAt(gate: NonNullable<Tool['paths'][number]['gate']>): string {
  if (gate.switchOff) return `; the switch's default is set at ${at(gate.switchOff)}`;
  return gate.listAt ? `; the list is at ${at(gate.listAt)}` : '';
}

function guardOf(t: Tool): string {
  if (t.status === 'unresolved') return 'unknown: its handler, its callers or the calls it makes could not be followed';
  // A tool that only starts fixed programs still shows what guards that.
  if (t.status === 'no-reach' && !t.paths.length) return '—';
  // A program start with fixed argv counts only when it is all the tool reaches (as reachOf shows it).
  // What a gate is asked of: starting a fixed program only where the tool does nothing else; reading never.
  const acting = t.paths.filter((p) => !PASSIVE.has(p.kind));
  const consequential = acting.some((p) => p.kind !== 'spawn') ? acting.filter((p) => p.kind !== 'spawn') : acting;
  const open = consequential.find((p) => !p.gated && !p.isolated);
  const gated = consequential.find((p) => p.gated);
  const isolated = consequential.find((p) => p.isolated);
  const parts: string[] = [];
  if (open) {
    const why = open.gate ? `${mdText(GATE[open.gate.kind]!)}, which does not hold here (${at(open.gate.site)}${decidedAt(open.gate)})` : 'nothing: runs with nobody asked';
    parts.push(`**${mdText(REACH[open.kind] ?? open.kind)} unasked** — ${why}`);
  }
  if (gated?.gate) parts.push(`${mdText(GATE[gated.gate.kind]!)}${gated.gate.showsInput ? ', showing the input' : ''} (${at(gated.gate.site)}${decidedAt(gated.gate)})`);
  if (isolated) parts.push('runs in a sandbox');
  // A check of the input is no gate: it is shown beside what the gate column says, never instead.
  const checked = t.paths.find((p) => p.check);
  if (checked?.check) parts.push(`refuses some inputs first (${at(checked.check)})`);
  return parts.join('; ') || '—';
}

function reachOf(t: Tool): string {
  // A program start is hidden only beside something more consequential (commands, writes,
  // requests): a tool that reads files and starts a program shows both, as guardOf weighs both.
  const acts = t.paths.some((p) => p.kind !== 'spawn' && !PASSIVE.has(p.kind));
  const shown = t.paths.filter((p) => p.kind !== 'spawn' || !acts);
  const first = new Map<string, Tool['paths'][number]>();
  for (const p of shown) if (!first.has(p.kind)) first.set(p.kind, p);
  const list = [...first.values()].map((p) => `${mdText(REACH[p.kind] ?? p.kind)} (${at(p.sink)})`);
  return list.length ? list.join('; ') : 'no command, file write or request traced';
}

/** A tool as the scorecard names it: a path the harness itself sets off (a code runner, an extension call) by the function it is in. */
export const toolLabel = (t: AgentReport['tools'][number]): string => (HARNESS_PATHS.has(t.construct) ? `${mdText(t.construct)} in ${mdCode(t.name)}` : mdCode(t.name));

/**
 * The Tools section: each tool the model is offered (and each code runner), what it can reach and
 * what stands in the way, the ungated ones first, every place a link to the pinned lines.
 */
export function renderTools(agent: AgentReport | undefined): string[] {
  if (!agent) return [];
  if (!agent.tools.length) return ['No tool offered to the model was recognised in the code (see Limitations).'];
  // Names the model could not tie to a handler or a caller (a table of library functions, a dict of
  // data named like a tool table) decide no level: one row names a few, the JSON report has all.
  const known = agent.tools.filter((t) => t.status !== 'unresolved');
  const unknown = agent.tools.filter((t) => t.status === 'unresolved');
  const rows = known.slice(0, MAX_ROWS).map((t) => {
    return `| ${toolLabel(t)} | ${at(t.site)} | ${reachOf(t)} | ${guardOf(t)} |`;
  });
  const more = known.length > MAX_ROWS ? [`| … ${known.length - MAX_ROWS} more (the JSON report lists every tool) | | | |`] : [];
  if (unknown.length) {
    const shown = unknown.slice(0, UNRESOLVED_SHOWN);
    const names = `${shown.map((t) => mdCode(t.name)).join(', ')}${unknown.length > shown.length ? `, … ${unknown.length - shown.length} more` : ''}`;
    more.push(`| ${unknown.length === 1 ? names : `${unknown.length} names: ${names}`} | ${shown.map((t) => at(t.site)).join(', ')} | not traced | unknown: its handler, its callers or the calls it makes could not be followed; decides no level |`);
  }
  const verified = [...agent.tools.flatMap((t) => [t.site, ...t.paths.map((p) => p.sink)])];
  const ok = verified.filter((s) => s.verified).length;
  return ['| Tool | Defined at | Can reach | What stands in the way |', '|---|---|---|---|', ...rows, ...more, '', ...dispatchLine(agent), `${ok} of ${verified.length} cited places re-read and verified.`];
}

/** Where the model's tool calls are dispatched, and whether each is recorded there (C9 coverage). */
function dispatchLine(agent: AgentReport): string[] {
  const all = agent.dispatches ?? [];
  if (!all.length) return [];
  const shown = all.slice(0, DISPATCHES_SHOWN).map((d) => `${at(d.site)} (${d.record ? `each recorded at ${at(d.record)}` : 'not recorded there'})`);
  const more = all.length > shown.length ? `; … ${all.length - shown.length} more` : '';
  return [`Tool calls are dispatched at ${shown.join('; ')}${more}.`, ''];
}
