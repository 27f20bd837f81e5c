import { accessSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lang, NapiConfig, SgNode } from '@ast-grep/napi';
import type { Language } from '../rubric/schema.js';
import { astGrep, ensureDynamicLanguages, PARSER } from './parse.js';
import type { PlanProbe } from './plan.js';
import { branchesOf, canBeKind, guardedGroups, kindIndex, type KindIndex, prefilter, rulesOfKind, shareNegations, shareRegexes } from './ruleGuard.js';
import { cacheMatchers, readMatcher, writeMatcher } from './matcherStore.js';
import { reclaimer } from './reclaim.js';
import { SYNTAX } from './syntax.js';
import { keepBounded } from '../cache/memo.js';

type Rule = Record<string, unknown>;

/** One file's tree and the probe rules that matched its nodes, in probe order and then document order. */
export interface Scanned {
  root: SgNode;
  hits: Array<[PlanProbe, SgNode]>;
}

/** Metavariables are renamed per rule, so two rules that both say `$N` never have to agree on one node. */
function renamed(rule: unknown, k: number): unknown {
  if (Array.isArray(rule)) return rule.map((r) => renamed(r, k));
  if (!rule || typeof rule !== 'object') return rule;
  return Object.fromEntries(
    Object.entries(rule).map(([key, v]) => [key, (key === 'pattern' || key === 'context') && typeof v === 'string' ? v.replace(/\$(\$\$)?([A-Z][A-Z0-9_]*)/g, (_, multi: string | undefined, name: string) => `$${multi ?? ''}R${k}_${name}`) : renamed(v, k)]),
  );
}

const tag = (k: number) => `T${k}_`;

/**
 * Where the scan's copies of the files go: a memory-backed folder when Linux has one and no
 * TMPDIR was asked for. Creating a file is the costly part of writing one on some disks (0.7 ms
 * each on this project's test machine's ext4 against 0.02 ms in tmpfs: 0.7 s of a 1,000-file
 * audit); the copies are bounded by the bytes an audit reads (128 MiB) and removed after the scan.
 */
function scratchRoot(): string {
  if (process.platform === 'linux' && !process.env.TMPDIR) {
    try {
      if (statSync('/dev/shm').isDirectory()) {
        accessSync('/dev/shm', constants.W_OK | constants.X_OK);
        return '/dev/shm';
      }
    } catch {
      /* no such folder: the temporary folder it is */
    }
  }
  return tmpdir();
}

/** A combined matcher as data: what the search compiles, and which rules can match each node kind. */
export interface Matcher {
  config: NapiConfig;
  index: KindIndex;
}

/**
 * Every rule of a language as one ast-grep matcher, so its regexes and patterns compile once per
 * scan instead of once per file (the compile costs far more than matching). A gate lets through
 * every node some rule may match (see `prefilter`) and the file's root, so every file is reported
 * with its tree. Then each rule binds a tag metavariable to the node when it matches, so a hit
 * tells which rules it satisfies; `$$` binds any node, tokens such as `=>` included.
 */
function combined(probes: PlanProbe[], language: Language, small: boolean): Matcher {
  const rules = probes.map((p, k) => renamed(p.rules[language], k) as Rule);
  // Each alternative of each rule is a utility rule the tags use. The gate writes the alternatives
  // it has no guard for (see `prefilter`) out in full instead: a `matches` reference costs a lookup
  // on every node it is tried on, and the gate tries them on every node of their kind (written
  // out, a first audit of gemini-cli spent 13% less CPU in the scan; the second compile of each
  // alternative costs a few milliseconds). The gate names the node kind of each group itself: a
  // bare `matches` would hide the kinds from the search, which then tries every node (a third
  // slower).
  const utils: Record<string, unknown> = {};
  const branches = rules.map((r) => branchesOf(r));
  const alternativesOf = branches.map((bs, k) =>
    bs.map((branch, j) => {
      const name = `rule${k}_${j}`;
      utils[name] = branch;
      return { matches: name };
    }),
  );
  // The second branch lets the node on when rule k does not match it, at the cost of two kind checks.
  const tagged = alternativesOf.map((alternatives, k) => ({ any: [{ all: [{ any: alternatives }, { pattern: `$$${tag(k)}` }] }, otherwise(language)] }));
  const gate = { any: [...(prefilter(rules, small).any as unknown[]), { kind: SYNTAX[language].root }] };
  const index = kindIndex(rules);
  const byKind = rulesOfKind(index);
  const shared = shareNegations({ rule: { all: [gate, someRule(branches, alternativesOf, byKind, language, small), tagsByKind(tagged, byKind)] }, utils });
  return { config: shareRegexes({ rule: shared.rule, utils: { ...(shared.utils as Rule), ...shared.shared } }) as unknown as NapiConfig, index };
}

type ByKind = ReturnType<typeof rulesOfKind>;

/**
 * A rule that sends each node to the rules of its own kind: a branch per kind the index names, and
 * one for every other kind (rules of no known kind), each holding what `branch` makes of those rules.
 */
function perKind(byKind: ByKind, branch: (rules: number[], kind: string | null) => Rule[]): Rule {
  const kinds = byKind.kinds();
  return { any: [...kinds.map((kind) => ({ all: [{ kind }, ...branch(byKind.of(kind), kind)] })), { all: [{ not: { any: kinds.map((kind) => ({ kind })) } }, ...branch(byKind.of(''), null)] }] };
}

/**
 * The tags grouped by the node kind their rules can match: a node tries only the rules of its own
 * kind (and those of no known kind), not every rule of the language.
 */
const tagsByKind = (tagged: Rule[], byKind: ByKind): Rule => perKind(byKind, (rules) => rules.map((k) => tagged[k]!));

/**
 * Passes a node that some rule matches (and each file's root): a node the gate lets through but no
 * rule matches is not handed to JavaScript, where reading its tags costs a call per rule of its kind
 * (on gemini-cli the gate let 16,000 nodes through for 2,000 hits: 460,000 calls). A node tries the
 * alternatives of its own kind, in groups behind their guards (see `guardedGroups`): a call tries
 * the alternatives whose start-anchored callee regexes it matches and those with no such guard,
 * not every call rule's.
 */
function someRule(branches: unknown[][], alternativesOf: Rule[][], byKind: ByKind, language: Language, small: boolean): Rule {
  const perKindAlternatives = (rules: number[], kind: string | null): Rule[] => {
    // An alternative of another kind (a rule that matches calls or pairs, under calls) cannot match.
    const mine = rules.flatMap((k) => branches[k]!.flatMap((b, j) => (kind === null || canBeKind(b, kind) ? [{ branch: b, ref: alternativesOf[k]![j]! }] : [])));
    // A small scan is not worth compiling the guards for.
    if (small) return [{ any: mine.map((m) => m.ref) }];
    const groups = guardedGroups(mine.map((m) => m.branch));
    return [{ any: groups.map((g) => (g.guard ? { all: [g.guard, { any: g.members.map((i) => mine[i]!.ref) }] } : mine[g.members[0]!]!.ref)) }];
  };
  return { any: [{ kind: SYNTAX[language].root }, perKind(byKind, perKindAlternatives)] };
}

const otherwise = (language: Language) => ({ any: [{ kind: SYNTAX[language].root }, { not: { kind: SYNTAX[language].root } }] });

/**
 * Combined matchers by their parser and rules (`rulesKey`, not the plan key: plans with the same
 * rules for a language share one). Languages with one parser share its root kind, so the same rules make the
 * same matcher.
 */
const matchers = new Map<string, { config: NapiConfig; byKind: ByKind }>();
const rulesKey = (probes: PlanProbe[], language: Language) => JSON.stringify([PARSER[language], probes.map((p) => [p.id, p.rules[language]])]);
// A batch asks for the same probes' rules twice (which files to scan, then the scan itself), and
// the key serialises every rule of the language (2 ms each time).
const ruleSets = new WeakMap<PlanProbe[], Map<Language, { mine: PlanProbe[]; key: string }>>();
/** The probes with a rule for a language, and the key of the matcher they make. */
export function languageRules(probes: PlanProbe[], language: Language): { mine: PlanProbe[]; key: string } {
  let byLanguage = ruleSets.get(probes);
  if (!byLanguage) ruleSets.set(probes, (byLanguage = new Map()));
  let rules = byLanguage.get(language);
  if (!rules) {
    const mine = probes.filter((p) => p.rules[language]);
    byLanguage.set(language, (rules = { mine, key: rulesKey(mine, language) }));
  }
  return rules;
}
const fullKey = (key: string, small: boolean) => `${small ? 'small' : 'large'}\0${key}`;

/**
 * A combined matcher: from this process's earlier scans, else from the matchers stored with the
 * tool or in the cache folder (building one costs 50–100 ms of a small audit), else built (and
 * stored in the cache folder, when there is one).
 */
function matcherFor(key: string, probes: PlanProbe[], language: Language, small: boolean, cacheDir?: string): { config: NapiConfig; byKind: ByKind } {
  const full = fullKey(key, small);
  let m = matchers.get(full);
  if (!m) {
    let built = readMatcher(full, cacheDir);
    if (!built) {
      built = combined(probes, language, small);
      if (cacheDir) writeMatcher(full, cacheMatchers(cacheDir), built);
    }
    m = keepBounded(matchers, full, { config: built.config, byKind: rulesOfKind(built.index) }, 32);
  }
  return m;
}

/**
 * Every combined matcher scans with these probes can need (each parser, small and large scans),
 * written to `dir`: the build stores those of the bundled rubric beside it.
 */
export function storeMatchers(probes: PlanProbe[], dir: string): void {
  const done = new Set<string>();
  for (const language of Object.keys(PARSER) as Language[]) {
    const { mine, key } = languageRules(probes, language);
    if (!mine.length) continue;
    for (const small of [true, false]) {
      const full = fullKey(key, small);
      if (done.has(full)) continue;
      done.add(full);
      writeMatcher(full, dir, combined(mine, language, small));
    }
  }
}

/**
 * Below this much text in a scan, its gate tests node kinds only. The full gate's filtering saves
 * some 0.25 s of matching per MB of code (gemini-cli, 2 cores) and costs 0.1 s of compile per
 * language: a next commit's few files or a small agent are scanned faster without it.
 */
export const SMALL_SCAN = 256 << 10;

// JavaScript parses as TSX (see parse.ts), so its files take the TSX extension the search expects.
const EXTENSION: Record<Language, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'tsx', python: 'py', rust: 'rs', go: 'go' };

/**
 * Parses each code file once and runs every rule of its language on that tree, through ast-grep's
 * multi-file search: the files are written to a private temporary folder (the search reads files,
 * not strings), searched in parallel native threads, and the folder is removed. `each` gets every
 * reported file's tree and hits as the search reports it; the returned set holds their indices.
 * When the temporary folder cannot be written (no space, no permission) nothing is reported, and
 * the caller searches each file on its own: slower, same facts.
 */
export async function scanFiles(files: Array<{ language: Language | null; text: string }>, probes: PlanProbe[], each: (index: number, scanned: Scanned) => void, cacheDir?: string): Promise<Set<number>> {
  const seen = new Set<number>();
  // Languages that parse alike and have the same rules (JavaScript and TSX) are one scan: one compile.
  const groups = new Map<string, { key: string; language: Language; mine: PlanProbe[]; indices: number[] }>();
  const keyOf = new Map<Language, string>();
  files.forEach((f, i) => {
    if (!f.language) return;
    let key = keyOf.get(f.language);
    if (key === undefined) {
      const rules = languageRules(probes, f.language);
      keyOf.set(f.language, (key = rules.key));
      if (!groups.has(key)) groups.set(key, { key, language: f.language, mine: rules.mine, indices: [] });
    }
    groups.get(key)!.indices.push(i);
  });
  if (groups.size === 0) return seen;
  if ([...keyOf.keys()].some((l) => l === 'python' || l === 'rust' || l === 'go')) ensureDynamicLanguages();
  // The copies go to the scratch folder, or, when it cannot take them (a memory-backed folder can
  // be small: 64 MB in a default Docker container), to the temporary folder.
  const roots = [...new Set([scratchRoot(), tmpdir()])];
  const dirs: string[] = [];
  let next = 0;
  const copies = (indices: number[], extension: string): string[] | null => {
    for (; next < roots.length; next++) {
      try {
        const dir = (dirs[next] ??= mkdtempSync(join(roots[next]!, 'agent-audit-scan-')));
        return indices.map((i) => {
          const p = join(dir, `${i}.${extension}`);
          writeFileSync(p, files[i]!.text, { mode: 0o600 });
          return p;
        });
      } catch {
        // This folder is full or unwritable: this group and the rest go to the next one, and the
        // copies made here so far are removed now (earlier groups' scans are over).
        if (dirs[next]) rmSync(dirs[next]!, { recursive: true, force: true });
      }
    }
    return null;
  };
  try {
    for (const { key, language, mine, indices } of [...groups.values()].sort((a, b) => a.language.localeCompare(b.language))) {
      const parser = PARSER[language];
      // No folder could take the copies: the caller searches these files one by one.
      const paths = copies(indices, EXTENSION[language]);
      if (!paths) continue;
      const index = new Map(paths.map((p, n) => [p, indices[n]!]));
      const bytes = indices.reduce((n, i) => n + files[i]!.text.length, 0);
      const { config: matcher, byKind } = matcherFor(key, mine, language, bytes < SMALL_SCAN, cacheDir);
      // The search itself failing (the combined matcher does not compile, though each rule did:
      // two large regexes can exceed the regex size limit together) leaves the group's files to
      // the file-by-file search; an error in reading a reported tree is ours, and propagates.
      let searchFailed = false;
      try {
        await new Promise<void>((resolve, reject) => {
          const reclaim = reclaimer();
          let reported = 0;
          let expected: number | null = null;
          let failure: Error | null = null;
          const settle = () => {
            if (expected === null || reported < expected) return;
            if (failure) reject(failure);
            else resolve();
          };
          const search = () => astGrep().findInFiles(parser as Lang, { paths, matcher }, (err, nodes) => {
            reported++;
            try {
              if (err) throw err;
              if (!nodes.length) return;
              const i = index.get(nodes[0]!.getRoot().filename());
              if (i === undefined || seen.has(i)) return;
              seen.add(i);
              const hits: Array<[number, SgNode]> = [];
              // A node the gate let through that binds no tag matched no rule (the gate is a prefilter).
              for (const n of nodes) for (const k of byKind.of(String(n.kind()))) if (n.getMatch(tag(k))) hits.push([k, n]);
              // Probe order, then document order: what one search per rule would give.
              hits.sort((a, b) => a[0] - b[0]);
              each(i, { root: nodes[0]!.getRoot().root(), hits: hits.map(([k, n]) => [mine[k]!, n]) });
              reclaim();
            } catch (e) {
              failure ??= e instanceof Error ? e : new Error(String(e));
            } finally {
              settle();
            }
          });
          // The search starts now, not in a later tick: the caller extracts the files no scan reads
          // while the native threads work. A matcher that does not compile throws here.
          let started: Promise<number>;
          try {
            started = search();
          } catch (e) {
            started = Promise.reject(e);
          }
          started
            .then(
              (count) => {
                expected = count;
                settle();
              },
              (e: unknown) => {
                searchFailed = true;
                reject(e);
              },
            );
        });
      } catch (e) {
        if (searchFailed) continue;
        throw e;
      }
    }
  } finally {
    for (const dir of dirs) if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return seen;
}
