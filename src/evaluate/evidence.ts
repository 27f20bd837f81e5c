import type { ProbeResult } from '../probes/types.js';
import type { Evidence } from '../report/schema.js';
import type { ModelReads, Probe } from '../rubric/schema.js';
import type { Reason } from './rules.js';

export interface LinkBase {
  webUrl: string | null;
  commit: string | null;
}

/** How a cited line range reads in text: path:12 or path:12-18. */
export function lineRef(e: Pick<Extract<Evidence, { kind: 'lines' }>, 'path' | 'startLine' | 'endLine'>): string {
  return `${e.path}:${e.startLine === e.endLine ? e.startLine : `${e.startLine}-${e.endLine}`}`;
}

/** GitHub permalink at the pinned commit, else a repo-relative path#La-Lb. */
export function linkFor(base: LinkBase, path: string, start: number, end: number): string {
  const anchor = start === end ? `#L${start}` : `#L${start}-L${end}`;
  // Encode each segment, but keep characters GitHub shows literally in paths ($threadId.tsx, @scope).
  const encoded = path
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%(24|40|2B|2C|3D|3A)/g, (m) => decodeURIComponent(m)))
    .join('/');
  return base.webUrl && base.commit ? `${base.webUrl}/blob/${base.commit}/${encoded}${anchor}` : `${path}${anchor}`;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** An rg command for a pattern, given after `-e` when it begins with a dash (rg would take it for an option). */
export const rgCommand = (pattern: string, ignoreCase = false): string => `rg -n${ignoreCase ? ' -i' : ''}${pattern.startsWith('-') ? ' -e' : ''} ${shellQuote(pattern)}`;

/** The search a reader can re-run to see the same empty result. */
export function searchCommand(probe: Probe, rubricDir: string): string {
  const file = `${rubricDir}/probes/${probe.id}.yaml`;
  switch (probe.engine) {
    case 'text':
      return rgCommand(probe.pattern!, probe.ignoreCase);
    case 'ast-grep': {
      const entries = Object.entries(probe.rules ?? {});
      const simple = entries.length === 1 && Object.keys(entries[0]![1]).length === 1 && typeof entries[0]![1]['pattern'] === 'string';
      return simple ? `ast-grep run -l ${entries[0]![0]} -p ${shellQuote(entries[0]![1]['pattern'] as string)}` : `syntax-tree search by the rules in ${file}`;
    }
    case 'code': {
      const roles = Object.entries(probe.code ?? {}).map(([role, re]) => `${role} /${re}/`);
      return `syntax-tree search for ${roles.join(', ')} (comments, docstrings and messages excluded; ${file})`;
    }
    case 'config':
      return `keys ${probe.select}${probe.matches ? ` matching /${probe.matches}/` : ''} in ${probe.files.join(' ')}`;
    case 'model':
      return `agent model: ${MODEL_READS[probe.reads ?? 'tool paths']} (${probe.title}) over the call graph of every code file (${rubricDir}/model.yaml)`;
    case 'ts':
      return `type-checked calls to ${probe.calls!.join('|')}${probe.withOption ? ` with ${probe.withOption.join('|')}` : ''} without ${probe.withoutOption!.join('|')} (${file})`;
  }
}

/** What a model fact's empty search went through, by what it reads. */
const MODEL_READS: Record<ModelReads, string> = {
  'tool paths': 'tool paths',
  // A loop fact follows each unconditional loop's calls to a model call.
  loops: 'unconditional loops whose body calls the model',
  dispatches: "the calls that dispatch the model's tool calls",
  sinks: 'every sink',
};

/** Turns the reasons behind a level into at most `max` pieces of evidence, found lines first. */
export function evidenceFor(reasons: Reason[], results: Map<string, ProbeResult>, base: LinkBase, rubricDir: string, max = 3): Evidence[] {
  const seen = new Set<string>();
  const out: Evidence[] = [];
  for (const reason of reasons) {
    if (out.length >= max) break;
    const key = `${reason.probe}:${reason.saw}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const result = results.get(reason.probe);
    if (!result) continue;
    if (reason.saw === 'found') {
      const f = result.findings[0];
      if (!f) continue;
      out.push({ kind: 'lines', probe: f.probe, path: f.path, startLine: f.startLine, endLine: f.endLine, text: f.text, link: linkFor(base, f.path, f.startLine, f.endLine), verified: false, shows: result.probe.found ?? result.probe.title });
    } else {
      // An empty result is evidence only where the probe actually looked.
      if (!result.applicable || result.filesSearched === 0 || result.findings.length > 0) continue;
      const terms = result.terms?.();
      out.push({
        kind: 'search',
        probe: reason.probe,
        command: searchCommand(result.probe, rubricDir),
        scope: result.scope ?? ['.'],
        filesSearched: result.filesSearched,
        ...(result.scope === null && result.folders?.length ? { folders: result.folders } : {}),
        ...(terms ? { terms } : {}),
        hits: 0,
        ...(result.unused ? { unused: result.unused } : {}),
        meaning: result.probe.absent,
        verified: false,
      });
    }
  }
  return out;
}
