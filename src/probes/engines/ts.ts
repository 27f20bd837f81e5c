import { createRequire } from 'node:module';
import { posix } from 'node:path';
import type { CallExpression, Project, SourceFile as TsSourceFile } from 'ts-morph';
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

/** One audit's type checker: its project holds the files that name a callee and what they import. State never outlives the audit. */
export class TsChecker {
  private readonly byPath: Map<string, SourceFile>;
  private project: Project | null = null;
  private projectCalls = '';

  constructor(files: SourceFile[]) {
    this.byPath = new Map(files.filter((f) => f.language && JS_LANGS.has(f.language)).map((f) => [f.path, f]));
  }

  /** The files a `ts` probe reads: TypeScript/JavaScript files whose text names one of its callees. */
  readers(probe: Probe): SourceFile[] {
    return [...this.byPath.values()].filter((f) => probe.calls!.some((c) => f.text.includes(c)));
  }

  run(probe: Probe, file: SourceFile): Finding[] {
    if (!file.language || !JS_LANGS.has(file.language) || !probe.calls!.some((c) => file.text.includes(c))) return [];
    if (!this.byPath.has(file.path)) {
      this.byPath.set(file.path, file);
      this.project = null;
    }
    const sf = this.projectFor(probe.calls!).getSourceFileOrThrow(`/${file.path}`);
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

  private resolveRelative(from: string, spec: string): SourceFile | undefined {
    const base = posix.normalize(posix.join(posix.dirname(from), spec.replace(/\.js$/, '')));
    for (const ext of EXTS) {
      const hit = this.byPath.get(base + ext);
      if (hit) return hit;
    }
    return undefined;
  }

  /** The project of every file that names a callee and, breadth-first, what they import relatively: one checker for all. */
  private projectFor(calls: string[]): Project {
    const key = [...calls].sort().join('\0');
    if (this.project && this.projectCalls === key) return this.project;
    const { Project, ts } = load();
    const proj = new Project({
      useInMemoryFileSystem: true,
      compilerOptions: { allowJs: true, jsx: ts.JsxEmit.Preserve, strict: false, noLib: true, skipLibCheck: true, noResolve: true, target: ts.ScriptTarget.ES2022 },
    });
    let frontier = [...this.byPath.values()].filter((f) => calls.some((c) => f.text.includes(c)));
    for (let depth = 0; depth <= IMPORT_DEPTH && frontier.length; depth++) {
      const next: SourceFile[] = [];
      for (const f of frontier) {
        if (proj.getSourceFile(`/${f.path}`)) continue;
        proj.createSourceFile(`/${f.path}`, f.text, { overwrite: true });
        countParse('ts-morph');
        for (const m of f.text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]{1,200})['"]/g)) {
          const dep = this.resolveRelative(f.path, m[1]!);
          if (dep) next.push(dep);
        }
      }
      frontier = next;
    }
    this.project = proj;
    this.projectCalls = key;
    return proj;
  }
}
