import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import type { CallExpression, Project, SourceFile as TsSourceFile } from 'ts-morph';
import { writeEntry } from '../../cache/entry.js';
import type { SourceFile } from '../../inventory/index.js';
import type { Probe } from '../../rubric/schema.js';
import { countParse } from '../stats.js';
import { findingText, type Finding } from '../types.js';

/**
 * Type-aware checks on TypeScript: a call to one of `calls` whose options argument, as the type
 * checker sees it (through variables, spreads and helper functions, across files), has none of
 * `withoutOption`. A regex cannot tell `streamText(opts)` with `opts = {...base, stopWhen}` from one
 * without, so this engine runs only on files whose text names a callee, and its project holds only
 * those files and what they import (relative imports, a few levels deep), never the whole target.
 */
type TsMorph = typeof import('ts-morph');
let tsMorph: TsMorph | null = null;
// ts-morph bundles the TypeScript compiler (~0.5 s to load): load it only when a ts probe has work.
const load = (): TsMorph => (tsMorph ??= createRequire(import.meta.url)('ts-morph') as TsMorph);

const JS_LANGS = new Set(['typescript', 'tsx', 'javascript']);
const IMPORT_DEPTH = 3;
const EXTS = ['', '.ts', '.tsx', '.js', '.jsx', '.mts', '.mjs', '/index.ts', '/index.tsx', '/index.js'];

function calleeName(call: CallExpression): string | null {
  const { Node } = load();
  const expr = call.getExpression();
  if (Node.isIdentifier(expr)) return expr.getText();
  if (Node.isPropertyAccessExpression(expr)) return expr.getName();
  return null;
}

// A module of the target itself: relative, or through the usual source-root aliases (`@/…`, `~/…`).
const OWN_MODULE = /^(\.{1,2}\/|[@~]\/)/;

/**
 * Whether a bare callee names the target's own function rather than the library's: declared in the
 * file, or imported from one of the target's modules. `streamText` written by the project (a fetch
 * wrapper that streams a reply) is not the AI SDK's tool loop, whatever options it takes.
 */
function ownFunction(sf: TsSourceFile, name: string): boolean {
  if (sf.getFunction(name) || sf.getVariableDeclaration(name)) return true;
  return sf.getImportDeclarations().some((d) => OWN_MODULE.test(d.getModuleSpecifierValue()) && (d.getDefaultImport()?.getText() === name || d.getNamedImports().some((n) => (n.getAliasNode() ?? n.getNameNode()).getText() === name)));
}

function hasAnyOption(call: CallExpression, options: string[]): boolean {
  return call.getArguments().some((arg) => {
    const type = arg.getType();
    if (options.some((o) => type.getProperty(o))) return true;
    // Literal fallback when the checker cannot type the argument (unresolved import).
    const obj = arg.asKind(load().SyntaxKind.ObjectLiteralExpression);
    return !!obj && options.some((o) => obj.getProperty(o));
  });
}

/** Where type-checked findings are kept between audits: the cache folder and the tool build. */
export interface TypedCache {
  dir: string;
  build: string;
  /** Verification keeps its own entries, so it re-checks instead of reading back what the audit found. */
  purpose?: 'verify';
}

const TYPED_MAX = 4096;

/** Keeps the typed-findings folder bounded (once it holds `TYPED_MAX` entries, the older half goes); returns how many it holds. */
function bound(dir: string): number {
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    if (names.length < TYPED_MAX) return names.length;
    const old = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const o of old.slice(0, TYPED_MAX / 2)) rmSync(join(dir, o.n), { force: true });
    return names.length - TYPED_MAX / 2;
  } catch {
    return 0; // no folder yet, or pruning failed: best effort
  }
}

/**
 * One audit's type checker: its project holds the files that name a callee and what they import.
 * State never outlives the audit. With a cache folder, a file's findings are kept by the content of
 * what its types can come from, so the next commit loads the compiler only where that changed.
 */
export class TsChecker {
  private readonly byPath: Map<string, SourceFile>;
  private project: Project | null = null;
  private projectCalls = '';
  /** Content ids by file object: a file given again with other content under the same path gets its own. */
  private readonly ids = new WeakMap<SourceFile, string>();
  /** The project's members per callee list, for the files as they stand (reset when a file is added). */
  private readonly memberLists = new Map<string, SourceFile[]>();
  /** Entries in the typed-findings folder as last listed, plus those written since: it is listed again only near the bound. */
  private entries: number | null = null;

  constructor(
    files: SourceFile[],
    private readonly cache?: TypedCache,
  ) {
    this.byPath = new Map(files.filter((f) => f.language && JS_LANGS.has(f.language)).map((f) => [f.path, f]));
  }

  /** The files a `ts` probe reads: TypeScript/JavaScript files whose text names one of its callees. */
  readers(probe: Probe): SourceFile[] {
    return [...this.byPath.values()].filter((f) => probe.calls!.some((c) => f.text.includes(c)));
  }

  run(probe: Probe, file: SourceFile): Finding[] {
    if (!file.language || !JS_LANGS.has(file.language) || !probe.calls!.some((c) => file.text.includes(c))) return [];
    if (this.byPath.get(file.path) !== file) {
      this.byPath.set(file.path, file);
      this.project = null;
      this.memberLists.clear();
    }
    const deps = this.dependsOn(probe, file);
    const stored = this.cache ? join(this.cache.dir, 'typed', `${this.keyOf(probe, file, deps)}.json`) : null;
    if (stored) {
      try {
        const known = JSON.parse(readFileSync(stored, 'utf8')) as unknown;
        if (Array.isArray(known)) return known as Finding[];
      } catch {
        /* a miss: not checked yet, or an unreadable entry */
      }
    }
    const found = this.check(probe, file, deps);
    if (stored) {
      if (this.entries === null || this.entries >= TYPED_MAX) this.entries = bound(join(stored, '..'));
      if (writeEntry(stored, JSON.stringify(found))) this.entries++;
    }
    return found;
  }

  private check(probe: Probe, file: SourceFile, deps: SourceFile[]): Finding[] {
    const sf = this.projectFor(probe, deps).getSourceFileOrThrow(`/${file.path}`);
    const out: Finding[] = [];
    for (const call of sf.getDescendantsOfKind(load().SyntaxKind.CallExpression)) {
      const name = calleeName(call);
      if (!name || !probe.calls!.includes(name)) continue;
      // The project's own function first: reading declarations is cheap, asking the type checker is not.
      if (load().Node.isIdentifier(call.getExpression()) && ownFunction(sf, name)) continue;
      if (hasAnyOption(call, probe.withoutOption!) || (probe.withOption && !hasAnyOption(call, probe.withOption))) continue;
      out.push({ probe: probe.id, path: file.path, startLine: call.getStartLineNumber(), endLine: call.getEndLineNumber(), text: findingText(call.getText()) });
    }
    return out;
  }

  /**
   * What a file's type-checked findings depend on: the file, every project file it imports directly
   * or not, and any project file that can declare types for all (a declaration file, `declare
   * global`). Types reach a file through nothing else, so the file is checked in a project of just
   * these, and its findings are kept by their content, the build and the probe.
   */
  private dependsOn(probe: Probe, file: SourceFile): SourceFile[] {
    const members = this.members(probe.calls!);
    const inProject = new Set(members.map((m) => m.path));
    const reached = new Map<string, SourceFile>();
    const stack = [file];
    while (stack.length) {
      const f = stack.pop()!;
      if (reached.has(f.path)) continue;
      reached.set(f.path, f);
      for (const dep of this.importsOf(f)) if (inProject.has(dep.path)) stack.push(dep);
    }
    for (const m of members) if (/\.d\.[cm]?ts$/.test(m.path) || /\bdeclare\s+(global|module)\b/.test(m.text)) reached.set(m.path, m);
    return [...reached.values()].sort((x, y) => (x.path < y.path ? -1 : 1));
  }

  private keyOf(probe: Probe, file: SourceFile, deps: SourceFile[]): string {
    const hash = createHash('sha256').update(this.cache!.build).update('\0').update(JSON.stringify([this.cache!.purpose ?? 'audit', probe.id, probe.calls, probe.withoutOption, probe.withOption ?? null, file.path]));
    for (const f of deps) hash.update('\0').update(f.path).update('\0').update(this.idOf(f));
    return hash.digest('hex');
  }

  private idOf(f: SourceFile): string {
    let id = this.ids.get(f);
    if (!id) this.ids.set(f, (id = f.contentId ?? createHash('sha1').update(f.text).digest('hex')));
    return id;
  }

  private resolveRelative(from: string, spec: string): SourceFile | undefined {
    const base = posix.normalize(posix.join(posix.dirname(from), spec.replace(/\.js$/, '')));
    for (const ext of EXTS) {
      const hit = this.byPath.get(base + ext);
      if (hit) return hit;
    }
    return undefined;
  }

  /** Every file that names a callee and, breadth-first, what they import relatively, in the order the project adds them. */
  private members(calls: string[]): SourceFile[] {
    const key = [...calls].sort().join('\0');
    const known = this.memberLists.get(key);
    if (known) return known;
    const out: SourceFile[] = [];
    const seen = new Set<string>();
    let frontier = [...this.byPath.values()].filter((f) => calls.some((c) => f.text.includes(c)));
    for (let depth = 0; depth <= IMPORT_DEPTH && frontier.length; depth++) {
      const next: SourceFile[] = [];
      for (const f of frontier) {
        if (seen.has(f.path)) continue;
        seen.add(f.path);
        out.push(f);
        next.push(...this.importsOf(f));
      }
      frontier = next;
    }
    this.memberLists.set(key, out);
    return out;
  }

  /** The target's files a file imports by a relative path. */
  private importsOf(f: SourceFile): SourceFile[] {
    const out: SourceFile[] = [];
    for (const m of f.text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]{1,200})['"]/g)) {
      const dep = this.resolveRelative(f.path, m[1]!);
      if (dep) out.push(dep);
    }
    return out;
  }

  /** The project a file is checked in: one for the audit, given each file's dependencies (`dependsOn`) as it is checked. */
  private projectFor(probe: Probe, deps: SourceFile[]): Project {
    const key = [...probe.calls!].sort().join('\0');
    if (!this.project || this.projectCalls !== key) {
      const { Project, ts } = load();
      this.project = new Project({
        useInMemoryFileSystem: true,
        compilerOptions: { allowJs: true, jsx: ts.JsxEmit.Preserve, strict: false, noLib: true, skipLibCheck: true, noResolve: true, target: ts.ScriptTarget.ES2022 },
      });
      this.projectCalls = key;
    }
    for (const f of deps) {
      if (this.project.getSourceFile(`/${f.path}`)) continue;
      this.project.createSourceFile(`/${f.path}`, f.text, { overwrite: true });
      countParse('ts-morph');
    }
    return this.project;
  }
}
