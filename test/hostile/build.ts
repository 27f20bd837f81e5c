import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Probe } from '../../src/rubric/schema.js';

/**
 * Builds the hostile repositories of fixtures/hostile/README.md programmatically: 50 MB files,
 * 20,000 files, symlinks and 200-level folders do not belong in this repository's history.
 */

const FIXED_DATE = '2026-01-01T00:00:00Z';
const env = { ...process.env, GIT_AUTHOR_DATE: FIXED_DATE, GIT_COMMITTER_DATE: FIXED_DATE, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** The test's own git: isolated from the user's config, and never pointed at a hostile repository's config after it is armed. */
export function git(cwd: string, ...args: string[]): string {
  // gc.auto=0: a detached auto-gc after committing 20,000 files would run the armed pre-auto-gc hook.
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  }).trim();
}

/** File names (under src/) and text made to break markdown, HTML and terminals when quoted. */
export const HOSTILE_NAMES = [
  'a|b|c.ts',
  '`tick``.ts',
  '](javascript:alert(1)).ts',
  '<script>alert(1)<x>/x.ts',
  '<img src=x onerror=alert(1)>.ts',
  '</details>.ts', // a folder '<' holding 'details>.ts'
  'new\nline.ts',
  '\n# heading.ts',
  '\n| x | y |.ts',
  '\n- item.ts',
  'cr\r===.ts',
  '{{handlebars}}.ts',
  '\u202egnp.ts',
  `${'L'.repeat(240)}.ts`,
];

export const HOSTILE_TEXT = '<script>alert(1)</script> ](javascript:alert(1)) | a | b | </details> {{handlebars}} `x` \u202e # h';

/**
 * Lines that give each text probe a long near-miss: generic runs (word characters, spaces, the
 * openers of `[^\n]*` patterns) just under the line bound, and each probe's leading literal
 * repeated over 1,000 characters (a `[^\n]{0,40}` after it then scans at every repetition).
 */
export function stressLines(probes: Probe[], lineChars: number): [string[], string[]] {
  const generic = ['a', '_', 'a_', ' ', '\t', 'print(', 'console.log(', 'confirm ', 'realpath(x) ', 'env: ', 'tool_call ', 'sk-', 'DEFAULT_TOOLS '];
  const literals = new Set<string>();
  for (const p of probes) {
    if (p.engine !== 'text') continue;
    for (const alt of p.pattern!.replace(/\\b/g, '').split('|')) {
      const lit = /^[(?:^\s*]*([A-Za-z_][A-Za-z_-]{2,})/.exec(alt)?.[1];
      if (lit) literals.add(`${lit} `);
    }
  }
  const fill = (w: string, n: number) => w.repeat(Math.floor(n / w.length));
  return [generic.map((w) => fill(w, lineChars - 1)), [...literals].map((w) => fill(w, 1_000))];
}

export interface HostileOptions {
  /** Where marker files from payloads would appear, and the secret outside the checkout lives. */
  outside: string;
  marker: string;
  secret: string;
  /** Typescript snippets that match some probe: one per hostile name, so those names become evidence. */
  snippets: string[];
  probes: Probe[];
  lineChars: number;
}

const write = (root: string, rel: string, data: string | Buffer) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), data);
};

/** The working tree of the hostile repository (no .git yet). */
export function buildTree(root: string, o: HostileOptions): void {
  const touch = `touch '${o.marker}'`;
  write(root, 'package.json', JSON.stringify({
    name: 'evil',
    description: `\n# Injected heading\n| a | b |\n${HOSTILE_TEXT} [click](javascript:alert(1)) <!-- x --> ***`,
    scripts: { preinstall: touch, install: touch, postinstall: touch, prepare: touch },
  }, null, 2));
  write(root, '.audit.yaml', `name: "evil\\n# heading | x | <script>alert(1)</script>"\ncategory: "| a | b |"\n"<script>\\n- x": 1\n`);
  write(root, '.gitattributes', '* filter=evil diff=evil\n*.bin filter=lfs diff=lfs merge=lfs -text\n');
  write(root, '.gitmodules', `[submodule "a"]\n\tpath = sub-a\n\turl = file://${o.outside}/nowhere\n[submodule "b"]\n\tpath = sub-b\n\turl = ext::sh -c ${touch.replace(/ /g, '% ')}\n`);
  write(root, 'model.bin', 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n');
  write(root, 'src/weights.ts', 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n');
  // Names made to break markdown, each carrying a snippet some probe matches so it becomes evidence.
  HOSTILE_NAMES.forEach((name, i) => write(root, `src/${name}`, `// ${HOSTILE_TEXT}\n${o.snippets.filter((_, j) => j % HOSTILE_NAMES.length === i).join('\n')}\n`));
  write(root, 'src/matched.ts', `confirm("${HOSTILE_TEXT}", yolo)\nconsole.log("${HOSTILE_TEXT}", token)\n`);
  // Symlinks out of the tree, to the tree itself, and in loops.
  mkdirSync(join(root, 'links'), { recursive: true });
  symlinkSync('/etc/passwd', join(root, 'links/passwd.ts'));
  symlinkSync('..', join(root, 'links/up'));
  symlinkSync('../../..', join(root, 'links/above'));
  symlinkSync(join(o.outside, 'secret.ts'), join(root, 'links/leak.ts'));
  symlinkSync(o.outside, join(root, 'links/leakdir'));
  symlinkSync('loop-b', join(root, 'links/loop-a'));
  symlinkSync('loop-a', join(root, 'links/loop-b'));
  symlinkSync('self', join(root, 'links/self'));
  symlinkSync('.', join(root, 'links/dot'));
  symlinkSync(join(o.outside, 'secret.md'), join(root, 'README.md'));
  // Contents: binary with a source extension, invalid UTF-8, one 1 MB line, regex stress.
  write(root, 'src/binary.ts', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 0]), Buffer.from('const yolo = true\n')]));
  write(root, 'src/invalid-utf8.ts', Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x0a]), Buffer.from(`const x = "\xff"; // ${HOSTILE_TEXT}\n`)]));
  write(root, 'src/oneline.ts', 'print('.repeat(166_000));
  // 200 folders deep.
  write(root, `${'d/'.repeat(200)}x.ts`, 'const yolo = true\n');
}

/**
 * The slow parts, as a commit on top of HEAD written with `git fast-import` (objects only, no
 * 20,000 files on disk): 20,000 tiny files, a 50 MB file, and near-misses for every text probe.
 * Audit it pinned to the returned commit.
 */
export function commitHeavy(root: string, o: HostileOptions): string {
  const [generic, perProbe] = stressLines(o.probes, o.lineChars);
  const files: Array<[string, Buffer]> = [
    // Generic runs just under the line bound, each probe's leading literal repeated, and 300,000
    // blank lines under a line-anchored pattern.
    ['src/stress/generic.py', Buffer.from(`${generic.join('\n')}\n`)],
    ['src/stress/probes.py', Buffer.from(`${perProbe.join('\n')}\n`)],
    ['src/stress/blank.py', Buffer.from(`x = 1${'\n'.repeat(300_000)}USER\n`)],
    ['big/huge.ts', Buffer.alloc(50 * 1024 * 1024)],
  ];
  // JSON, not JS: 20,000 files read and searched, without the ast-grep engine's per-file cost (README "Limits").
  for (let i = 0; i < 20_000; i++) files.push([`many/f${String(i).padStart(5, '0')}.json`, Buffer.from(`{"v${i}": ${i}}\n`)]);
  const head = git(root, 'rev-parse', 'HEAD');
  const chunks: Buffer[] = [Buffer.from(`commit refs/heads/main\ncommitter t <t@example.invalid> 1767225600 +0000\ndata 5\nheavy\nfrom ${head}\n`)];
  for (const [p, data] of files) chunks.push(Buffer.from(`M 100644 inline ${p}\ndata ${data.length}\n`), data, Buffer.from('\n'));
  chunks.push(Buffer.from('\n'));
  execFileSync('git', ['-c', 'gc.auto=0', 'fast-import', '--quiet'], { cwd: root, env, input: Buffer.concat(chunks), stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000 });
  return git(root, 'rev-parse', 'refs/heads/main');
}

/** The secret outside the checkout that symlinks point at: any trace of it in a report is a leak. */
export function buildOutside(outside: string, secret: string): void {
  mkdirSync(outside, { recursive: true });
  const lines = `// ${secret}\nconst ${secret} = "yolo"; spawn("sh", ["-c", cmd], { shell: true })\n`;
  writeFileSync(join(outside, 'secret.ts'), lines);
  writeFileSync(join(outside, 'secret.md'), `${secret}\n\n${secret} is what this project is.\n`);
  mkdirSync(join(outside, 'repo'), { recursive: true });
  writeFileSync(join(outside, 'repo', `${secret}.ts`), lines);
  git(join(outside, 'repo'), 'init', '-q');
  git(join(outside, 'repo'), 'add', '-A');
  git(join(outside, 'repo'), 'commit', '-q', '-m', secret);
}

/** A script that leaves the marker: every hook, filter, fsmonitor and helper the repository names runs it. */
export function payload(outside: string, marker: string): string {
  const script = join(outside, 'payload.sh');
  // Exits at once: a filter process or fsmonitor that waited on stdin would hang the positive control.
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
  chmodSync(script, 0o755);
  return script;
}

/** Commits the tree, with two gitlinks for the .gitmodules. Returns the commit. */
export function commitTree(root: string): string {
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  const width = git(root, 'write-tree').length; // 40 (SHA-1) or 64 (SHA-256): any id will do for a gitlink
  git(root, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(width)},sub-a`);
  git(root, 'update-index', '--add', '--cacheinfo', `160000,${'2'.repeat(width)},sub-b`);
  git(root, 'commit', '-q', '-m', 'hostile');
  return git(root, 'rev-parse', 'HEAD');
}

/** Arms the repository: hooks and config that run the payload on any ordinary git command. */
export function arm(root: string, script: string): void {
  for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction', 'pre-auto-gc', 'post-merge', 'fsmonitor-watchman', 'pre-push']) {
    writeFileSync(join(root, '.git/hooks', hook), `#!/bin/sh\nexec '${script}'\n`);
    chmodSync(join(root, '.git/hooks', hook), 0o755);
  }
  const cfg: Record<string, string> = {
    'core.fsmonitor': script, 'core.hooksPath': join(root, '.git/hooks'), 'core.pager': script, 'core.sshCommand': script,
    'core.editor': script, 'core.askPass': script, 'credential.helper': `!${script}`, 'diff.external': script,
    'filter.evil.smudge': script, 'filter.evil.clean': script, 'filter.evil.process': script, 'filter.evil.required': 'true',
    'filter.lfs.smudge': script, 'filter.lfs.process': script, 'diff.evil.textconv': script, 'gpg.program': script,
    'uploadpack.packObjectsHook': script, 'core.alternateRefsCommand': script, 'submodule.recurse': 'true',
    'protocol.ext.allow': 'always', 'remote.origin.url': 'git@github.com:evil-org/evil-repo.git',
  };
  for (const [k, v] of Object.entries(cfg)) git(root, 'config', k, v);
}
