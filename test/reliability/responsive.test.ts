/**
 * The API answers while the work runs (issue 45). Six background runs (parses and
 * classifications) of a 60-page PDF keep every task container of `npm start`'s entry busy while
 * two clients time reads (the GET of a run, a list) and small creates; then the server is killed
 * with SIGKILL in the middle of the runs and started again on the same data, and the clients go on
 * from its first second while the runs resume. Long form: `npm run soak -- background`.
 *
 * Goals on 2 cores: reads answered p99 ≤ 500 ms, small creates p99 ≤ 2 s, no request unanswered,
 * in both phases; every run ends after the restart, every big one completed.
 */
import { expect, it } from 'vitest';
import { crashUnderLoad, describePhase, summarize, SYNC_WAIT_MS, type Phase } from './background-load.ts';

const READ_P99_MS = 500;
const CREATE_P99_MS = 2_000;

function expectResponsive(name: string, phase: Phase) {
  const reads = summarize(phase.reads);
  const creates = summarize(phase.creates);
  expect(phase.unanswered, `${name}: requests unanswered`).toEqual([]);
  expect(phase.errors, `${name}: requests failed`).toEqual([]);
  expect(reads.count, `${name}: reads measured`).toBeGreaterThan(20);
  expect(creates.count, `${name}: small creates measured`).toBeGreaterThan(5);
  expect(reads.p99, `${name}: read p99 (ms)`).toBeLessThanOrEqual(READ_P99_MS);
  expect(creates.p99, `${name}: small create p99 (ms)`).toBeLessThanOrEqual(CREATE_P99_MS);
}

it('answers reads and small creates while background runs saturate the tasks, and from the first second after a kill -9', async () => {
  const result = await crashUnderLoad({ pages: 60, runs: 6, clients: 2, killAfterEnded: 2, settleMs: 120_000, log: (line) => console.log(line) });
  console.log(describePhase('saturated', result.saturated));
  console.log(describePhase('recovery', result.recovery));

  expect(result.bigCreated, 'every big create answered').toBe(6);
  // A sync create that cannot finish within its budget answers with the run as it stands.
  expect(result.syncCreate.status).toBeLessThan(300);
  expect(result.syncCreate.ms).toBeLessThan(SYNC_WAIT_MS + 2_000);
  expectResponsive('while saturated', result.saturated);
  expectResponsive('during recovery', result.recovery);
  // None lost: every run ends, the big ones completed (resumed ones included).
  expect(result.big).toEqual(Array(6).fill('completed'));
  expect(result.small.filter((s) => s !== 'completed')).toEqual([]);
}, 240_000);
