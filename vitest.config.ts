import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    // The CLI's default cache (clones, finished reports) goes to a throwaway folder, never the user's.
    env: { XDG_CACHE_HOME: `${process.env['TMPDIR'] ?? '/tmp'}/agent-audit-test-cache-${process.pid}` },
    hookTimeout: 120_000,
  },
});
