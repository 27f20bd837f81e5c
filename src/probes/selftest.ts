import { lineStartsOf, type SourceFile } from '../inventory/index.js';
import { languageOf } from '../inventory/classify.js';
import type { Probe } from '../rubric/schema.js';
import { ENGINES, probeReads } from './run.js';

const EXT: Record<string, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'js', python: 'py', rust: 'rs', go: 'go', json: 'json', yaml: 'yaml', toml: 'toml', text: 'txt' };

export interface SnippetOutcome {
  probe: string;
  expect: 'match' | 'noMatch';
  index: number;
  lang: string;
  ok: boolean;
  why: string;
}

/** Runs each probe against its own snippets, like ast-grep's `sg test`: every match must match, no noMatch may. */
export function testProbe(probe: Probe): SnippetOutcome[] {
  const out: SnippetOutcome[] = [];
  for (const expect of ['match', 'noMatch'] as const) {
    probe.tests[expect].forEach((s, index) => {
      const path = s.file ?? `snippet.${EXT[s.lang]}`;
      const file: SourceFile = { path, language: languageOf(path), text: s.code, lineStarts: lineStartsOf(s.code) };
      if (!probeReads(probe, file)) {
        out.push({ probe: probe.id, expect, index, lang: s.lang, ok: false, why: `the probe does not read ${path} (check languages/files)` });
        return;
      }
      const engine = ENGINES[probe.engine];
      engine.begin?.([file]);
      const n = engine.run([probe], file).length;
      const ok = expect === 'match' ? n > 0 : n === 0;
      out.push({ probe: probe.id, expect, index, lang: s.lang, ok, why: ok ? '' : expect === 'match' ? 'expected a match, found none' : `expected no match, found ${n}` });
    });
  }
  return out;
}
