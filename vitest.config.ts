import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // Removes temp folders that killed runs left behind (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
  },
});
