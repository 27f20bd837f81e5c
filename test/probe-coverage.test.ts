import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { languageOf } from '../src/inventory/classify.js';
import { loadRubric } from '../src/rubric/load.js';
import type { Probe } from '../src/rubric/schema.js';
import { RUBRIC } from './helpers.js';

/**
 * Probe tests as data (issue 8, item 2): every probe carries at least two `match` and two
 * `noMatch` snippets for each language in its `languages` (tsx and javascript count toward
 * typescript) and for each file type it reads (each glob in `files`). Whether the snippets
 * behave is checked by rubric.test.ts (`audit rules test`); this file checks there are enough.
 *
 * PENDING: probes not yet brought to this bar (work in progress elsewhere). Remove an id once its
 * probe passes: the last test fails on an id that no longer needs to be here, so the list only
 * shrinks.
 */
const PENDING = new Set<string>([
  // release checklist
]);

const MIN = 2;
const EXT: Record<string, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'js', python: 'py', rust: 'rs', go: 'go', json: 'json', yaml: 'yaml', toml: 'toml', text: 'txt' };
const asTypescript = (l: string | null) => (l === 'tsx' || l === 'javascript' ? 'typescript' : l);

/** What a probe lacks: one line per language or file glob short of MIN match or noMatch snippets. */
function shortfalls(probe: Probe): string[] {
  // A snippet counts for the language of the path it is tested as (the same path `audit rules test` uses).
  const path = (s: Probe['tests']['match'][number]) => s.file ?? `snippet.${EXT[s.lang]}`;
  const out: string[] = [];
  const check = (what: string, counts: (s: Probe['tests']['match'][number]) => boolean) => {
    for (const kind of ['match', 'noMatch'] as const) {
      const n = probe.tests[kind].filter(counts).length;
      if (n < MIN) out.push(`${what}: ${n} ${kind} (want ${MIN})`);
    }
  };
  for (const lang of new Set(probe.languages.map(asTypescript))) check(lang!, (s) => asTypescript(languageOf(path(s))) === lang);
  for (const glob of probe.files) {
    const isMatch = picomatch(glob, { dot: true, basename: !glob.includes('/') });
    check(`files ${glob}`, (s) => isMatch(path(s)));
  }
  return out;
}

describe('probe snippets per language and file type', () => {
  const rubric = loadRubric(RUBRIC);

  it.each(rubric.probes.filter((p) => !PENDING.has(p.id)).map((p) => [p.id, p] as const))('%s', (_id, probe) => {
    expect(shortfalls(probe)).toEqual([]);
  });

  it('names what is missing, counting javascript toward typescript', () => {
    const probe = rubric.probes.find((p) => p.id === 'exec.host-spawn')!;
    const thin: Probe = {
      ...probe,
      files: ['*.sh'],
      tests: {
        match: [{ lang: 'typescript', code: 'execSync(command)' }, { lang: 'javascript', code: 'execSync(cmd)' }, { lang: 'text', file: 'run.sh', code: 'sh -c "$1"' }],
        noMatch: [{ lang: 'typescript', code: 'spawn("git", ["status"])' }],
      },
    };
    expect(shortfalls(thin)).toEqual([
      'typescript: 1 noMatch (want 2)',
      'python: 0 match (want 2)',
      'python: 0 noMatch (want 2)',
      'rust: 0 match (want 2)',
      'rust: 0 noMatch (want 2)',
      'go: 0 match (want 2)',
      'go: 0 noMatch (want 2)',
      'files *.sh: 1 match (want 2)',
      'files *.sh: 0 noMatch (want 2)',
    ]);
    expect(shortfalls(probe)).toEqual([]);
  });

  it('lists in PENDING only existing probes that still fall short', () => {
    const byId = new Map(rubric.probes.map((p) => [p.id, p]));
    const stale = [...PENDING].filter((id) => !byId.has(id) || shortfalls(byId.get(id)!).length === 0);
    expect(stale, 'these probes are gone or pass now: remove them from PENDING').toEqual([]);
  });
});
