import { createRequire } from 'node:module';
import type { CallExpression, Project } from 'ts-morph';
import type { SourceFile } from '../../inventory/index.js';
import type { Probe } from '../../rubric/schema.js';
import { findingText, type Engine, type Finding } from '../types.js';

/**
 * Type-aware checks on TypeScript: a call to one of `calls` whose options argument, as the type
 * checker sees it (through variables, spreads and helper functions, across files), has none of
 * `withoutOption`. A regex cannot tell `streamText(opts)` with `opts = {...base, stopWhen}` from one
 * without, so this engine runs only on files whose text names a callee.
 */
let project: Project | null = null;
let allFiles: SourceFile[] = [];

// ts-morph bundles the TypeScript compiler (~0.5 s to load): load it only when a ts probe has work.
type TsMorph = typeof import('ts-morph');
let tsMorph: TsMorph | null = null;
const load = (): TsMorph => (tsMorph ??= createRequire(import.meta.url)('ts-morph') as TsMorph);

function ensureProject(): Project {
  if (project) return project;
  const { Project, ts } = load();
  project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { allowJs: true, jsx: ts.JsxEmit.Preserve, strict: false, noLib: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022 },
  });
  // Every TS/JS product file is added so imports resolve; files are parsed lazily by the checker.
  for (const f of allFiles) if (f.language && ['typescript', 'tsx', 'javascript'].includes(f.language)) project.createSourceFile(`/${f.path}`, f.text, { overwrite: true });
  return project;
}

function calleeName(call: CallExpression): string | null {
  const { Node } = load();
  const expr = call.getExpression();
  if (Node.isIdentifier(expr)) return expr.getText();
  if (Node.isPropertyAccessExpression(expr)) return expr.getName();
  return null;
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

export const tsEngine: Engine = {
  begin(files: SourceFile[]) {
    allFiles = files;
    project = null;
  },
  run(probes: Probe[], file: SourceFile): Finding[] {
    if (!file.language || !['typescript', 'tsx', 'javascript'].includes(file.language)) return [];
    const relevant = probes.filter((p) => p.calls!.some((c) => file.text.includes(c)));
    if (relevant.length === 0) return [];
    const proj = ensureProject();
    const sf = proj.getSourceFile(`/${file.path}`) ?? proj.createSourceFile(`/${file.path}`, file.text, { overwrite: true });
    const out: Finding[] = [];
    for (const call of sf.getDescendantsOfKind(load().SyntaxKind.CallExpression)) {
      const name = calleeName(call);
      if (!name) continue;
      for (const probe of relevant) {
        if (!probe.calls!.includes(name) || hasAnyOption(call, probe.withoutOption!)) continue;
        out.push({ probe: probe.id, path: file.path, startLine: call.getStartLineNumber(), endLine: call.getEndLineNumber(), text: findingText(call.getText()) });
      }
    }
    return out;
  },
};
