import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { RUN_TMP } from './tmp.js';

/**
 * The CLI tests run the built `dist/cli.js`, so build it once from the current sources, as `npm
 * run build` does. Every temporary folder the tests make (fixture trees, clones, caches) goes
 * under one folder for the run, removed when the run ends.
 */
export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  mkdirSync(RUN_TMP, { recursive: true });
  return () => rmSync(RUN_TMP, { recursive: true, force: true });
}
