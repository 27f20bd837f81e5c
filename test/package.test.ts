import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const COMMANDS = join(ROOT, 'src', 'commands');

/** The sibling modules a file in src/commands imports ('./x.js' → 'x'). */
function siblingImports(file: string): string[] {
  const text = readFileSync(join(COMMANDS, file), 'utf8');
  return [...text.matchAll(/^import[^;]*?from '\.\/([\w-]+)\.js'/gm)].map((m) => m[1]!);
}

describe('module layout', () => {
  it('no command imports another command: shared logic lives in library modules', () => {
    const files = readdirSync(COMMANDS).filter((f) => f.endsWith('.ts'));
    // A command module is one that registers a command with the CLI.
    const commands = new Set(files.filter((f) => /^export function register\w+\(cli: Command\)/m.test(readFileSync(join(COMMANDS, f), 'utf8'))).map((f) => f.replace(/\.ts$/, '')));
    expect(commands.size).toBeGreaterThanOrEqual(8);
    const crossings = files.flatMap((f) => siblingImports(f).filter((s) => commands.has(s)).map((s) => `${f} imports ${s}.ts`));
    expect(crossings).toEqual([]);
  });
});

describe('the installed command', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));

  it("is shipped as agent-audit, not as the ambiguous 'audit', while `npm run audit` still runs it", () => {
    expect(pkg.bin).toEqual({ 'agent-audit': 'dist/cli.js' });
    expect(lock.packages[''].bin).toEqual(pkg.bin);
    expect(pkg.scripts.audit).toBe('node dist/cli.js');
    const help = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/^Usage: agent-audit /);
  });

  it('is named agent-audit wherever the docs, the action and the CI script run a subcommand', () => {
    const bare = /(?<!run )(?<![\w-])audit (score|batch|diff|schema|rules|explain|rubric|checklist)\b/;
    const offenders = ['README.md', 'action.yml', 'docs/ci-example.yml', 'scripts/ci-audit.sh'].flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8').split('\n').flatMap((line, i) => (bare.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});

describe('dependencies', () => {
  it('every runtime dependency is imported by the source (an unused one only widens what is installed)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const src = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'))
      .join('\n');
    const used = (name: string) => [`from '${name}'`, `from '${name}/`, `require('${name}')`, `import('${name}')`].some((s) => src.includes(s));
    expect(Object.keys(pkg.dependencies).filter((d) => !used(d))).toEqual([]);
  });
});

describe('install scripts', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean; dev?: boolean }>)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path.replace(/^node_modules\//, ''));

  it('the README names every dependency npm warns about for its install script, and says why it is harmless', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm warn install-scripts');
    for (const name of withScripts) expect(readme).toContain(`\`${name}\``);
    expect(readme).toMatch(/harmless: these\s+packages ship prebuilt parsers/);
  });

  it('those dependencies load a shipped prebuild, not a parser their postinstall would build', () => {
    const require = createRequire(import.meta.url);
    for (const name of withScripts) {
      expect(name).toMatch(/^@ast-grep\/lang-/);
      const dir = dirname(require.resolve(`${name}/package.json`));
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.postinstall).toBe('node postinstall.js');
      const lib = (require(name) as { libraryPath: string }).libraryPath;
      expect(relative(dir, lib)).toMatch(/^prebuilds\/prebuild-(Linux|macOS|Windows)-(X64|ARM64)\/parser\.so$/);
      expect(existsSync(join(dir, 'parser.so'))).toBe(false);
    }
  });
});
