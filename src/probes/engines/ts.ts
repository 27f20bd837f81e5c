import { Node, Project, SyntaxKind, ts, type CallExpression } from 'ts-morph';
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

function ensureProject(): Project {
  if (project) return project;
  project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { allowJs: true, jsx: ts.JsxEmit.Preserve, strict: false, noLib: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022 },
  });
  // Every TS/JS product file is added so imports resolve; files are parsed lazily by the checker.
  for (const f of allFiles) if (f.language && ['typescript', 'tsx', 'javascript'].includes(f.language)) project.createSourceFile(`/${f.path}`, f.text, { overwrite: true });
  return project;
}

function calleeName(call: CallExpression): string | null {
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
    const obj = arg.asKind(SyntaxKind.ObjectLiteralExpression);
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
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
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
