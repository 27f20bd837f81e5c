// npm run build: compile src/ to dist/ (skipped when dist/ was built from exactly these sources and
// compiler settings), then validate the bundled rubric into dist/shipped (see ship-rubric.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(ROOT, 'dist', '.source-hash');
const h = createHash('sha256');
for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', ...readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).sort().map((f) => join('src', f))]) {
  const p = join(ROOT, f);
  h.update(f).update('\0');
  try {
    h.update(readFileSync(p));
  } catch {
    /* a folder */
  }
}
const sources = h.digest('hex');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== sources) {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  writeFileSync(stamp, sources);
}
execFileSync(process.execPath, [join(ROOT, 'scripts', 'ship-rubric.mjs')], { stdio: 'inherit' });
