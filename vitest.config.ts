import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Tests that time the API under a load of their own run after the rest, alone: beside another test
 * file on the same two cores they measure that file too (test/reliability/responsive.test.ts once read
 * a p99 of 767 ms against its 500 ms goal in the suite, 58 ms alone).
 */
const TIMED_ALONE = ['test/reliability/responsive.test.ts'];

/**
 * The file that reads the most of the corpus: on a fresh clone (CI) nothing is cached and its scans
 * are read by OCR, six minutes of one core. It starts first, so the rest of the suite fills the other
 * core meanwhile instead of waiting behind it.
 */
const CORPUS_READER = ['test/functions/models/corpus-accuracy.test.ts'];

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

/**
 * The API's feature tests (test/functions, but the engine's) each start a local cloud, ask it things
 * and close it: they share one module graph per worker too (the AWS SDK, the features and the local
 * cloud load once per worker instead of once per file). Apart stay those that set the environment,
 * mock modules or stub globals or timers, and the form-filling tests, whose template reads timed out
 * once after another file's work in a shared worker (session 35). test/suite-sharing.test.ts fails
 * when a shared file sets the environment, mocks or stubs.
 */
const CLOUD_SHARED = ['test/functions/**/*.test.ts'];
const CLOUD_APART = [
  'test/functions/edits/**/*.test.ts',
  'test/functions/parses/fan-out.test.ts',
  'test/functions/parses/page-times.test.ts',
  'test/functions/platform/logs.test.ts',
  'test/functions/secrets/secrets.test.ts',
  'test/functions/tables/background-slow.test.ts',
  'test/functions/tables/background.test.ts',
  'test/functions/tables/query.test.ts',
  'test/functions/webhooks/urls.test.ts',
  'test/functions/webhooks/webhooks.test.ts',
];

/**
 * Every project but the timed one is in one group (`sequence.groupOrder` 0) of two workers, so no
 * project waits for another's last file with a core idle. Within a group Vitest takes projects in the
 * order of their names, so the corpus reader ("corpus") starts first. Two test files at a time on two
 * cores (Vitest's default leaves one core idle): the suite waits on emulators, browsers and child
 * processes as much as on the CPU.
 */
const TOGETHER = { maxWorkers: 2, sequence: { groupOrder: 0 } };

/** A project whose files share one module graph per worker, and the project of its files kept apart. */
function sharedAndApart(name: string, include: string[], apart: string[], exclude: string[]): TestProjectInlineConfiguration[] {
  return [
    { extends: true, test: { name, include, exclude: [...apart, ...exclude], isolate: false, ...TOGETHER } },
    { extends: true, test: { name: `${name} apart`, include: apart, ...TOGETHER } },
  ];
}

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
        test: { name: 'corpus', include: CORPUS_READER, ...TOGETHER },
      },
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...TIMED_ALONE, ...SHARED, ...CLOUD_SHARED], ...TOGETHER },
      },
      ...sharedAndApart('features', CLOUD_SHARED, CLOUD_APART, SHARED),
      ...sharedAndApart('engine', SHARED, NOT_SHARED, CORPUS_READER),
      {
        extends: true,
        test: { name: 'timed alone', include: TIMED_ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
