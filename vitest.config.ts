import { defineConfig } from 'vitest/config';

/**
 * Tests that measure their processes (timings, peak RSS): they run alone, after every other file,
 * one at a time (a project without file parallelism is its own group, run last), so no other test
 * file shares the CPU while they measure. merge-scale's peak RSS read 157 MB alone and 231 MB beside
 * another file (V8's concurrent marking waits for a CPU, and the heap outside the old space grows).
 */
const ALONE = ['test/merge-scale.test.ts', 'test/growth.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // A beforeAll that writes a generated capture can take more than vitest's 10 s on a busy machine.
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, also on 2 cores (vitest's default there is one): most files spend
    // their time waiting on the CLI processes they spawn.
    maxWorkers: 2,
    // Removes temp folders that killed runs left behind (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    projects: [
      // One module graph per worker, not per file (isolate: false): importing src/ again for every
      // file cost ~0.5 s of CPU a file. No test changes process-wide state (env, cwd, globals,
      // unrestored mocks); a file whose assertions depend on test/helpers.ts's clock resets it.
      { extends: true, test: { name: 'suite', isolate: false, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ALONE } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false } },
    ],
  },
});
