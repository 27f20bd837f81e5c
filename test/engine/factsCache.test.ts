import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FactsCache } from '../../src/facts/cache.js';
import { ROOT, RUBRIC } from '../helpers.js';

const facts = (probe: string) => JSON.stringify({ findings: [{ probe, startLine: 1, endLine: 1, text: 'é ✓', at: 0 }], nonCode: [], definitions: [] });
const setDir = (cache: string) => join(cache, 'facts', readdirSync(join(cache, 'facts'))[0]!);
const packs = (cache: string) => (existsSync(join(cache, 'facts')) ? readdirSync(setDir(cache)).filter((f) => f.endsWith('.pack')).sort() : []);

describe('the facts cache keeps an audit in one pack', () => {
  it('answers each stored key with its entry, across packs, and misses the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    const cache = new FactsCache(dir, 'build', 'plan');
    cache.store([
      [cache.key('a.ts', '1'), facts('p.a')],
      [cache.key('b.ts', '1'), facts('p.b')],
    ]);
    cache.store([[cache.key('c.ts', '1'), facts('p.c')]]);
    expect(packs(dir)).toHaveLength(2);
    const { found, packsRead } = cache.lookup([cache.key('a.ts', '1'), cache.key('c.ts', '1'), cache.key('a.ts', '2')]);
    expect(packsRead).toBe(2);
    expect([...found.keys()].sort()).toEqual([cache.key('a.ts', '1'), cache.key('c.ts', '1')].sort());
    // Multi-byte text: offsets are bytes, so the entry reads back whole.
    expect(found.get(cache.key('a.ts', '1'))!.json).toBe(facts('p.a'));
    expect(found.get(cache.key('c.ts', '1'))!.facts.findings.map((f) => f.probe)).toEqual(['p.c']);
  });

  it('reads a damaged or foreign pack as a miss and still answers from the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    const cache = new FactsCache(dir, 'build', 'plan');
    cache.store([[cache.key('a.ts', '1'), facts('p.a')]]);
    const [good] = packs(dir);
    cache.store([[cache.key('b.ts', '1'), facts('p.b')]]);
    const damaged = packs(dir).find((p) => p !== good)!;
    truncateSync(join(setDir(dir), damaged), 60);
    writeFileSync(join(setDir(dir), 'junk.pack'), 'not a pack\n[["x",0,5]]\nhello');
    const { found } = cache.lookup([cache.key('a.ts', '1'), cache.key('b.ts', '1'), 'x']);
    expect([...found.keys()]).toEqual([cache.key('a.ts', '1')]);
  });

  it('keeps the most recently used packs when pruning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    const cache = new FactsCache(dir, 'build', 'plan');
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    for (let i = 0; i < 6; i++) {
      const before = new Set(packs(dir));
      cache.store([[cache.key(`f${i}.ts`, '1'), facts(`p${i}`)]]);
      // Each pack a second older than the next: the order pruning reads.
      const added = packs(dir).find((p) => !before.has(p))!;
      utimesSync(join(setDir(dir), added), at(i), at(i));
    }
    // The first pack is read by an audit: it becomes the most recently used.
    expect(cache.lookup([cache.key('f0.ts', '1')]).found.size).toBe(1);
    // A pack a killed run left half written: stale after an hour, and never read as a pack.
    const stale = join(setDir(dir), 'abc.pack.123.0.tmp');
    writeFileSync(stale, 'half');
    utimesSync(stale, at(0), at(0));
    cache.prune(9, 2);
    expect(packs(dir)).toHaveLength(2);
    expect(existsSync(stale)).toBe(false);
    expect(cache.lookup([cache.key('f0.ts', '1')]).found.size).toBe(1);
  });

  it('two processes storing at once leave whole packs and no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    const module = pathToFileURL(join(ROOT, 'dist', 'facts', 'cache.js')).href;
    const script = (n: number) => `
      const { FactsCache } = await import(${JSON.stringify(module)});
      const cache = new FactsCache(${JSON.stringify(dir)}, 'build', 'plan');
      const entries = Array.from({ length: 2000 }, (_, i) => [cache.key('f' + i + '.ts', '${n}'), JSON.stringify({ findings: [], nonCode: [i], definitions: [{ name: 'p${n}', role: 'function', start: 0, end: 1, nameAt: 0, entry: false }] })]);
      cache.store(entries);`;
    const run = (n: number) =>
      new Promise<number>((resolve) => spawn(process.execPath, ['--input-type=module', '-e', script(n)], { stdio: 'ignore' }).on('exit', (code) => resolve(code ?? -1)));
    expect(await Promise.all([run(1), run(2), run(1)])).toEqual([0, 0, 0]);
    // Two distinct packs (the two runs that stored the same entries wrote the same pack).
    expect(readdirSync(setDir(dir))).toHaveLength(2);
    const cache = new FactsCache(dir, 'build', 'plan');
    const { found } = cache.lookup([cache.key('f1999.ts', '1'), cache.key('f0.ts', '2')]);
    expect(found.get(cache.key('f1999.ts', '1'))!.facts.nonCode).toEqual([1999]);
    expect(found.get(cache.key('f0.ts', '2'))!.facts.definitions.map((d) => d.name)).toEqual(['p2']);
  });

  it('adds a re-audit\'s changed files as a small pack, and every entry as one once they come from three packs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packs-'));
    // Entries per pack, newest first.
    const sizes = () =>
      readdirSync(setDir(dir))
        .filter((f) => f.endsWith('.pack'))
        .map((f) => ({ t: statSync(join(setDir(dir), f)).mtimeMs, n: (JSON.parse(readFileSync(join(setDir(dir), f), 'utf8').split('\n')[1]!) as unknown[]).length }))
        .sort((a, b) => b.t - a.t)
        .map((p) => p.n);
    // Each audit in a process of its own, as the CLI runs: this process would answer from its memory.
    const dist = (m: string) => JSON.stringify(pathToFileURL(join(ROOT, 'dist', m)).href);
    const audit = (a: number, b: number, d: number) =>
      new Promise<number[]>((resolve, reject) => {
        const script = `
          const { collectFacts } = await import(${dist('facts/index.js')});
          const { planOf } = await import(${dist('facts/plan.js')});
          const { loadRubricCached } = await import(${dist('cache/rubric.js')});
          const file = (path, n) => { const text = 'def ' + path[0] + '():\\n    return ' + n + '\\n'; return { path, language: 'python', text, lineStarts: [0, text.indexOf('\\n') + 1] }; };
          const got = await collectFacts([file('a.py', ${a}), file('b.py', ${b}), file('c.py', 0), file('d.py', ${d})], planOf(await loadRubricCached(${JSON.stringify(RUBRIC)}, ${JSON.stringify(join(dir, 'rubric'))})), { cache: { dir: ${JSON.stringify(dir)}, build: 'test' } });
          console.log(JSON.stringify([got.cached, got.extracted]));`;
        let out = '';
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`exit ${code}`))));
      });
    expect(await audit(1, 1, 1)).toEqual([0, 4]);
    expect(sizes()).toEqual([4]);
    // Each next commit changes one file: it alone is extracted, and written as a pack of its own.
    expect(await audit(2, 1, 1)).toEqual([3, 1]);
    expect(await audit(2, 3, 1)).toEqual([3, 1]);
    expect(sizes().sort()).toEqual([1, 1, 4]);
    // Now the cached entries come from three packs (a from the second, b from the third, c from
    // the first): all four are written again as one pack, the newest.
    expect(await audit(2, 3, 4)).toEqual([3, 1]);
    expect(sizes()[0]).toBe(4);
    expect(sizes()).toHaveLength(4);
  });
});
