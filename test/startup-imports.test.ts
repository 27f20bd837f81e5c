import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A report answered from the result cache should load only what reading the cache and printing the
 * report need (issue 13: a cached re-audit under 0.5 s). The pipeline, the agent model and the fact
 * extractor are imported dynamically where a report has to be computed; a static import from a
 * renderer or the CLI would load them all on every run (a constant once did: 77 modules instead of
 * 49, 0.38 s instead of 0.30 s for a cached re-audit of gemini-cli).
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Source files reachable from `entry` through static value imports and re-exports (not `import type`, not `import()`). */
function staticallyReachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)';?/gm)) {
      visit(join(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return new Set([...seen].map((f) => f.slice(SRC.length + 1)));
}

describe('what the score command loads before it knows whether the cache answers', () => {
  // The CLI loads each command's module when that command runs: the score command's is the entry.
  const reached = staticallyReachable(join(SRC, 'commands', 'score.ts'));

  it('sees what printing a report needs (the walk follows imports)', () => {
    expect(reached).toContain('audit.ts');
    expect(reached).toContain('render/markdown.ts');
    expect(reached).toContain('render/tools.ts');
  });

  it('does not reach the pipeline, the agent model or the fact extractor', () => {
    for (const heavy of ['pipeline.ts', 'model/index.ts', 'facts/extract.ts', 'facts/scan.ts', 'probes/index.ts']) expect(reached).not.toContain(heavy);
  });
});
