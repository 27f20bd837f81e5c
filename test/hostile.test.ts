import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants as fsConstants, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path, { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { acquire, InputError } from '../src/acquire/index.js';
import { audit } from '../src/audit.js';
import { main } from '../src/cli.js';
import { writeOutput } from '../src/commands/output.js';
import { buildInventory, DEFAULT_LIMITS, limitNotes, type Limits } from '../src/inventory/index.js';
import { extractFacts } from '../src/facts/extract.js';
import { planProbe } from '../src/facts/plan.js';
import { linearRegex, linearRegexError } from '../src/facts/re2.js';
import { mdCode, mdLink, mdText, mdUrl } from '../src/render/escape.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { reportSchema, type Report } from '../src/report/schema.js';
import { loadRubric } from '../src/rubric/load.js';
import type { Probe } from '../src/rubric/schema.js';
import { CLI, ROOT, RUBRIC } from './helpers.js';
import { arm, buildOutside, buildTree, commitHeavy, commitTree, git, HOSTILE_NAMES, payload, type HostileOptions } from './hostile/build.js';
import { expectUnbrokenScorecard, unescaped } from './hostile/markdown.js';

const LIMITS: Limits = { ...DEFAULT_LIMITS };

let tmp: string;
let outside: string;
let marker: string;
let secret: string;
let heavy: string; // local repository: 20,000 files, a 50 MB file, regex stress, armed hooks and config
let heavyCommit: string;
let light: string; // the same hostile tree without the heavy parts, as a local repository
let folder: string; // the same hostile tree as a plain folder
let options: HostileOptions;

const timings: string[] = [];
async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await f();
  } finally {
    timings.push(`${label}: ${Math.round(performance.now() - t)} ms`);
  }
}

beforeAll(() => {
  tmp = mkdtempSync(join(os.tmpdir(), 'hostile-'));
  outside = join(tmp, 'outside');
  secret = `OUTSIDE_SECRET_${randomBytes(6).toString('hex')}`;
  marker = join(outside, 'PWNED');
  buildOutside(outside, secret);
  const script = payload(outside, marker);
  const rubric = loadRubric(RUBRIC);
  const snippets = rubric.probes.flatMap((p) => p.tests.match.filter((s) => s.lang === 'typescript' && !s.file).slice(0, 1).map((s) => s.code));
  options = { outside, marker, secret, snippets, probes: rubric.probes, lineChars: 10_000 };
  const t = performance.now();
  heavy = join(tmp, 'heavy');
  buildTree(heavy, options);
  commitTree(heavy);
  heavyCommit = commitHeavy(heavy, options);
  arm(heavy, script);
  light = join(tmp, 'light');
  buildTree(light, options);
  commitTree(light);
  arm(light, script);
  folder = join(tmp, 'folder');
  buildTree(folder, options);
  writeFileSync(join(folder, 'huge.ts'), '');
  truncateSync(join(folder, 'huge.ts'), 50 * 1024 * 1024); // sparse: 50 MB without writing them
  timings.push(`build hostile repositories: ${Math.round(performance.now() - t)} ms`);
}, 120_000);

afterAll(() => {
  console.log(`hostile timings:\n  ${timings.join('\n  ')}`);
  rmSync(tmp, { recursive: true, force: true });
});

/** Everything a report must never contain or cause, whatever the target. */
function expectSafe(report: Report): string {
  const md = renderMarkdown(report);
  const json = JSON.stringify(report, null, 2);
  expect(existsSync(marker), 'a payload of the target ran').toBe(false);
  expect(md).not.toContain(secret);
  expect(json).not.toContain(secret);
  expect(md).not.toMatch(/root:x:0:0/);
  expect(json).not.toMatch(/root:x:0:0/);
  expect(() => reportSchema.parse(JSON.parse(json))).not.toThrow();
  expectUnbrokenScorecard(md);
  return md;
}

/** Hostile names that reached the scorecard as evidence (escaped as the renderer escapes them). */
function hostileNamesShown(md: string): string[] {
  return HOSTILE_NAMES.filter((n) => md.includes(mdText(`src/${n}`)));
}

describe('a hostile repository', () => {
  it('local repository, pinned: nothing runs, nothing from outside, markdown unbroken, every bound applied and listed', async () => {
    // Pinned, so the 20,000 files are read from objects only (HEAD would also hash the working tree).
    const report = await timed('audit heavy local repository', () => audit(heavy, { rubricDir: RUBRIC, commit: heavyCommit, limits: LIMITS }));
    const md = expectSafe(report);
    const limitations = report.limitations.join('\n');

    // The target's package.json description is "What it is", on one escaped line.
    const what = md.split('\n').filter((l) => l.startsWith('**What it is:**'));
    expect(what).toHaveLength(1);
    expect(what[0]).toContain('\\# Injected heading \\| a \\| b \\| &lt;script&gt;alert(1)&lt;/script&gt; \\](javascript:alert(1))');
    // Its .audit.yaml name is the title, escaped.
    expect(md.split('\n')[0]).toBe(`# Defense-in-Depth Score: ${mdText('evil # heading | x | <script>alert(1)</script>')}`);

    // Hostile file names are cited as evidence, escaped.
    const shown = hostileNamesShown(md);
    expect(shown.length, `hostile names in the scorecard: ${shown.map((s) => JSON.stringify(s)).join(', ')}`).toBeGreaterThanOrEqual(3);

    // Symlinks and gitlinks are listed, never followed; the 50 MB file, the 200-deep file and the binary are never read.
    const ex = report.inventory.excluded;
    expect(ex['symlink']?.count).toBe(10);
    expect(ex['submodule']?.count).toBe(2);
    expect(ex['oversize']?.examples).toEqual(['big/huge.ts']);
    expect(ex['depth']?.examples).toEqual([`${'d/'.repeat(200)}x.ts`]);
    expect(ex['binary']?.examples).toContain('src/binary.ts');
    expect(report.inventory.filesScanned).toBeGreaterThan(20_000);
    expect(limitations).toContain('Not read, larger than 1 MiB: 1 file (big/huge.ts).');
    expect(limitations).toContain(`Not read, nested deeper than 64 folders: 1 file (${'d/'.repeat(200)}x.ts).`);
    // Patterns run in linear time: the files built to make a backtracking engine hang were searched, none skipped.
    expect(limitations).not.toMatch(/skipped|stopped after/);
    expect(report.target.commit).toBe(heavyCommit);
  }, 120_000);

  it('the same tree as a plain folder: symlinks, loops and 200 levels listed, never followed, relative links stay inert', async () => {
    const report = await timed('audit plain folder', () => audit(folder, { rubricDir: RUBRIC, limits: LIMITS }));
    const md = expectSafe(report);
    expect(report.target.kind).toBe('folder');
    expect(report.inventory.excluded['symlink']?.count).toBe(10);
    expect(report.inventory.excluded['oversize']?.examples).toEqual(['huge.ts']);
    // The walk stops at 64 levels and the report says so.
    expect(report.limitations.join('\n')).toContain('The file listing stopped early');
    expect(hostileNamesShown(md).length).toBeGreaterThanOrEqual(3);
    // Relative links to hostile names are percent-encoded, never a scheme.
    const destinations = [...md.matchAll(/(?<=(?:^|[^\\])(?:\\\\)*)\]\(([^)\s]*)\)/g)].map((m) => m[1]!);
    expect(destinations.length).toBeGreaterThan(10);
    for (const d of destinations) expect(d, d).not.toMatch(/^(?!https:\/\/)([a-z][a-z0-9+.-]*:|\/\/)/i);
  }, 60_000);

  it('at HEAD with its working tree, and cloned from a file:// URL: no hook, filter, fsmonitor, submodule or LFS fetch runs', async () => {
    const commit = git(light, 'rev-parse', 'HEAD');
    const head = await timed('audit light repository at HEAD', () => audit(light, { rubricDir: RUBRIC, limits: LIMITS }));
    const md = expectSafe(head);
    expect(head.target).toMatchObject({ commit, dirtyFiles: 0, webUrl: 'https://github.com/evil-org/evil-repo' });
    expect(hostileNamesShown(md).length).toBeGreaterThanOrEqual(3);
    const cacheDir = join(tmp, 'cache-clone');
    const snap = await acquire(`file://${light}`, { cacheDir });
    expect(snap.commit).toBe(commit);
    expect(snap.entries.filter((e) => e.kind === 'submodule').map((e) => e.path)).toEqual(['sub-a', 'sub-b']);
    const lfs = (await snap.read(['model.bin'], 1000)).get('model.bin')?.toString();
    expect(lfs).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\n/); // the pointer itself, not fetched content
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('applies the file-count, total-bytes and path-length bounds in path order, and lists what they left out', async () => {
    const snapshot = await acquire(light, {});
    const tight: Limits = { ...DEFAULT_LIMITS, maxFiles: 5, maxPathChars: 100 };
    const inv = await buildInventory(snapshot, tight);
    expect(inv.files).toHaveLength(5);
    // The 200-level path and the 240-character name; examples are cut to 200 characters.
    expect(inv.excluded['long-path']?.examples).toEqual([`${'d/'.repeat(100)}`, `src/${'L'.repeat(196)}`]);
    const notes = limitNotes(snapshot, inv, tight);
    expect(notes).toContain(`Not read, with a path longer than 100 characters: 2 files (${'d/'.repeat(100)}, src/${'L'.repeat(196)}).`);
    expect(notes.find((n) => n.startsWith('Not read, past the bound of 5 files or 128 MiB read: '))).toMatch(/: \d+ files \(.+, …\)\.$/);
    const bytes = await buildInventory(snapshot, { ...DEFAULT_LIMITS, maxTotalBytes: 4096 });
    expect(bytes.bytesRead).toBeLessThanOrEqual(4096);
    expect(bytes.excluded['limit']?.count).toBeGreaterThan(0);
  });

  it('searches no code file whose brackets nest past the bound, and lists it', async () => {
    // Matching grows with about the square of a nested chain's depth: a file of nothing but 40,000
    // nested brackets took 4.4 s more, and 1 MB of them would take hours.
    const dir = mkdtempSync(join(os.tmpdir(), 'nesting-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'deep.ts'), `export const x = ${'['.repeat(501)}${']'.repeat(501)};\n`);
    writeFileSync(join(dir, 'src', 'calls.py'), `x = ${'f('.repeat(501)}1${')'.repeat(501)}\n`);
    writeFileSync(join(dir, 'src', 'within.ts'), `export const y = ${'{a:'.repeat(500)}1${'}'.repeat(500)};\n`);
    writeFileSync(join(dir, 'src', 'data.json'), `${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const snapshot = await acquire(dir, {});
    const inv = await buildInventory(snapshot, LIMITS);
    expect(inv.files.map((f) => f.path)).toEqual(['src/data.json', 'src/within.ts']);
    expect(inv.excluded['nesting']).toEqual({ count: 2, examples: ['src/calls.py', 'src/deep.ts'] });
    expect(limitNotes(snapshot, inv, LIMITS)).toContain('Read but not searched, with brackets or chained operators nested deeper than 500 levels: 2 files (src/calls.py, src/deep.ts).');
  });

  it('counts a chain of operators as the nesting it is, wherever code may hold it, and not markup, data or prose', async () => {
    // The parser nests `a + a + …` one level per operator: 160,000 of them took 22 s more to match.
    const chain = (op: string) => `${`a ${op} `.repeat(501)}a`;
    const dir = mkdtempSync(join(os.tmpdir(), 'chains-'));
    mkdirSync(join(dir, 'src'));
    const files: Record<string, string> = {
      'src/sum.ts': `export const z = ${chain('+')};\n`,
      'src/lines.ts': `export const z =\n${'a ||\n'.repeat(501)}a\n`,
      'src/joined.py': `x = a ${'+ \\\n  a '.repeat(501)}\n`,
      'src/bool.py': `x = (${chain('and')})\n`,
      'src/template.ts': `export const t = \`${'${'}${chain('+')}}\`;\n`,
      'src/fstring.py': `x = f"{${chain('*')}}"\n`,
      // Statements without semicolons, markup, a base64 blob, an SVG path, a table in a comment: flat.
      'src/statements.ts': Array.from({ length: 2000 }, (_, i) => `const v${i} = a + b - c`).join('\n'),
      'src/page.tsx': `export const P = () => (\n  <div>\n${'    <p className="x">Hello - world!</p>\n    text + more\n'.repeat(600)}  </div>\n)\n`,
      'src/blob.ts': `export const b = '${'ab+/cd+/'.repeat(2000)}';\n`,
      'src/icon.tsx': `export const I = () => <path d="${'M1-2-3.5+4'.repeat(1000)}" />;\n`,
      'src/table.ts': `${'// | a | b | c |\n'.repeat(1000)}export const t = 1;\n`,
      'src/doc.py': `def f():\n    \"\"\"\n${'    | a | b | c |\n'.repeat(1000)}    \"\"\"\n    return 1\n`,
    };
    for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
    const inv = await buildInventory(await acquire(dir, {}), LIMITS);
    expect(inv.excluded['nesting']?.count).toBe(6);
    expect(inv.files.map((f) => f.path)).toEqual(['src/blob.ts', 'src/doc.py', 'src/icon.tsx', 'src/page.tsx', 'src/statements.ts', 'src/table.ts']);
  });

  it('positive control: ordinary git in the armed repository does run the payload', () => {
    try {
      git(light, 'status');
    } catch {
      /* the payload exits 1 */
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });
});

describe('a local repository that reads another one', () => {
  let n = 0;
  const fresh = () => {
    const d = join(tmp, `layout-${n++}`);
    mkdirSync(d);
    git(d, 'init', '-q');
    writeFileSync(join(d, 'a.ts'), 'export const a = 1;\n');
    git(d, 'add', '-A');
    git(d, 'commit', '-q', '-m', 'x');
    return d;
  };
  const other = () => join(outside, 'repo', '.git');
  const otherHead = () => git(join(outside, 'repo'), 'rev-parse', 'HEAD');

  it.each([
    ['a .git file naming a repository outside the folder', (d: string) => {
      rmSync(join(d, '.git'), { recursive: true });
      writeFileSync(join(d, '.git'), `gitdir: ${other()}\n`);
    }, /\.git points to .* outside the folder/],
    ['objects/info/alternates', (d: string) => {
      writeFileSync(join(d, '.git/objects/info/alternates'), `${join(other(), 'objects')}\n`);
      writeFileSync(join(d, '.git/refs/heads/main'), `${otherHead()}\n`);
    }, /borrows objects from elsewhere \(objects\/info\/alternates\)/],
    ['a symlinked objects folder and ref', (d: string) => {
      rmSync(join(d, '.git/objects'), { recursive: true });
      symlinkSync(join(other(), 'objects'), join(d, '.git/objects'));
      rmSync(join(d, '.git/refs/heads/main'));
      symlinkSync(join(other(), 'refs/heads/main'), join(d, '.git/refs/heads/main'));
    }, /objects in its git directory is a symlink/],
    ['a symlinked ref alone', (d: string) => {
      rmSync(join(d, '.git/refs/heads/main'));
      symlinkSync(join(other(), 'refs/heads/main'), join(d, '.git/refs/heads/main'));
    }, /refs\/heads\/main in its git directory is a symlink/],
    ['a commondir file', (d: string) => writeFileSync(join(d, '.git/commondir'), `${other()}\n`), /commondir/],
    ['a config include', (d: string) => writeFileSync(join(d, '.git/config'), `${readFileSync(join(d, '.git/config'), 'utf8')}[include]\n\tpath = ${join(other(), 'config')}\n`), /config includes other files/],
  ])('refuses %s with a one-line InputError, reading nothing of it', async (_what, arm, message) => {
    const d = fresh();
    arm(d);
    const err = await acquire(d, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
    expect((err as Error).message).not.toContain(secret);
  });

  it('accepts a worktree git created, which shares the main repository on purpose', async () => {
    const d = fresh();
    const wt = join(tmp, 'worktree');
    git(d, 'worktree', 'add', '-q', wt);
    git(d, 'remote', 'add', 'origin', 'https://github.com/octo/thing.git');
    const s = await acquire(wt, {});
    expect(s.entries.map((e) => e.path)).toEqual(['a.ts']);
    expect(s.dirtyFiles).toBe(0);
    expect(s.webUrl).toBe('https://github.com/octo/thing'); // from the main repository's config
  });

  it('drops tree entries named .. that point out of the working tree', async () => {
    const d = fresh();
    writeFileSync(join(tmp, 'passwd'), `${secret}\n`); // where ../passwd would land from the work tree
    const blob = git(d, 'hash-object', '-w', join(tmp, 'passwd'));
    const inner = execGit(d, ['mktree'], `100644 blob ${blob}\tpasswd\n`);
    const raw = Buffer.concat([Buffer.from('40000 ..\0'), Buffer.from(inner, 'hex'), Buffer.from('100644 ok.ts\0'), Buffer.from(blob, 'hex')]);
    const tree = execGit(d, ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], raw);
    const commit = git(d, 'commit-tree', tree, '-m', 'crafted');
    git(d, 'update-ref', 'refs/heads/main', commit);
    expect(git(d, 'ls-tree', '-r', '--name-only', commit)).toContain('../passwd'); // git itself lists it
    const s = await acquire(d, {});
    expect(s.entries.map((e) => e.path)).toEqual(['ok.ts']);
  });

  it('refuses a short commit id that a branch of the same name shadows', async () => {
    const d = fresh();
    const first = git(d, 'rev-parse', 'HEAD');
    writeFileSync(join(d, 'b.ts'), 'x\n');
    git(d, 'add', '-A');
    git(d, 'commit', '-q', '-m', 'second');
    const short = first.slice(0, 8);
    git(d, 'branch', short, 'HEAD'); // the branch points at the second commit
    await expect(acquire(d, { commit: short })).rejects.toThrow(/names a branch or tag pointing to .*not a commit starting with/);
    expect((await acquire(d, { commit: first })).commit).toBe(first);
  });
});

/** git with bytes on stdin (crafted objects). */
function execGit(cwd: string, args: string[], input: string | Buffer): string {
  const r = spawnSync('git', args, { cwd, input, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return String(r.stdout).trim();
}

describe('the clone cache', () => {
  const url = () => `file://${light}`;
  const entryOf = (cacheDir: string) => {
    const [owner] = readdirSync(join(cacheDir, 'file'));
    return join(cacheDir, 'file', owner!, 'light.git');
  };

  it('two concurrent runs on one target share one valid entry and leave nothing else behind', async () => {
    const cacheDir = join(tmp, 'cache-concurrent');
    const [a, b] = await Promise.all([acquire(url(), { cacheDir }), acquire(url(), { cacheDir })]);
    expect(a.commit).toBe(git(light, 'rev-parse', 'HEAD'));
    expect(b.commit).toBe(a.commit);
    const entry = entryOf(cacheDir);
    expect(readdirSync(path.dirname(entry))).toEqual(['light.git']);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(entry)).mode & 0o777).toBe(0o700);
    expect((await a.read(['package.json'], 1 << 20)).get('package.json')?.toString()).toContain('"name": "evil"');
  });

  it('breaks a stale lock, waits for a live one', async () => {
    const cacheDir = join(tmp, 'cache-locks');
    await acquire(url(), { cacheDir });
    const lock = `${entryOf(cacheDir)}.lock`;
    // A holder that no longer exists.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(lock, JSON.stringify({ pid: Number(dead), host: os.hostname(), token: 'dead', since: Date.now() }));
    await acquire(url(), { cacheDir });
    expect(existsSync(lock)).toBe(false);
    // A live holder (this process): the run waits until it lets go.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'live', since: Date.now() }));
    setTimeout(() => rmSync(lock), 400);
    const t = performance.now();
    await acquire(url(), { cacheDir });
    expect(performance.now() - t).toBeGreaterThanOrEqual(350);
    expect(readdirSync(path.dirname(lock))).toEqual(['light.git']);
  });

  it('replaces an entry that is not a clone of the URL, and removes leftovers of dead runs', async () => {
    const cacheDir = join(tmp, 'cache-invalid');
    await acquire(url(), { cacheDir });
    const entry = entryOf(cacheDir);
    // Half a clone from a killed run, and an entry that is junk.
    mkdirSync(join(path.dirname(entry), '.light.git.tmp-dead'));
    rmSync(entry, { recursive: true });
    mkdirSync(entry);
    writeFileSync(join(entry, 'HEAD'), 'junk');
    expect((await acquire(url(), { cacheDir })).commit).toBe(git(light, 'rev-parse', 'HEAD'));
    expect(readdirSync(path.dirname(entry))).toEqual(['light.git']);
    // An entry cloned from another URL is not trusted for this one.
    git(entry, 'config', 'remote.origin.url', `file://${outside}/repo`);
    writeFileSync(join(entry, 'planted'), '');
    await acquire(url(), { cacheDir });
    expect(existsSync(join(entry, 'planted'))).toBe(false);
  });

  it('refuses a cache folder others can write to', async () => {
    const cacheDir = join(tmp, 'cache-shared');
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    await expect(acquire(url(), { cacheDir })).rejects.toThrow(/cache folder .* is not private/);
  });
});

describe('patterns over the target text run in linear time (RE2)', () => {
  it('a pattern that backtracks exponentially in JavaScript finishes and finds what it should', () => {
    expect(linearRegex('(a+)+b').matches(`${'a'.repeat(5_000)}\n`, 10)).toEqual([]);
    expect(linearRegex('(a+)+b').matches('aaab', 10).map((m) => m.text)).toEqual(['aaab']);
    const blank = `${'\n'.repeat(200_000)}X`;
    expect(linearRegex('^\\s*X').matches(blank, 10).map((m) => m.start)).toEqual([0]);
  });

  it('searches a 1 MB line of a config file whole, keeping line numbers', () => {
    const probe = { id: 'p', title: 'p', absent: 'p', criteria: ['C1'], engine: 'text', languages: [], files: ['*.yaml'], ignoreCase: false, pattern: 'print\\([^\\n]*\\btoken\\b', tests: { match: [], noMatch: [] } } as unknown as Probe;
    const text = `a: 1\nb: ${'print('.repeat(200_000)} token\n`;
    const facts = extractFacts({ path: 'x.yaml', language: null, text }, { key: '', probes: [planProbe(probe)] });
    expect(facts.findings.map((f) => [f.startLine, f.endLine])).toEqual([[2, 2]]);
  });

  it('refuses a rubric pattern RE2 cannot run (lookaround, backreferences), naming the file', () => {
    expect(linearRegexError('(?<=a)b')).toMatch(/invalid|lookbehind|named/i);
    expect(linearRegexError('(a)\\1')).not.toBeNull();
    expect(linearRegexError('ab|cd')).toBeNull();
  });
});

describe('escaping', () => {
  it('keeps target text on one inert line', () => {
    expect(mdText('a|b `c` [x](javascript:y) <script>&amp; $x$ ~~s~~ *e* _u_ {{h}}')).toBe('a\\|b \\`c\\` \\[x\\](javascript:y) &lt;script&gt;&amp;amp; \\$x\\$ \\~\\~s\\~\\~ \\*e\\* \\_u\\_ \\{\\{h\\}\\}');
    expect(mdText('x\ny\r\nz\u2028w\u0085v')).toBe('x y z w v');
    expect(mdText('\u202egnp.ts\u200b\u2066\u061c\u0090')).toBe('gnp.ts');
    for (const [input, out] of [['# h', '\\# h'], ['- item', '\\- item'], ['+ item', '\\+ item'], ['1. item', '1\\. item'], ['2) item', '2\\) item'], ['===', '\\==='], ['---', '\\---'], ['#hashtag', '#hashtag'], ['3.14', '3.14'], ['-1', '-1']]) {
      expect(mdText(input!), input).toBe(out);
    }
  });

  it('code spans cannot be closed early, links cannot leave http(s) or the report', () => {
    expect(mdCode('a ``b`` c')).toBe('```a ``b`` c```');
    expect(mdCode('`x`')).toBe('`` `x` ``');
    expect(mdCode('a\nb\u202e')).toBe('`a b`');
    expect(mdUrl('javascript:alert(1)')).toBe('./javascript:alert%281%29');
    expect(mdUrl('JaVaScRiPt:x')).toBe('./JaVaScRiPt:x');
    expect(mdUrl('//evil.example/x')).toBe('.///evil.example/x');
    expect(mdUrl('src/a b)(<>[]`|"\'\n.ts#L1')).toBe('src/a%20b%29%28%3C%3E%5B%5D%60%7C%22%27%0A.ts#L1');
    expect(mdUrl('https://github.com/o/r/blob/c/a%7Cb.ts#L1')).toBe('https://github.com/o/r/blob/c/a%7Cb.ts#L1');
    expect(mdLink('](javascript:x)', 'javascript:x')).toBe('[\\](javascript:x)](./javascript:x)');
    expect(unescaped(mdLink('](javascript:x)', 'javascript:x'), '](javascript:')).toBe(0);
  });
});

describe('errors: one line, exit 2, no partial report', () => {
  async function runMain(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
    let stderr = '';
    let stdout = '';
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
    try {
      return { code: await main(args), stderr, stdout };
    } finally {
      e.mockRestore();
      o.mockRestore();
    }
  }
  const outDir = () => mkdtempSync(join(tmp, 'out-'));
  const expectOneLine = (r: { code: number; stderr: string; stdout: string }, message: RegExp) => {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^audit: [^\n]+\n$/);
    expect(r.stderr).toMatch(message);
  };

  it.each([
    ['a bad URL', () => ['ftp://example.org/x.git'], /cannot use target 'ftp:\/\/example\.org\/x\.git': expected /],
    ['an unknown commit', () => [light, '--commit', 'refs/heads/nope'], /unknown commit 'refs\/heads\/nope'/],
    ['a malformed rubric', () => {
      const dir = join(mkdtempSync(join(tmp, 'rubric-')), 'dids');
      cpSync(RUBRIC, dir, { recursive: true });
      writeFileSync(join(dir, 'rubric.yaml'), 'id: [unclosed\n');
      return [light, '--rubric', dir];
    }, /^audit: rubric\.yaml(:\d+)?: invalid YAML/],
  ])('%s', async (_what, args, message) => {
    const out = outDir();
    const r = await runMain(['score', ...args(), '--out', join(out, 'report.md')]);
    expectOneLine(r, message);
    expect(readdirSync(out)).toEqual([]);
  });

  it('an unwritable output path: a file as its folder, or an existing folder as the file', async () => {
    const out = outDir();
    writeFileSync(join(out, 'file'), 'keep');
    const r1 = await runMain(['score', light, '--out', join(out, 'file', 'report.md')]);
    expectOneLine(r1, /^audit: cannot write .*file\/report\.md: .*file is not a folder \(expected a writable file path\)\n$/);
    mkdirSync(join(out, 'dir'));
    expect(() => writeOutput('# report\n', join(out, 'dir'))).toThrow(InputError);
    expect(() => writeOutput('# report\n', join(out, 'dir'))).toThrow(`cannot write ${join(out, 'dir')}: it is a folder (expected a writable file path)`);
    expect(readdirSync(out).sort()).toEqual(['dir', 'file']);
    expect(readdirSync(join(out, 'dir'))).toEqual([]);
    expect(readFileSync(join(out, 'file'), 'utf8')).toBe('keep');
  }, 60_000);

  it('a pipe or device as the output (`--out /dev/null`) is written in place, never renamed over', () => {
    // A named pipe stands in for /dev/null: renaming over the device as root would replace it with a file.
    const fifo = join(outDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      writeOutput('# report\n', fifo);
      expect(statSync(fifo).isFIFO()).toBe(true);
      const buf = Buffer.alloc(64);
      expect(buf.toString('utf8', 0, readSync(reader, buf))).toBe('# report\n');
    } finally {
      closeSync(reader);
    }
    expect(readdirSync(dirname(fifo))).toEqual(['pipe']);
  });

  it('no network: a refused connection is one line naming the URL, with no cache entry left', async () => {
    const out = outDir();
    const cacheDir = join(tmp, 'cache-offline');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'score', 'https://127.0.0.1:9/x.git', '--cache-dir', cacheDir, '--out', join(out, 'r.md')], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^audit: cannot clone https:\/\/127\.0\.0\.1:9\/x\.git: [^\n]+\n$/);
    expect(readdirSync(out)).toEqual([]);
    const hostDir = join(cacheDir, '127.0.0.1_9');
    for (const owner of readdirSync(hostDir)) expect(readdirSync(join(hostDir, owner))).toEqual([]);
  }, 60_000);
});
