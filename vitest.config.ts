import { defineConfig } from 'vitest/config';

/**
 * Tests that time the API under a load of their own run after the rest, alone: beside another test
 * file on the same two cores they measure that file too (test/reliability/responsive.test.ts once read
 * a p99 of 767 ms against its 500 ms goal in the suite, 58 ms alone).
 */
const TIMED_ALONE = ['test/reliability/responsive.test.ts'];

/**
 * The engine's unit tests (models, documents, training) load the same large modules file after file:
 * they share one module graph per worker (Vitest `isolate: false`), which saves loading them again for
 * every file. Every other test file runs in a fresh process, as do the engine's files that start
 * servers, clouds or child processes (their work may outlive the file), mock modules, stub globals or
 * timers, or set the environment before importing what they test.
 */
const SHARED = ['test/functions/models/**/*.test.ts', 'test/functions/documents/**/*.test.ts', 'test/train/**/*.test.ts'];
const NOT_SHARED = [
  'test/functions/documents/damaged-pages.test.ts',
  'test/functions/documents/layout.test.ts',
  'test/functions/documents/ocr.test.ts',
  'test/functions/documents/pdf.test.ts',
  'test/functions/documents/pdf-helper.test.ts',
  'test/functions/documents/pdfjs.test.ts',
  'test/functions/documents/rtl.test.ts',
  'test/functions/models/providers-api.test.ts',
  'test/functions/models/providers-workers.test.ts',
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
          exclude: [...TIMED_ALONE, ...SHARED],
          // Two test files at a time on two cores (Vitest's default leaves one core idle): the suite
          // waits on emulators, browsers and child processes as much as on the CPU.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'engine',
          include: SHARED,
          exclude: NOT_SHARED,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'engine apart',
          include: NOT_SHARED,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed alone',
          include: TIMED_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
