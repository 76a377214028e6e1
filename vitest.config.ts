import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two test files at a time on two cores (Vitest's default leaves one core idle): the suite
    // waits on emulators, browsers and child processes as much as on the CPU.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: {
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
});
