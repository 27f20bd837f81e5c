import { describe, expect, it } from 'vitest';
import { summaryParagraph } from '../src/render/prose.js';
import { auditedFixture } from './helpers.js';

/**
 * The summary names one unasked path as its example. go-hidden-safe-prefix has two: `shell`, past a
 * "safe command" prefix check that lets chained commands through, and `fetch`, which nothing asks
 * about. Whatever order the tools come in, the example is the path an ask stands on without
 * holding: the tool the approval was built for, and the reason the cap fires.
 */
describe('the summary example of an unasked path', () => {
  it('is the command past the ask that does not hold, not the first tool listed', async () => {
    const { report } = await auditedFixture('go-hidden-safe-prefix');
    const tools = report.agent!.tools;
    expect(tools.map((t) => t.name).slice(0, 2)).toEqual(['shell', 'fetch']);
    report.agent!.tools = [tools[1]!, tools[0]!, ...tools.slice(2)];
    const text = summaryParagraph(report);
    expect(text).toContain('act with nobody asked: `shell` runs commands, past a "safe command" check that lets chained commands through ([shell.go:40](shell.go#L40))');
    expect(text).toContain('Commands run on the host as the user, with the user\'s files, network and environment ([shell.go:40](shell.go#L40))');
  });
});

describe('the summary example of a command on the host', () => {
  it('is the one fewest calls below its tool, whatever order the tools come in', async () => {
    const { report } = await auditedFixture('go-hidden-safe-prefix');
    const shell = report.agent!.tools.find((t) => t.name === 'shell')!;
    const path = shell.paths.find((p) => p.kind === 'exec')!;
    // A second tool whose command runs five calls down, listed first, with no ask in its way.
    const deep = { ...shell, name: 'deep', paths: [{ ...path, gate: null, via: ['a', 'b', 'c', 'd', 'e'], sink: { ...path.sink, path: 'deep.go', line: 7, link: 'deep.go#L7' } }] };
    report.agent!.tools = [deep, ...report.agent!.tools.map((t) => (t === shell ? { ...t, paths: t.paths.map((p) => ({ ...p, gate: null })) } : t))];
    expect(summaryParagraph(report)).toContain("Commands run on the host as the user, with the user's files, network and environment ([shell.go:40](shell.go#L40))");
  });
});

describe('the summary of two unasked tools of one name', () => {
  it('names the name once and says it with a singular verb (one adapter method in each adapter file)', async () => {
    const { report } = await auditedFixture('go-hidden-safe-prefix');
    const shell = report.agent!.tools.find((t) => t.name === 'shell')!;
    const open = shell.paths.map((p) => ({ ...p, gate: null }));
    const twin = { ...shell, paths: open.map((p) => ({ ...p, sink: { ...p.sink, path: 'other.go', link: 'other.go#L40' } })) };
    report.agent!.tools = [{ ...shell, paths: open }, twin];
    const text = summaryParagraph(report);
    expect(text).toContain('`shell` acts with nobody asked');
    expect(text).not.toContain('`shell` and `shell`');
  });
});
