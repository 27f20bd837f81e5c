import { describe, expect, it } from 'vitest';
import type { Definition, FileFacts } from '../../src/facts/extract.js';
import { lineStartsOf } from '../../src/inventory/lines.js';
import { buildGraph, resolve } from '../../src/model/graph.js';

/** Properly nested function ranges inside [lo, hi), as a syntax tree gives them (siblings disjoint, children inside). */
function nested(rand: () => number, lo: number, hi: number, depth: number, out: Definition[]): void {
  let at = lo;
  while (depth > 0 && at < hi - 4 && rand() < 0.7) {
    const start = at + Math.floor(rand() * 3);
    const end = Math.min(hi, start + 2 + Math.floor(rand() * (hi - start)));
    if (end <= start) break;
    out.push({ name: `f${out.length}`, role: 'function', start, end, nameAt: start, entry: false });
    // Sometimes a unit that starts where its parent starts (`const f = () => …` and its arrow).
    if (rand() < 0.2 && end - start > 2) out.push({ name: `f${out.length}`, role: 'function', start, end: end - 1, nameAt: start, entry: false });
    nested(rand, start + 1, end - 1, depth - 1, out);
    at = end + Math.floor(rand() * 3);
  }
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('call graph units', () => {
  it('gives each call to the innermost unit around it, as trying every unit would', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = seeded(seed);
      const text = 'x'.repeat(400);
      const definitions: Definition[] = [];
      nested(rand, 0, text.length, 4, definitions);
      definitions.sort((a, b) => a.start - b.start || b.end - a.end);
      const calls: Array<[string, number]> = Array.from({ length: 60 }, (_, i) => [`c${i}`, Math.floor(rand() * text.length)] as [string, number]).sort((a, b) => a[1] - b[1]);
      const facts: FileFacts = { findings: [], nonCode: [], definitions, calls };
      const graph = buildGraph([{ path: 'a.ts', language: 'typescript', text, lineStarts: lineStartsOf(text) }], new Map([['a.ts', facts]]), []);
      const units = graph.byFile.get('a.ts')!;
      // The reference: of the units covering the offset, the one starting last (the later in source order on a tie).
      const expected = (offset: number) => {
        let best = units[0]!;
        for (const u of units.slice(1)) if (u.start <= offset && offset < u.end && u.start >= best.start) best = u;
        return best.name;
      };
      for (const [call, at] of calls) {
        const owner = units.find((u) => u.calls.some((c) => c[0] === call))!;
        expect(owner.name, `seed ${seed}, call at ${at}`).toBe(expected(at));
      }
      expect(units.reduce((n, u) => n + u.calls.length, 0)).toBe(calls.length);
    }
  });

  it('never follows a call on an object the JavaScript runtime provides into the repository', () => {
    const helper = 'export function execCommand(cmd) { return run(cmd) }\n';
    const page = 'function copy() { document.execCommand("copy"); console.log("x"); execCommand("ls") }\n';
    const def = (text: string, name: string): Definition => ({ name, role: 'function', start: text.indexOf('function'), end: text.length - 1, nameAt: text.indexOf(name), entry: false });
    const files = [
      { path: 'scripts/helper.js', language: 'javascript' as const, text: helper, lineStarts: lineStartsOf(helper) },
      { path: 'src/page.ts', language: 'typescript' as const, text: page, lineStarts: lineStartsOf(page) },
    ];
    const facts = new Map<string, FileFacts>([
      ['scripts/helper.js', { findings: [], nonCode: [], definitions: [def(helper, 'execCommand')], calls: [['run', helper.indexOf('run(')]] }],
      ['src/page.ts', { findings: [], nonCode: [], definitions: [def(page, 'copy')], calls: [['document.execCommand', page.indexOf('document')], ['console.log', page.indexOf('console')], ['execCommand', page.lastIndexOf('execCommand')]] }],
    ]);
    const graph = buildGraph(files, facts, []);
    const copy = graph.byFile.get('src/page.ts')!.find((u) => u.name === 'copy')!;
    expect(resolve(graph, copy, 'document.execCommand')).toEqual([]);
    // The repository's own function, called by its bare name, is still followed.
    expect(resolve(graph, copy, 'execCommand').map((f) => f.path)).toEqual(['scripts/helper.js']);
  });
  it("does not take a method two fields down from the unit's object for the unit's own class's method of that name", () => {
    const text = 'class Agent:\n    def run(self, task):\n        return self.run_command(task)\n\n    def run_command(self, command):\n        self.sandbox.commands.run(command)\n        self.run(command)\n';
    const at = (needle: string, from = 0) => text.indexOf(needle, from);
    const unit = (name: string, end: number, method = true): Definition => ({ name, role: method ? 'function' : 'class', start: at(name === 'Agent' ? 'class' : `def ${name}`), end, nameAt: at(name), entry: false, ...(method ? { method: true } : {}) });
    const definitions = [unit('Agent', text.length, false), unit('run', at('\n\n')), unit('run_command', text.length - 1)];
    const calls: Array<[string, number]> = [['self.run_command', at('self.run_command')], ['self.sandbox.commands.run', at('self.sandbox')], ['self.run', at('self.run(command)')]];
    const graph = buildGraph([{ path: 'agent.py', language: 'python', text, lineStarts: lineStartsOf(text) }], new Map([['agent.py', { findings: [], nonCode: [], definitions, calls }]]), []);
    const runCommand = graph.byFile.get('agent.py')!.find((u) => u.name === 'run_command')!;
    expect(resolve(graph, runCommand, 'self.sandbox.commands.run')).toEqual([]);
    // The unit's own object's method is still followed.
    expect(resolve(graph, runCommand, 'self.run').map((f) => f.name)).toEqual(['run']);
  });
  it("follows a variable's method to the repository's one definition of it only inside the caller's own project", () => {
    const store = 'class Store:\n    def save(self, data):\n        open("state.json", "w").write(data)\n';
    const frames = 'def encode(img):\n    img.save(buf, format="JPEG")\n';
    const py = (path: string, text: string) => ({ path, language: 'python' as const, text, lineStarts: lineStartsOf(text) });
    const manifest = (path: string) => ({ path, language: null, text: '[project]\n', lineStarts: [0] });
    const defs = (text: string, name: string, method: boolean): Definition[] => [{ name, role: 'function', start: text.indexOf('def'), end: text.length - 1, nameAt: text.indexOf(name), entry: false, ...(method ? { method: true } : {}) }];
    const graphOf = (storePath: string, framesPath: string, manifests: string[]) =>
      buildGraph([py(storePath, store), py(framesPath, frames), ...manifests.map(manifest)], new Map<string, FileFacts>([
        [storePath, { findings: [], nonCode: [], definitions: defs(store, 'save', true), calls: [] }],
        [framesPath, { findings: [], nonCode: [], definitions: defs(frames, 'encode', false), calls: [['img.save', frames.indexOf('img.save')]] }],
      ]), []);
    // Two projects of a monorepo, each with its own manifest: an image's save is not the other project's Store.save.
    const mono = graphOf('libs/deploy/deploy/state.py', 'libs/agent/agent/frames.py', ['libs/deploy/pyproject.toml', 'libs/agent/pyproject.toml']);
    expect(resolve(mono, mono.byFile.get('libs/agent/agent/frames.py')!.find((u) => u.name === 'encode')!, 'img.save')).toEqual([]);
    // One project: the one definition is still followed.
    const one = graphOf('app/state.py', 'app/frames.py', ['pyproject.toml']);
    expect(resolve(one, one.byFile.get('app/frames.py')!.find((u) => u.name === 'encode')!, 'img.save').map((f) => f.name)).toEqual(['save']);
  });
});

describe('call resolution by name', () => {
  /** A file of `count` top-level functions named `run` and one function `main` calling `call`. */
  const file = (path: string, count: number, call?: string) => {
    const parts = Array.from({ length: count }, () => 'function run() {}');
    if (call) parts.push(`function main() { ${call}(); }`);
    const text = `${parts.join('\n')}\n`;
    const definitions: Definition[] = [];
    let at = 0;
    for (const p of parts) {
      const name = p.startsWith('function main') ? 'main' : 'run';
      definitions.push({ name, role: 'function', start: at, end: at + p.length, nameAt: at + 9, entry: false });
      at += p.length + 1;
    }
    const calls: Array<[string, number]> = call ? [[call, text.indexOf(`${call}()`)]] : [];
    return { source: { path, language: 'typescript' as const, text, lineStarts: lineStartsOf(text) }, facts: { findings: [], nonCode: [], definitions, calls } as FileFacts };
  };
  const graphOf = (...files: Array<ReturnType<typeof file>>) => buildGraph(files.map((f) => f.source), new Map(files.map((f) => [f.source.path, f.facts])), []);
  const mainOf = (g: ReturnType<typeof graphOf>, path: string) => g.byFile.get(path)!.find((u) => u.name === 'main')!;

  it('follows a call to every definition of its name in its own file, up to sixteen, in source order', () => {
    const g = graphOf(file('src/a.ts', 16, 'run'), file('src/b.ts', 2));
    const targets = resolve(g, mainOf(g, 'src/a.ts'), 'run');
    expect(targets.map((t) => `${t.path}:${t.start}`)).toEqual(g.byFile.get('src/a.ts')!.filter((u) => u.name === 'run').map((u) => `${u.path}:${u.start}`));
    expect(targets).toHaveLength(16);
    expect(g.unresolvedCalls.size).toBe(0);
  });

  it('counts a call whose own file or named module defines its name more than sixteen times as ambiguous, and follows none', () => {
    const g = graphOf(file('src/a.ts', 17, 'run'), file('src/m/utils.ts', 17), file('src/c.ts', 0, 'utils.run'), file('src/d.ts', 0, 'b.run'), file('src/b.ts', 3));
    expect(resolve(g, mainOf(g, 'src/a.ts'), 'run')).toEqual([]);
    expect(resolve(g, mainOf(g, 'src/c.ts'), 'utils.run')).toEqual([]);
    expect(g.unresolvedCalls.size).toBe(2);
    // A module with three: all three, in order.
    expect(resolve(g, mainOf(g, 'src/d.ts'), 'b.run').map((t) => t.path)).toEqual(['src/b.ts', 'src/b.ts', 'src/b.ts']);
  });
});
