import { linkFor, type LinkBase } from '../evaluate/evidence.js';
import type { Checkable } from '../evaluate/verify.js';
import type { AgentReport } from '../report/schema.js';
import type { AgentModel, AgentTool, Gate, Site } from './index.js';
import { CODE_RUNNER, EXTENSION_CALL, STATEMENT } from './kinds.js';

/** Paths kept per tool in the report: the ungated ones first; the rest are counted. */
const MAX_PATHS = 12;
const MAX_SINKS = 300;
const MAX_DISPATCHES = 20;

/** Sink kinds an approval is asked of: what makes a tool's status ungated, gated or isolated. */
export const CONSEQUENTIAL: ReadonlySet<string> = new Set(['exec', 'write', 'net', 'ext', 'remote', 'browse']);

function statusOf(t: AgentTool): AgentReport['tools'][number]['status'] {
  if (t.unresolved) return 'unresolved';
  const consequential = t.paths.filter((p) => CONSEQUENTIAL.has(p.kind));
  if (!consequential.length) return 'no-reach';
  if (consequential.some((p) => !p.gated && !p.isolated)) return 'ungated';
  return consequential.every((p) => p.isolated) ? 'isolated' : 'gated';
}

const ORDER = ['ungated', 'gated', 'isolated', 'no-reach', 'unresolved'];

/**
 * The agent model as the report carries it: every tool with its site, handler, status and paths
 * (each site a link to the pinned lines, re-verified like evidence), the ungated tools first, and
 * the sinks the tools reach. The sites are also returned as checkable evidence.
 */
export function agentReport(model: AgentModel, base: LinkBase, runners: string): { agent: AgentReport; checks: Checkable[]; settle: () => void } {
  const pairs: Array<[Checkable, { verified: boolean }]> = [];
  const site = (s: Site, matcher: string) => {
    const probe = s.check ?? matcher;
    const out = { path: s.path, line: s.line, endLine: s.endLine, text: s.text, link: linkFor(base, s.path, s.line, s.endLine), verified: false };
    pairs.push([{ probe, path: s.path, startLine: s.line, endLine: s.endLine, text: s.text, verified: false }, out]);
    return out;
  };
  // An ask is a match of the model's ask rule; a call of a helper that asks is checked as that call on that line.
  const gate = (g: Gate | null) => (g ? { kind: g.kind, site: site(g.site, g.direct ? '@asks' : '@line'), ...(g.guard ? { guard: g.guard } : {}), showsInput: g.showsInput, ...(g.strict !== undefined ? { strict: g.strict } : {}), ...(g.switchOff ? { switchOff: site(g.switchOff, '@line') } : {}), ...(g.listAt ? { listAt: site(g.listAt, '@line') } : {}) } : null);
  const tools = model.tools
    .map((t) => {
      const paths = [...t.paths].sort((a, b) => Number(a.gated || a.isolated) - Number(b.gated || b.isolated) || a.sink.path.localeCompare(b.sink.path) || a.sink.line - b.sink.line);
      const kept = paths.slice(0, MAX_PATHS);
      return {
        name: t.name,
        construct: t.construct,
        site: site(t.site, t.construct === CODE_RUNNER ? runners : t.construct === EXTENSION_CALL ? '@sink:ext' : `@tool:${t.construct}`),
        handler: t.handler ? { path: t.handler.path, line: t.handler.line, name: t.handler.text, link: linkFor(base, t.handler.path, t.handler.line, t.handler.line) } : null,
        reaches: t.reaches,
        status: statusOf(t),
        gated: t.paths.some((p) => CONSEQUENTIAL.has(p.kind)) && t.paths.filter((p) => CONSEQUENTIAL.has(p.kind)).every((p) => p.gated),
        isolated: t.paths.some((p) => p.kind === 'exec') && t.paths.filter((p) => p.kind === 'exec').every((p) => p.isolated),
        paths: kept.map((p) => ({ kind: p.kind, sink: site(p.sink, t.construct === CODE_RUNNER ? runners : `@sink:${p.statement === undefined ? p.kind : STATEMENT}`), gated: p.gated, isolated: p.isolated, gate: gate(p.gate), ...(p.check ? { check: site(p.check, '@checks') } : {}), via: p.via })),
        morePaths: paths.length - kept.length,
      };
    })
    .sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.site.path.localeCompare(b.site.path) || a.site.line - b.site.line);
  const sinks = new Map<string, { kind: string; site: Site; reachedBy: Set<string> }>();
  for (const t of model.tools) {
    for (const p of t.paths) {
      const key = `${p.sink.path}:${p.sink.line}:${p.kind}`;
      const entry = sinks.get(key) ?? { kind: p.kind, site: p.sink, reachedBy: new Set<string>() };
      entry.reachedBy.add(t.name);
      sinks.set(key, entry);
    }
  }
  const sinkList = [...sinks.values()]
    .sort((a, b) => a.site.path.localeCompare(b.site.path) || a.site.line - b.site.line || a.kind.localeCompare(b.kind))
    .slice(0, MAX_SINKS)
    .map((s) => ({ kind: s.kind, site: site(s.site, s.reachedBy.size && [...s.reachedBy].every((n) => model.tools.find((t) => t.name === n)?.construct === CODE_RUNNER) ? runners : `@sink:${s.kind}`), reachedBy: [...s.reachedBy].sort() }));
  const checks = pairs.map(([c]) => c);
  // After verification, each report site takes its check's outcome.
  const settle = () => {
    for (const [c, out] of pairs) out.verified = c.verified;
  };
  const dispatches = [...model.dispatches]
    .sort((a, b) => a.site.path.localeCompare(b.site.path) || a.site.line - b.site.line)
    .slice(0, MAX_DISPATCHES)
    .map((d) => ({ site: site(d.site, '@line'), record: d.record ? site(d.record, '@line') : null }));
  return { agent: { tools, sinks: sinkList, ambiguousCalls: model.ambiguousCalls, dispatches }, checks, settle };
}
