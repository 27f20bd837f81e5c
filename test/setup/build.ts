import { execFileSync } from 'node:child_process';

/** The CLI tests run the built `dist/cli.js`, so build it once from the current sources, as `npm run build` does. */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/ship-rubric.mjs'], { stdio: 'inherit' });
}
