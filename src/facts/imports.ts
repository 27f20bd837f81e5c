import type { Language } from '../rubric/schema.js';

/** A name an import binds, the module it comes from, and the name in that module where it differs. */
export type ImportBinding = [string, string] | [string, string, string];

/** The names an import statement binds, with the module each comes from: [name, module], and the name in the module third where it differs. */
export function importBindings(statement: string, language: Language): ImportBinding[] {
  const out: ImportBinding[] = [];
  const bind = (local: string, module: string, original: string) => out.push(local === original ? [local, module] : [local, module, original]);
  // A Python import list in parentheses may carry a comment after any name.
  const t = (language === 'python' ? statement.replace(/#[^\n]*/g, '') : statement).replace(/\s+/g, ' ');
  if (language === 'python') {
    let m = /^from\s+([.\w]+)\s+import\s+\(?([^)]*)\)?/.exec(t);
    if (m) {
      for (const part of m[2]!.split(',')) {
        const a = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
        if (a) bind(a[2] ?? a[1]!, m[1]!, a[1]!);
      }
      return out;
    }
    m = /^import\s+(.*)$/.exec(t);
    for (const part of m?.[1]?.split(',') ?? []) {
      const a = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
      if (a) out.push([a[2] ?? a[1]!.split('.')[0]!, a[1]!]);
    }
    return out;
  }
  if (language === 'go') {
    for (const m of t.matchAll(/(?:^|[(\s;])(?:([\w.]+)\s+)?"([^"]+)"/g)) {
      // A one-line `import "os/exec"` matches with `import` in the name group: the package's own name is bound.
      // A major-version suffix (`…/shell/v2`) is not the package's name: the segment before it is.
      const name = m[1] && m[1] !== 'import' ? m[1] : m[2]!.split('/').filter((seg) => !/^v\d+$/.test(seg)).pop() ?? m[2]!;
      out.push([name, m[2]!]);
    }
    return out;
  }
  if (language === 'rust') {
    const m = /^use\s+([\w:]+?)(?:::\{([^}]*)\}|::(\w+)(?:\s+as\s+(\w+))?)?\s*;/.exec(t);
    if (!m) return out;
    if (m[2])
      for (const part of m[2].split(',')) {
        const [original, local] = part.trim().split(/\s+as\s+/);
        const name = original!.split('::').pop()!;
        bind(local ? local.split('::').pop()! : name, m[1]!, name);
      }
    else if (m[3]) bind(m[4] ?? m[3], m[1]!, m[3]);
    else out.push([m[1]!.split('::').pop()!, m[1]!]);
    return out.filter(([n]) => /^\w+$/.test(n));
  }
  const from = /from\s*["'`]([^"'`]+)["'`]/.exec(t)?.[1] ?? /^import\s*["'`]([^"'`]+)["'`]/.exec(t)?.[1];
  if (!from) return out;
  const clause = /^import\s+(?:type\s+)?(.*?)\s*from/.exec(t)?.[1] ?? '';
  const ns = /\*\s*as\s+([\w$]+)/.exec(clause);
  if (ns) out.push([ns[1]!, from]);
  const def = /^([\w$]+)\s*(?:,|$)/.exec(clause);
  if (def) out.push([def[1]!, from]);
  const named = /\{([^}]*)\}/.exec(clause);
  for (const part of named?.[1]?.split(',') ?? []) {
    const a = /^\s*(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part);
    if (a) bind(a[2] ?? a[1]!, from, a[1]!);
  }
  return out;
}
