import { defineConfig } from 'vitest/config';

/**
 * Tests that time the API under a load of their own run after the rest, alone: beside another test
 * file on the same two cores they measure that file too (test/reliability/responsive.test.ts once read
 * a p99 of 767 ms against its 500 ms goal in the suite, 58 ms alone).
 */
const TIMED_ALONE = ['test/reliability/responsive.test.ts'];

/**
 * Test files that mock modules, stub globals or timers, or set environment variables before importing
 * the code they test: they run in a fresh module graph each (the rest share one per worker, which
 * saves loading the same modules again for every file).
 */
const ISOLATED = [
  'test/functions/documents/damaged-pages.test.ts',
  'test/functions/documents/layout.test.ts',
  'test/functions/documents/pdf.test.ts',
  'test/functions/documents/pdf-helper.test.ts',
  'test/functions/models/providers-api.test.ts',
  'test/functions/models/providers-workers.test.ts',
  'test/functions/parses/fan-out.test.ts',
  'test/functions/parses/page-times.test.ts',
  'test/functions/platform/logs.test.ts',
  'test/functions/secrets/secrets.test.ts',
  'test/functions/tables/background-slow.test.ts',
  'test/functions/tables/background.test.ts',
  'test/functions/tables/query.test.ts',
  'test/functions/webhooks/urls.test.ts',
  'test/functions/webhooks/webhooks.test.ts',
  'test/lib/cloud/stack.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: {
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...TIMED_ALONE, ...ISOLATED],
          // Two test files at a time on two cores (Vitest's default leaves one core idle): the suite
          // waits on emulators, browsers and child processes as much as on the CPU.
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed alone',
          include: TIMED_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
