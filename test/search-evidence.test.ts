import { describe, expect, it } from 'vitest';
import { rerunnableTerms } from '../src/probes/terms.js';
import { renderEvidence } from '../src/render/markdown.js';
import type { Evidence } from '../src/report/schema.js';
import type { Probe } from '../src/rubric/schema.js';

const textProbe = (pattern: string) => ({ id: 'test.probe', engine: 'text', pattern, ignoreCase: false }) as unknown as Probe;
const search = (terms: string, scope = ['src']): Evidence => ({ kind: 'search', probe: 'test.probe', command: 'syntax-tree search by the rules in rubrics/dids/probes/test.probe.yaml', terms, scope, filesSearched: 3, hits: 0, meaning: 'nothing', verified: true });

describe('a search shown short', () => {
  const files = [
    { path: 'src/shell.ts', text: 'spawn(cmd, { env: process.env });' },
    { path: 'docs/notes.ts', text: '// we should call env_clear here' },
  ];

  it('keeps its terms only where none of them occurs in a file read under the folders it names', () => {
    expect(rerunnableTerms(textProbe('env_clear|bwrap'), ['src'], files)).toBe('env_clear|bwrap');
    // The same terms over every folder: one sits in a comment there, so `rg` would not come back empty.
    expect(rerunnableTerms(textProbe('env_clear|bwrap'), ['.'], files)).toBeNull();
    expect(rerunnableTerms(textProbe('spawn|bwrap'), ['src'], files)).toBeNull();
    // A file named as the scope counts as itself.
    expect(rerunnableTerms(textProbe('env_clear'), ['docs/notes.ts'], files)).toBeNull();
  });

  it('is compared as rg compares it: literally and case-sensitively', () => {
    expect(rerunnableTerms(textProbe('Spawn'), ['src'], files)).toBe('Spawn');
    expect(rerunnableTerms(textProbe('cmd\\.env'), ['src'], files)).toBe('cmd.env');
  });

  it('renders as a command rg runs: terms literal, and after -e when one begins with a dash', () => {
    expect(renderEvidence(search('env_clear'))).toBe("searched `rg -n 'env_clear' src` → 0 hits (nothing)");
    expect(renderEvidence(search('.default(|yolo'))).toBe("searched `rg -n '\\.default\\(|yolo' src` → 0 hits (nothing)");
    expect(renderEvidence(search('--tmpfs|mask'))).toBe("searched `rg -n -e '--tmpfs|mask' src` → 0 hits (nothing)");
  });

  it('falls back to the search that was made when it has no short form', () => {
    const { terms: _, ...full } = search('x') as Extract<Evidence, { kind: 'search' }>;
    expect(renderEvidence(full)).toBe('searched `syntax-tree search by the rules in rubrics/dids/probes/test.probe.yaml src` → 0 hits (nothing)');
  });
});
