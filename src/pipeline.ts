import { acquire, defaultCacheDir } from './acquire/index.js';
import { InputError, type Snapshot } from './acquire/types.js';
import { FIRST_AUDIT, type AuditOptions } from './audit.js';
import { TOOL } from './tool.js';
import { toolBuild } from './cache/build.js';
import { loadRubricCached } from './cache/rubric.js';
import { diffReports } from './diff/compare.js';
import { reauditLog } from './diff/log.js';
import { evaluate } from './evaluate/index.js';
import { verifyEvidence } from './evaluate/verify.js';
import { buildInventory, DEFAULT_LIMITS, limitNotes, type Inventory, type Limits } from './inventory/index.js';
import { readTargetClaims, targetText, type TargetText } from './inventory/metadata.js';
import type { AgentModel } from './model/index.js';
import { modelNotes } from './model/notes.js';
import { agentReport } from './model/report.js';
import { applyOverrides, reviewNotes } from './overrides/apply.js';
import type { Overrides } from './overrides/schema.js';
import { runProbes } from './probes/index.js';
import type { ProbeResult } from './probes/types.js';
import type { Report } from './report/schema.js';
import type { Rubric } from './rubric/schema.js';
import { score } from './score/index.js';

function limitationsOf(snapshot: Snapshot, inventory: Inventory, report: Pick<Report, 'criteria'>, limits: Limits): string[] {
  const out = ['Static source review of the pinned commit only; nothing was executed, installed, or probed.'];
  if (snapshot.kind === 'folder') out.push('Scored a plain folder, not a git commit: the result is not pinned and evidence links are repo-relative paths.');
  if (snapshot.dirtyFiles > 0) out.push(`The local working tree differs from HEAD in ${snapshot.dirtyFiles} tracked files; HEAD was scored, not the working tree.`);
  const langs = Object.entries(inventory.languages).map(([l, n]) => `${n} ${l}`).join(', ');
  out.push(`Probed ${inventory.files.length} product files (${langs || 'no source in a probed language'}) out of ${inventory.totalEntries} entries in the tree.`);
  const excluded = Object.entries(inventory.excluded).map(([why, v]) => `${v.count} ${why}`).join(', ');
  if (excluded) out.push(`Left out of probing, so never deciding a level: ${excluded}.`);
  out.push(...limitNotes(snapshot, inventory, limits));
  const uncovered = Object.entries(inventory.uncovered).map(([l, n]) => `${n} ${l}`).join(', ');
  if (uncovered) out.push(`Files in languages no probe reads: ${uncovered}.`);
  const defaults = report.criteria.flatMap((c) => (['S', 'C', 'D', 'B'] as const).filter((d) => c.dimensions[d].decidedBy === 'default' && c.dimensions[d].source !== 'reviewed').map((d) => `${c.id} ${d}`));
  if (defaults.length) out.push(`Decided by the rubric's default because no relevant code was found: ${defaults.join(', ')} (confidence lowered).`);
  out.push('Probes are static patterns: a control written in a form they do not recognise is scored as absent, and the searches printed as negative evidence say exactly what was looked for. A search printed as `rg` comes back empty on the probed files in the folders it names; a file left out of probing there (a test, a doc) may still hold its terms.');
  return out;
}

/** Python modules that no product file names, that are no entry point and whose top level only declares. */
function unimportedNote(paths: string[]): string[] {
  if (!paths.length) return [];
  const shown = paths.slice(0, 3).join(', ');
  return [`Not counted, as no product code imports or runs them: ${paths.length} Python module${paths.length === 1 ? '' : 's'} (${shown}${paths.length > 3 ? ', …' : ''}).`];
}

/**
 * The pipeline, also returning what `explain` and `checklist` need: every probe's result, the
 * rubric, and the snapshot and inventory the probes read (to read and verify more from the same tree).
 */
export async function auditDetailed(
  target: string,
  opts: AuditOptions,
  given: { snapshot?: Snapshot; rubric?: Rubric; overrides?: Overrides } = {},
): Promise<{ report: Report; results: Map<string, ProbeResult>; model: AgentModel | null; rubric: Rubric; snapshot: Snapshot; inventory: Inventory }> {
  const rubric: Rubric = given.rubric ?? (await loadRubricCached(opts.rubricDir, opts.cacheDir));
  // Read before anything is fetched, so a malformed overrides file fails fast.
  // Its parser (zod, yaml: 0.1 s to load) is loaded only when there is a file to read.
  const overrides = given.overrides ?? (opts.overrides === undefined ? undefined : (await import('./overrides/load.js')).loadOverrides(opts.overrides, rubric));
  const started = performance.now();
  const say = (line: string) => opts.progress?.(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);
  say(`acquire ${target}`);
  const snapshot = given.snapshot ?? (await acquire(target, opts));
  const limits = opts.limits ?? DEFAULT_LIMITS;
  say(`inventory: ${snapshot.entries.length} entries at ${snapshot.commit ?? 'an unpinned folder'}`);
  const inventory = await buildInventory(snapshot, limits);
  say(`probes: ${rubric.probes.length} probes over ${inventory.files.length} files (${(inventory.bytesRead / 1e6).toFixed(1)} MB)`);
  const probing = performance.now();
  const cacheDir = opts.factsCache === false ? null : (opts.cacheDir ?? defaultCacheDir());
  const factsCache = cacheDir ? { cache: { dir: cacheDir, build: toolBuild() } } : {};
  const { results, collected, model, unimported } = await runProbes(rubric, inventory.files, factsCache);
  say(`probes done: ${collected.extracted} files read, ${collected.cached} from the facts cache, ${Math.round(inventory.files.length / Math.max(0.001, (performance.now() - probing) / 1000))} files/s; evaluating and verifying evidence`);
  if (model && !opts.force && model.modelCalls.length === 0 && model.tools.length === 0) {
    throw new InputError(`${snapshot.input} shows no sign of an agent harness: no call to a language model and no tool offered to one in ${inventory.files.filter((f) => f.language).length} code files (score it anyway with --force)`);
  }
  const base = { webUrl: snapshot.webUrl, commit: snapshot.commit };
  const evaluation = applyOverrides(rubric, evaluate(rubric, results, inventory, base), overrides);
  const scored = score(rubric, evaluation);

  const allEvidence = [
    ...scored.criteria.flatMap((c) => c.evidence),
    ...evaluation.surface.flatMap((s) => s.evidence),
    ...(['A', 'B', 'C'] as const).flatMap((k) => evaluation.ruleOfTwo[k].evidence),
  ];
  const agent = model ? agentReport(model, base, rubric.model?.runners ?? '@none') : null;
  await verifyEvidence([...allEvidence, ...(agent?.checks ?? [])], snapshot, rubric, inventory.files, limits.maxFileBytes, factsCache);
  agent?.settle();

  const claims = await readTargetClaims(snapshot);
  const flags: Partial<TargetText> = { name: opts.name, whatItIs: opts.whatItIs, category: opts.category, scoredConfiguration: opts.scoredConfiguration, surfacesScored: opts.surfacesScored };
  const explicit = { ...overrides?.text, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) };
  const text = await targetText(snapshot, explicit, claims);
  const report: Report = {
    tool: TOOL,
    rubric: { id: rubric.file.id, version: rubric.file.version, hash: rubric.hash },
    target: {
      repo: snapshot.webUrl ?? text.name,
      name: text.name,
      webUrl: snapshot.webUrl,
      commit: snapshot.commit,
      kind: snapshot.kind,
      dirtyFiles: snapshot.dirtyFiles,
      whatItIs: text.whatItIs,
      category: text.category,
      scoredConfiguration: text.scoredConfiguration,
      ...(text.surfacesScored.length ? { surfacesScored: text.surfacesScored } : {}),
    },
    criteria: scored.criteria,
    total: scored.total,
    totalNumerator: scored.totalNumerator,
    band: scored.band,
    surface: evaluation.surface,
    ruleOfTwo: evaluation.ruleOfTwo,
    criticalGaps: scored.criticalGaps,
    improvements: scored.improvements,
    inventory: {
      entries: inventory.totalEntries,
      filesScanned: inventory.files.length,
      bytesScanned: inventory.bytesRead,
      languages: inventory.languages as Record<string, number>,
      uncovered: inventory.uncovered,
      excluded: inventory.excluded as Record<string, { count: number; examples: string[] }>,
    },
    reaudit: [FIRST_AUDIT],
    limitations: [...limitationsOf(snapshot, inventory, scored, limits), ...unimportedNote(unimported), ...(model ? modelNotes(model) : []), ...reviewNotes(evaluation), ...claims.notes],
    ...(agent ? { agent: agent.agent } : {}),
  };
  if (opts.baseline) report.reaudit = reauditLog(diffReports(opts.baseline, report));
  return { report, results, model, rubric, snapshot, inventory };
}
