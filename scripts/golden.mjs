// npm run golden: writes test/golden/<fixture>.md for every fixture with an expected.json, from the
// built tool, exactly as test/fixtures.test.ts renders it (the fixture as a one-commit git repository
// at a fixed date). Run it after a change to the scorecard you meant, then review the diff.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { audit } = await import('../dist/audit.js');
const { renderMarkdown } = await import('../dist/render/markdown.js');
const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, env, encoding: 'utf8' }).trim();

for (const name of readdirSync(join(ROOT, 'fixtures')).sort()) {
  if (!existsSync(join(ROOT, 'fixtures', name, 'expected.json'))) continue;
  const dir = join(mkdtempSync(join(tmpdir(), `audit-${name}-`)), name);
  cpSync(join(ROOT, 'fixtures', name), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `fixture ${name}`);
  const report = await audit(dir, { rubricDir: join(ROOT, 'rubrics', 'dids') });
  writeFileSync(join(ROOT, 'test', 'golden', `${name}.md`), renderMarkdown(report));
  console.log(`test/golden/${name}.md`);
}
