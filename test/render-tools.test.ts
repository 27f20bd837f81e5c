import { describe, expect, it } from 'vitest';
import { renderTools } from '../src/render/tools.js';
import type { AgentReport } from '../src/report/schema.js';

type Tool = AgentReport['tools'][number];
const place = (path: string, line: number) => ({ path, line, endLine: line, text: 'x', link: `${path}#L${line}`, verified: true });
const path = (kind: string, at: ReturnType<typeof place>) => ({ kind, sink: at, gated: false, isolated: false, gate: null, via: ['handler'] });
const tool = (name: string, paths: Array<ReturnType<typeof path>>): Tool =>
  ({ name, construct: 'registration-call', site: place('tools.go', 1), handler: null, reaches: [...new Set(paths.map((p) => p.kind))], status: 'ungated', gated: false, isolated: false, paths, morePaths: 0 }) as unknown as Tool;
const row = (t: Tool) => renderTools({ tools: [t], sinks: [], ambiguousCalls: [] } as unknown as AgentReport).find((l) => l.startsWith(`| \`${t.name}\``))!;

describe('the Tools section', () => {
  it('lists in "Can reach" the program start that "What stands in the way" says runs unasked', () => {
    // A search tool that reads files itself and starts ripgrep: the start is what acts unasked.
    const r = row(tool('grep', [path('read', place('grep.go', 10)), path('spawn', place('rg.go', 20))]));
    const [, , reach, guard] = r.split(' | ');
    expect(guard).toContain('**starts programs unasked**');
    expect(reach).toContain('starts programs ([rg.go:20]');
    expect(reach).toContain('reads files ([grep.go:10]');
  });

  it('leaves out a fixed program start beside a command it runs, as the guard weighs only the command', () => {
    const r = row(tool('shell', [path('exec', place('shell.go', 5)), path('spawn', place('rg.go', 20))]));
    const [, , reach, guard] = r.split(' | ');
    expect(guard).toContain('**runs commands unasked**');
    expect(reach).not.toContain('starts programs');
  });
});

describe('the Tools section with names no handler was found for', () => {
  it('gives each resolved tool its row and the unresolved names one row, with the first five linked', () => {
    const unresolved = ['isinstance', 'range', 'len', 'min', 'max', 'sum', 'abs'].map((n, i) => ({ ...tool(n, []), status: 'unresolved', site: place('executor.py', 70 + i) }) as Tool);
    const lines = renderTools({ tools: [tool('shell', [path('exec', place('shell.py', 5))]), ...unresolved], sinks: [], ambiguousCalls: [] } as unknown as AgentReport);
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Tool') && !l.startsWith('|---'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\| `shell` \|/);
    expect(rows[1]).toMatch(/^\| 7 names: `isinstance`, `range`, `len`, `min`, `max`, … 2 more \| \[executor\.py:70\]\(executor\.py#L70\), .*\[executor\.py:74\]\(executor\.py#L74\) \| not traced \| unknown: its handler, its callers or the calls it makes could not be followed; decides no level \|$/);
    expect(rows[1]).not.toContain('executor.py:75');
  });
});
