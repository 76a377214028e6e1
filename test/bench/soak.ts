/**
 * Soak (issue 12): the load mix of test/bench/load.ts against `npm start`'s entry for SOAK_SECONDS
 * (default 600), SOAK_CLIENTS clients (default 50), at most SOAK_MAX_ACTIVE runs not yet seen ended
 * per the whole soak (default 50: clients poll instead of piling up a backlog). Every 10 s it samples
 * the server's RSS (from /proc, worker threads included) and its main-thread heap (QUIRE_MEMORY_LOG_MS
 * lines), then prints the samples and a verdict on growth: the slope of a least-squares line through
 * the RSS samples after the warm-up (the first third), in MB per minute.
 *
 *   npm run soak                      # 10 minutes
 *   SOAK_SECONDS=180 npm run soak     # 3 minutes
 *
 * `npm run soak -- background` is the long form of test/reliability/responsive.test.ts (issue 45):
 * SOAK_RUNS background runs (default 32, half parses, half classifications) of a SOAK_PAGES-page PDF
 * (default 120) keep the task containers busy while SOAK_CLIENTS clients (default 4) time reads and
 * small creates; the server is killed with SIGKILL each time SOAK_KILL_EVERY more runs have ended
 * (default 6), SOAK_KILLS times (default 3), and started again on the same data. It prints the
 * latencies before the first kill and after the restarts, and every run's end.
 */
import { crashUnderLoad, describePhase, summarize } from '../reliability/background-load.ts';
import { drain, printMix, rssBytes, runMix } from './load.ts';
import { withLocalStack } from './stack.ts';

if (process.argv[2] === 'background') {
  const result = await crashUnderLoad({
    pages: Number(process.env.SOAK_PAGES ?? 120),
    runs: Number(process.env.SOAK_RUNS ?? 32),
    clients: Number(process.env.SOAK_CLIENTS ?? 4),
    killAfterEnded: Number(process.env.SOAK_KILL_EVERY ?? 6),
    kills: Number(process.env.SOAK_KILLS ?? 3),
    settleMs: 30 * 60_000,
    log: (line) => console.log(line),
  });
  console.log(`\n${describePhase('saturated', result.saturated)}\n${describePhase('after the restarts', result.recovery)}`);
  const reads = [...result.saturated.reads, ...result.recovery.reads];
  const creates = [...result.saturated.creates, ...result.recovery.creates];
  const unanswered = result.saturated.unanswered.length + result.recovery.unanswered.length;
  const notCompleted = [...result.big, ...result.small].filter((s) => s !== 'completed').length;
  console.log(`all: read p99 ${summarize(reads).p99.toFixed(0)} ms, small create p99 ${summarize(creates).p99.toFixed(0)} ms, unanswered ${unanswered}; runs not completed ${notCompleted} of ${result.big.length + result.small.length}`);
  const ok = summarize(reads).p99 <= 500 && summarize(creates).p99 <= 2_000 && unanswered === 0 && notCompleted === 0;
  console.log(ok ? 'SOAK PASSED' : 'SOAK FAILED: goals (reads p99 ≤ 500 ms, small creates p99 ≤ 2 s, none unanswered, every run completed) not met');
  process.exit(ok ? 0 : 1);
}

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50);
const MAX_ACTIVE = Number(process.env.SOAK_MAX_ACTIVE ?? 50);
const SAMPLE_MS = 10_000;
/** Growth below this after warm-up counts as flat. */
const FLAT_MB_PER_MINUTE = 2;

interface Sample {
  second: number;
  rssMb: number;
  heapUsedMb: number;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const MB = 1024 * 1024;

await withLocalStack(
  async (stack) => {
    const samples: Sample[] = [];
    const started = Date.now();
    const lastHeap = () => {
      const lines = stack.output().match(/memory (\{.*\})/g) ?? [];
      const last = lines[lines.length - 1];
      return last ? (JSON.parse(last.slice('memory '.length)) as { heapUsed: number }).heapUsed : NaN;
    };
    const sample = () => samples.push({ second: Math.round((Date.now() - started) / 1000), rssMb: rssBytes(stack.pid) / MB, heapUsedMb: lastHeap() / MB });
    sample();
    const timer = setInterval(sample, SAMPLE_MS);
    const result = await runMix(stack, CLIENTS, SECONDS, MAX_ACTIVE);
    clearInterval(timer);
    sample();
    printMix(result, CLIENTS);
    const drained = await drain(stack, result.created);
    console.log(`runs created: ${result.created.length}; after the soak: ${JSON.stringify(drained.byStatus)} within ${drained.seconds.toFixed(1)} s; stuck: ${drained.stuck.length}`);

    console.log(`\nServer memory every ${SAMPLE_MS / 1000} s (RSS includes the worker threads; heap is the main thread's)`);
    console.log('| s | RSS MB | main heap used MB |\n|---:|---:|---:|');
    for (const s of samples) console.log(`| ${s.second} | ${s.rssMb.toFixed(1)} | ${s.heapUsedMb.toFixed(1)} |`);
    const warm = samples.filter((s) => s.second >= SECONDS / 3);
    const rssSlope = slope(warm.map((s) => [s.second / 60, s.rssMb]));
    const heapSlope = slope(warm.filter((s) => !Number.isNaN(s.heapUsedMb)).map((s) => [s.second / 60, s.heapUsedMb]));
    const flat = rssSlope < FLAT_MB_PER_MINUTE;
    console.log(
      `\nAfter warm-up (${warm.length} samples from ${Math.round(SECONDS / 3)} s): RSS slope ${rssSlope.toFixed(2)} MB/min, main heap slope ${heapSlope.toFixed(2)} MB/min ` +
        `→ ${flat ? 'FLAT' : 'GROWING'} (threshold ${FLAT_MB_PER_MINUTE} MB/min); RSS min ${Math.min(...warm.map((s) => s.rssMb)).toFixed(0)} / max ${Math.max(...warm.map((s) => s.rssMb)).toFixed(0)} MB`,
    );
    if (result.errors.length > 0 || drained.stuck.length > 0 || !flat) process.exitCode = 1;
  },
  { QUIRE_MEMORY_LOG_MS: String(SAMPLE_MS / 2) },
);
process.exit(process.exitCode ?? 0);
