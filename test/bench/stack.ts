/**
 * The local stack as the API benchmarks use it: `npm start`'s entry spawned in its own process group
 * on a free port with a temporary data dir and a known test key, stopped with Ctrl-C afterwards.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnLocalServer } from '../support/local-server.ts';
import { freePort } from '../support/ports.ts';

export const BENCH_KEY = 'rt_test_bench000000000000000000000000';

/** CPU time (user + system) a process has used, in ms (/proc, all its threads, in clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface BenchStack {
  base: string;
  /** The server process (its RSS covers its worker threads). */
  pid: number;
  /** Everything it printed so far. */
  output(): string;
  headers: Record<string, string>;
  /** POSTs JSON and waits for the run to end (polling the cheap projection); returns seconds. */
  timedRun(path: string, body: Record<string, unknown>): Promise<number>;
}

export async function withLocalStack<T>(fn: (stack: BenchStack) => Promise<T>, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const port = await freePort();
  const server = await spawnLocalServer({ via: 'node', port, env: { QUIRE_DATA_DIR: dataDir, QUIRE_TEST_KEY: BENCH_KEY, POWERTOOLS_LOG_LEVEL: 'WARN', ...env }, nodeArgs });
  // Measured once the server is warm, as a running service is: its task containers load behind the API.
  await server.waitFor('Background tasks ready', 60_000);
  const child = server.child;
  const base = server.url;
  const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  const stack: BenchStack = {
    base,
    pid: child.pid!,
    output: server.output,
    headers,
    async timedRun(path, body) {
      const started = performance.now();
      let run = (await (await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string; status: string; error?: unknown };
      while (run.status !== 'completed' && run.status !== 'failed') {
        await new Promise((r) => setTimeout(r, 25));
        run = (await (await fetch(`${base}${path}/${run.id}?include_output=false`, { headers })).json()) as typeof run;
      }
      if (run.status !== 'completed') throw new Error(`${path} ${run.status}: ${JSON.stringify(run.error)}`);
      return (performance.now() - started) / 1000;
    },
  };
  try {
    return await fn(stack);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The bytes made a new document, as a user's next one is: a text with its number after its line, a
 * PDF with a comment after its end (readers ignore it). A document sent again finds its File and
 * stored bytes and skips their writes, a path new documents never take.
 */
export function asNewDocument(bytes: Buffer, kind: 'pdf' | 'txt', n: number): Buffer {
  if (kind === 'txt') return Buffer.from(`${bytes.toString('utf8').trimEnd()} (${n})\n`);
  return Buffer.concat([bytes, Buffer.from(`\n% document ${n}\n`)]);
}
