import { execFileSync } from 'node:child_process';

/** The CLI tests run the built `dist/cli.js`, so build it once from the current sources, as `npm run build` does. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
