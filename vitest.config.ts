import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { RUN_TMP } from './test/setup/tmp.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    // Hang guards, not timings: far above what any test takes on a loaded machine. At 60 s, a test
    // that spawns five cold audits timed out once with two busy loops and a second suite running.
    testTimeout: 300_000,
    // One worker per core, and test files share a process: the rubric and per-file facts the
    // audit keeps in memory (by content hash, copied on every hit) are then parsed once per worker.
    maxWorkers: Math.max(1, availableParallelism()),
    isolate: false,
    // Temporary folders and the CLI's default cache (clones, finished reports) go to the run's own
    // folder, never the user's, and the global setup removes it when the run ends.
    env: { TMPDIR: RUN_TMP, XDG_CACHE_HOME: join(RUN_TMP, 'cache') },
    hookTimeout: 600_000,
  },
});
