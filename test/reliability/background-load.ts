/**
 * The API under background load and after a crash (issue 45), as a user runs it: `npm start`'s entry
 * in its own process, background runs of a long PDF keeping every task container busy, and clients
 * timing what they ask meanwhile — reads (the GET of a run, a list) and small creates (a background
 * parse of a line of text). Then the server is killed with SIGKILL in the middle of the runs and
 * started again on the same data: the clients go on from its first second, while the runs resume.
 *
 * Used by test/reliability/responsive.test.ts (short) and `npm run soak -- background` (long).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { manyPagesPdf } from '../support/pdf-fixtures.ts';
import { spawnLocalServer } from '../support/local-server.ts';
import { freePort } from '../support/ports.ts';

export const KEY = 'rt_test_responsive000000000000000000';
/** A sync create's budget here (25 s in the API contract): short, so the test need not wait 25 s. */
export const SYNC_WAIT_MS = 3_000;
const TERMINAL = ['completed', 'failed', 'cancelled'];
/** A request not answered within this long counts as unanswered (the issue saw none answered in 300 s). */
export const UNANSWERED_AFTER_MS = 15_000;

export interface RunRef {
  path: '/v1/parses' | '/v1/classifications';
  id: string;
}

/** What the clients saw in one phase. Times in ms. */
export interface Phase {
  reads: number[];
  creates: number[];
  /** Requests with no answer within UNANSWERED_AFTER_MS, or a network error. */
  unanswered: string[];
  /** Answers with a 5xx (or a 4xx no request here should get). */
  errors: string[];
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(times: number[]): Summary {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

export function describePhase(name: string, phase: Phase): string {
  const line = (what: string, s: Summary) => `${what} ${s.count}: p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;
  return `${name}: ${line('reads', summarize(phase.reads))}; ${line('small creates', summarize(phase.creates))}; unanswered ${phase.unanswered.length}; errors ${phase.errors.length}`;
}

/** The server: spawned, killed, spawned again on the same data dir. */
export class Server {
  base = '';
  private child: ChildProcess | undefined;
  private output: () => string = () => '';

  /** `env`: more of the server's environment (QUIRE_TASK_WORKERS, ...). */
  constructor(
    readonly dataDir: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    const server = await spawnLocalServer({ via: 'node', port, env: { QUIRE_DATA_DIR: this.dataDir, QUIRE_TEST_KEY: KEY, POWERTOOLS_LOG_LEVEL: 'ERROR', QUIRE_SYNC_WAIT_MS: String(SYNC_WAIT_MS), ...this.env } });
    this.child = server.child;
    this.base = server.url;
    this.output = server.output;
  }

  /** Signals the whole process group (the server and anything it started), then waits until it is gone. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const pgid = this.child?.pid;
    if (pgid === undefined) return;
    this.child = undefined;
    try {
      process.kill(-pgid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        process.kill(-pgid, 0);
      } catch {
        return; // ESRCH: no process of the group is left
      }
      if (Date.now() > deadline) throw new Error(`the server's processes outlived ${signal}:\n${this.output().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Everything the server printed (its last life). */
  printed(): string {
    return this.output();
  }

  async call(method: string, path: string, body?: unknown, timeoutMs = UNANSWERED_AFTER_MS): Promise<{ status: number; ms: number; body: any }> {
    const started = performance.now();
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, ms: performance.now() - started, body: text ? JSON.parse(text) : undefined };
  }
}

export const emptyPhase = (): Phase => ({ reads: [], creates: [], unanswered: [], errors: [] });

/**
 * One client: a read of a big run, a list, a read, a small create, and again, one request after the
 * other (a short pause between) until `stop()`. The runs it creates go into `small`.
 */
export async function client(server: Server, big: RunRef[], small: RunRef[], phase: Phase, stop: () => boolean): Promise<void> {
  for (let n = 0; !stop(); n++) {
    const step = n % 4;
    const big1 = big[n % big.length]!;
    const request =
      step === 0 || step === 2
        ? { op: 'read' as const, method: 'GET', path: `${big1.path}/${big1.id}?include_output=false` }
        : step === 1
          ? { op: 'read' as const, method: 'GET', path: `${big1.path}?limit=20&include_output=false` }
          : { op: 'create' as const, method: 'POST', path: '/v1/parses', body: { document: { filename: 'note.txt', url: `data:text/plain;base64,${Buffer.from(`A small note, number ${n} of ${Math.random()}`).toString('base64')}` }, background: true } };
    try {
      const answer = await server.call(request.method, request.path, request.body);
      (request.op === 'read' ? phase.reads : phase.creates).push(answer.ms);
      if (answer.status >= 400) phase.errors.push(`${request.method} ${request.path} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      else if (request.op === 'create') small.push({ path: '/v1/parses', id: answer.body.id });
    } catch (error) {
      phase.unanswered.push(`${request.method} ${request.path} → ${(error as Error).name}: ${(error as Error).message}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The statuses of `runs` (in order), read without timing; a run seen ended is not asked again. */
export async function statuses(server: Server, runs: RunRef[], ended = new Map<string, string>()): Promise<string[]> {
  const out: string[] = [];
  for (const run of runs) {
    let status = ended.get(run.id);
    if (status === undefined) {
      status = (await server.call('GET', `${run.path}/${run.id}?include_output=false`, undefined, 60_000)).body.status as string;
      if (TERMINAL.includes(status)) ended.set(run.id, status);
    }
    out.push(status);
  }
  return out;
}

export interface CrashUnderLoadOptions {
  /** Pages of the PDF every big run reads (≥ 100). */
  pages: number;
  /** Big background runs, half parses, half classifications. */
  runs: number;
  /** Measuring clients. */
  clients: number;
  /** Kill the server (SIGKILL) each time this many more big runs have ended (and some have not). */
  killAfterEnded: number;
  /** How many times (1 for the test; the soak's long form kills more often). */
  kills?: number;
  /** How long all runs get to end after the last restart. */
  settleMs: number;
  /** More of the server's environment. */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface CrashUnderLoadResult {
  /** Before the first kill, while the big runs kept the task containers busy. */
  saturated: Phase;
  /** From each restart's first second until the next kill, or until every big run had ended. */
  recovery: Phase;
  /** The big runs' statuses at each kill, and at the end. */
  atKills: string[][];
  big: string[];
  /** The statuses of the small runs the clients created (in every life of the server), at the end. */
  small: string[];
  /** Every big create was answered (the issue saw two of eight never created). */
  bigCreated: number;
  /** A sync create while the big runs are queued: it answers with the run as it stands once its budget (SYNC_WAIT_MS) is spent. */
  syncCreate: { status: number; ms: number; runStatus: string };
  /** Seconds from each restart's start until it answered. */
  restartSeconds: number[];
  /** Seconds from the last restart until every run had ended. */
  settleSeconds: number;
}

export async function crashUnderLoad(options: CrashUnderLoadOptions): Promise<CrashUnderLoadResult> {
  const log = options.log ?? (() => undefined);
  const kills = options.kills ?? 1;
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-responsive-'));
  const server = new Server(dataDir, options.env);
  try {
    await server.start();
    const pdf = Buffer.from(await manyPagesPdf(options.pages));
    const file = await server.call('POST', '/v1/files', { document: { filename: 'long.pdf', url: `data:application/pdf;base64,${pdf.toString('base64')}` } }, 60_000);
    if (file.status !== 201) throw new Error(`upload: ${file.status} ${JSON.stringify(file.body)}`);
    const document = { id: file.body.id as string };

    // The big runs, created at once (bust_cache: each reads the whole document).
    const big: RunRef[] = [];
    const created = await Promise.all(
      Array.from({ length: options.runs }, async (_, i) => {
        const path = i % 2 === 0 ? '/v1/parses' : '/v1/classifications';
        const body = path === '/v1/parses' ? { document, background: true, bust_cache: true } : { document, categories: [{ name: 'report' }, { name: 'invoice' }], background: true, bust_cache: true };
        try {
          const answer = await server.call('POST', path, body);
          return answer.status < 300 ? ({ path, id: answer.body.id as string } satisfies RunRef) : undefined;
        } catch {
          return undefined;
        }
      }),
    );
    for (const run of created) if (run) big.push(run);
    log(`${big.length} of ${options.runs} big runs created (${options.pages} pages each)`);
    if (big.length === 0) throw new Error('no big run was created');

    const small: RunRef[] = [];
    const saturated = emptyPhase();
    const recovery = emptyPhase();
    const ended = new Map<string, string>();
    const atKills: string[][] = [];
    const restartSeconds: number[] = [];
    let syncCreate: CrashUnderLoadResult['syncCreate'] | undefined;
    let bigStatuses: string[] = [];
    let restarted = 0;
    for (let life = 0; ; life++) {
      // The clients measure this life of the server: saturated before the first kill, then recovery.
      let stop = false;
      const clients = Array.from({ length: options.clients }, () => client(server, big, small, life === 0 ? saturated : recovery, () => stop));
      if (life === 0) {
        const sync = await server.call('POST', '/v1/parses', { document: { filename: 'sync.txt', url: `data:text/plain;base64,${Buffer.from('A sync parse behind the big runs').toString('base64')}` } });
        syncCreate = { status: sync.status, ms: sync.ms, runStatus: sync.body?.status as string };
        if (sync.status < 300) small.push({ path: '/v1/parses', id: sync.body.id });
        log(`a sync create while saturated: ${sync.status} ${syncCreate.runStatus} after ${sync.ms.toFixed(0)} ms (budget ${SYNC_WAIT_MS} ms)`);
      }
      // This life ends at its kill (once enough more big runs have ended), or when every big run has.
      const killAt = life < kills ? options.killAfterEnded * (life + 1) : big.length;
      const deadline = Date.now() + options.settleMs;
      for (;;) {
        bigStatuses = await statuses(server, big, ended);
        const done = bigStatuses.filter((s) => TERMINAL.includes(s)).length;
        if (done >= killAt || done === big.length || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      stop = true;
      await Promise.all(clients);
      log(describePhase(life === 0 ? 'saturated' : `after restart ${life}`, life === 0 ? saturated : recovery));
      if (life >= kills || bigStatuses.every((s) => TERMINAL.includes(s))) break;

      atKills.push(bigStatuses);
      log(`kill ${life + 1}: big runs ${bigStatuses.join(', ')}`);
      await logFailures(server, big, ended, log);
      await server.stop('SIGKILL');
      const restarting = performance.now();
      await server.start();
      restartSeconds.push((performance.now() - restarting) / 1000);
      restarted = performance.now();
    }
    if (atKills.length < kills) throw new Error(`every big run ended before kill ${atKills.length + 1}: nothing to recover (use more runs or pages)`);

    // Then the small runs (they wait behind the big ones for a task container) end too.
    const deadline = Date.now() + options.settleMs;
    let smallStatuses: string[];
    for (;;) {
      smallStatuses = await statuses(server, small, ended);
      if (smallStatuses.every((s) => TERMINAL.includes(s)) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const settleSeconds = (performance.now() - restarted) / 1000;
    log(`after the last restart (answering after ${restartSeconds.map((s) => s.toFixed(1)).join(', ')} s, all ended after ${settleSeconds.toFixed(1)} s): big runs ${bigStatuses.join(', ')}; small runs ${JSON.stringify(countOf(smallStatuses))}`);
    await logFailures(server, [...big, ...small], ended, log);
    await server.stop('SIGINT');
    return { saturated, recovery, atKills, big: bigStatuses, small: smallStatuses, bigCreated: big.length, syncCreate: syncCreate!, restartSeconds, settleSeconds };
  } finally {
    await server.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What a failed run says went wrong (the first few). */
async function logFailures(server: Server, runs: RunRef[], ended: Map<string, string>, log: (line: string) => void): Promise<void> {
  const failed = runs.filter((run) => ended.get(run.id) === 'failed');
  for (const run of failed.slice(0, 5)) log(`failed: ${run.id} ${JSON.stringify((await server.call('GET', `${run.path}/${run.id}?include_output=false`)).body.error)}`);
}

export function countOf(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
