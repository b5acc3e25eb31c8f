import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn real daemons; keep parallelism modest on a 2-core box
    maxWorkers: 2,
  },
});
