import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    // The CLI's default cache (clones, finished reports) goes to a throwaway folder, never the user's.
    env: { XDG_CACHE_HOME: `${process.env['TMPDIR'] ?? '/tmp'}/agent-audit-test-cache-${process.pid}` },
    hookTimeout: 600_000,
  },
});
