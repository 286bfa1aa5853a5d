import { defineConfig } from 'vitest/config';

/**
 * Tests that compare timings: they run alone, after every other file, one at a time (a project
 * without file parallelism is its own group, run last), so no other test file shares the CPU
 * while they measure.
 */
const ALONE = ['test/growth.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, also on 2 cores (vitest's default there is one): most files spend
    // their time waiting on the CLI processes they spawn.
    maxWorkers: 2,
    // Removes temp folders that killed runs left behind (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'suite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ALONE } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false } },
    ],
  },
});
