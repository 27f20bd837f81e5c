// Builds synthetic target repositories of a given size from this project's own fixtures: the
// fixtures' code (security signals) spread over packages, padded with neutral application code.
// No third-party code is involved. Repositories are cached under .cache/bench/<files>/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const FIXTURES = ['desktop-chat', 'naive-agent', 'hardened-agent'];

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

function fillerTs(i) {
  // Ordinary code of typical size and shape, with nothing a security probe looks for.
  const lines = [`import { formatValue${i % 7} } from './util${i % 7}';`, '', `export interface Record${i} {`, '  id: string;', '  name: string;', '  createdAt: number;', '}', ''];
  for (let f = 0; f < 12; f++) {
    lines.push(`export function transform${i}_${f}(input: Record${i}[]): string[] {`);
    lines.push('  const out: string[] = [];');
    lines.push('  for (const item of input) {');
    lines.push(`    if (item.name.length > ${f}) out.push(formatValue${i % 7}(item.name + '-${f}'));`);
    lines.push('    else out.push(item.id);');
    lines.push('  }');
    lines.push('  return out.sort();');
    lines.push('}', '');
  }
  return lines.join('\n');
}

/** A git repository with about `files` product files; returns its path. */
export function syntheticRepo(files) {
  const dir = join(ROOT, '.cache', 'bench', String(files));
  if (existsSync(join(dir, '.git', 'HEAD')) && existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const seeds = FIXTURES.flatMap((f) => walk(join(ROOT, 'fixtures', f)).filter((p) => !p.endsWith('expected.json')).map((p) => ({ rel: relative(join(ROOT, 'fixtures', f), p), text: readFileSync(p, 'utf8'), f })));
  let n = 0;
  // One copy of each fixture per 500 files keeps the security signals present at every size.
  for (let pkg = 0; n < files; pkg++) {
    const base = join(dir, 'packages', `pkg${String(pkg).padStart(4, '0')}`);
    if (pkg % 10 === 0) {
      for (const s of seeds) {
        if (n >= files) break;
        const p = join(base, s.f, s.rel);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, s.text);
        n++;
      }
    }
    for (let k = 0; k < 50 && n < files; k++, n++) {
      const p = join(base, 'src', `module${k}.ts`);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, fillerTs(pkg * 50 + k));
    }
  }
  const git = (...args) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', `synthetic ${files}`);
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}
