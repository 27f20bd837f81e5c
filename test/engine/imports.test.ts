import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** The packages a module loads through its static value imports, transitively (type-only imports and dynamic import() excluded). */
function packagesLoaded(entry: string): Map<string, string> {
  const packages = new Map<string, string>(); // package → the module that imports it
  const seen = new Set<string>();
  const stack = [join(ROOT, 'src', entry)];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(import|export)\s+(?!type\s)[^;]*?\bfrom\s+'([^']+)'/gms)) {
      const spec = m[2]!;
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.set(spec, file.slice(ROOT.length + 1));
    }
  }
  return packages;
}

describe('what an audit loads', () => {
  it('computes a report without loading the schema validator or the YAML parser up front: they load only for a reviewer\'s overrides file, a target\'s .audit.yaml or a YAML config file', () => {
    const loaded = packagesLoaded('pipeline.ts');
    // zod alone took 0.1 s of every uncached audit's start.
    expect(loaded.has('zod'), `zod, from ${loaded.get('zod')}`).toBe(false);
    expect(loaded.get('yaml')).toBe('src/facts/config.ts');
    // The walk does see packages (a broken pattern would find none).
    expect(loaded.has('@ast-grep/napi') || loaded.has('picomatch')).toBe(true);
  });
});
