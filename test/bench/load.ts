/**
 * Load (issue 12): 50 concurrent clients against `npm start`'s entry (worker threads, dynalite,
 * s3rver, local Step Functions) mixing creates (small background parses and extractions of tiny text
 * documents), gets, lists and cancels. Any 5xx, unexpected 4xx or socket error counts as an error;
 * after the load every created run must end. `npm run bench -- load` (LOAD_SECONDS, LOAD_CLIENTS).
 * The soak (test/bench/soak.ts) runs the same mix for longer and watches the server's memory.
 */
import { readFileSync } from 'node:fs';
import { withLocalStack, type BenchStack } from './stack.ts';

export type Operation = 'create' | 'get' | 'list' | 'cancel';
const OPERATIONS: Operation[] = ['create', 'get', 'list', 'cancel'];
/** Cumulative weights: 15% creates, 40% gets, 30% lists, 15% cancels. */
const MIX: Array<[number, Operation]> = [
  [0.15, 'create'],
  [0.55, 'get'],
  [0.85, 'list'],
  [1, 'cancel'],
];

export interface MixResult {
  seconds: number;
  latencies: Record<Operation, number[]>;
  statuses: Record<string, number>;
  errors: string[];
  created: Array<{ path: string; id: string }>;
}

const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total: { type: ['number', 'null'] } } };

/** The server's resident memory (its worker threads included), from /proc. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/**
 * `clients` loops, each sending one request after the other for `seconds`. With `maxActive`, a
 * client about to create while that many of its runs are not known to have ended gets one of them
 * instead (back-pressure, as a polling client does), so a long soak does not pile up a backlog.
 */
export async function runMix(stack: BenchStack, clients: number, seconds: number, maxActive = Infinity): Promise<MixResult> {
  const result: MixResult = { seconds, latencies: { create: [], get: [], list: [], cancel: [] }, statuses: {}, errors: [], created: [] };
  const deadline = Date.now() + seconds * 1000;
  let counter = 0;
  const active = new Map<string, { path: string; id: string }>();
  const pick = () => result.created[Math.floor(Math.random() * result.created.length)];
  // Cancels aim at recent runs, so some are still active when the cancel comes.
  const recent = () => result.created[Math.max(0, result.created.length - 1 - Math.floor(Math.random() * 20))];

  async function once(op: Operation): Promise<void> {
    let method = 'GET';
    let path: string;
    let body: string | undefined;
    let kindPath: string | undefined;
    if (op === 'create' && active.size >= maxActive) {
      op = 'get';
      const run = [...active.values()][Math.floor(Math.random() * active.size)]!;
      path = `${run.path}/${run.id}?include_output=false`;
    } else if (op === 'create' || result.created.length === 0) {
      op = 'create';
      const n = counter++;
      kindPath = n % 2 === 0 ? '/v1/parses' : '/v1/extractions';
      const document = { filename: `load-${n}.txt`, url: `data:text/plain;base64,${Buffer.from(`Invoice number: INV-${n}\nTotal: ${n}.00`).toString('base64')}` };
      method = 'POST';
      path = kindPath;
      body = JSON.stringify(kindPath === '/v1/parses' ? { document, background: true, bust_cache: true } : { document, json_schema: SCHEMA, background: true, bust_cache: true });
    } else if (op === 'get') {
      const run = pick()!;
      path = `${run.path}/${run.id}`;
    } else if (op === 'list') {
      path = `${Math.random() < 0.5 ? '/v1/parses' : '/v1/extractions'}?limit=20&include_output=false`;
    } else {
      const run = recent()!;
      method = 'POST';
      path = `${run.path}/${run.id}/cancel`;
    }
    const started = performance.now();
    try {
      const response = await fetch(`${stack.base}${path}`, { method, headers: stack.headers, body });
      const text = await response.text();
      result.latencies[op].push(performance.now() - started);
      const key = `${op} ${response.status}`;
      result.statuses[key] = (result.statuses[key] ?? 0) + 1;
      if (response.status >= 400) result.errors.push(`${method} ${path} → ${response.status} ${text.slice(0, 200)}`);
      else {
        const data = JSON.parse(text) as { id?: string; status?: string };
        if (op === 'create') {
          const run = { path: kindPath!, id: data.id! };
          result.created.push(run);
          active.set(run.id, run);
        } else if (data.id && ['completed', 'failed', 'cancelled'].includes(data.status ?? '')) active.delete(data.id);
      }
    } catch (error) {
      result.latencies[op].push(performance.now() - started);
      result.statuses[`${op} socket error`] = (result.statuses[`${op} socket error`] ?? 0) + 1;
      result.errors.push(`${method} ${path} → ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
    }
  }

  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        const roll = Math.random();
        await once(MIX.find(([limit]) => roll < limit)![1]);
      }
    }),
  );
  return result;
}

/** After the load: every created run must reach a terminal status. Returns the counts and how long it took. */
export async function drain(stack: BenchStack, created: MixResult['created'], timeoutMs = 300_000): Promise<{ byStatus: Record<string, number>; seconds: number; stuck: string[] }> {
  const started = Date.now();
  const pending = new Map(created.map((r) => [r.id, r]));
  const byStatus: Record<string, number> = {};
  while (pending.size > 0 && Date.now() - started < timeoutMs) {
    for (const run of [...pending.values()]) {
      const response = await fetch(`${stack.base}${run.path}/${run.id}?include_output=false`, { headers: stack.headers });
      const data = (await response.json()) as { status: string; error?: { code?: string; message?: string } | null };
      if (['completed', 'failed', 'cancelled'].includes(data.status)) {
        // Failed runs are counted by their error, so an unexpected failure shows.
        const key = data.status === 'failed' ? `failed (${run.path.slice(4)}: ${data.error?.code}: ${data.error?.message})` : data.status;
        byStatus[key] = (byStatus[key] ?? 0) + 1;
        pending.delete(run.id);
      }
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  return { byStatus, seconds: (Date.now() - started) / 1000, stuck: [...pending.keys()] };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function printMix(result: MixResult, clients: number): void {
  const total = OPERATIONS.reduce((n, op) => n + result.latencies[op].length, 0);
  console.log(`\n${clients} clients, ${result.seconds} s: ${total} requests (${(total / result.seconds).toFixed(0)} req/s), ${result.errors.length} errors`);
  console.log('| operation | requests | req/s | p50 ms | p99 ms | max ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const op of OPERATIONS) {
    const sorted = [...result.latencies[op]].sort((a, b) => a - b);
    console.log(`| ${op} | ${sorted.length} | ${(sorted.length / result.seconds).toFixed(1)} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} |`);
  }
  const reads = [...result.latencies.get, ...result.latencies.list].sort((a, b) => a - b);
  console.log(`reads (gets and lists): p50 ${percentile(reads, 50).toFixed(1)} ms, p99 ${percentile(reads, 99).toFixed(1)} ms`);
  console.log(`statuses: ${JSON.stringify(result.statuses)}`);
  if (result.errors.length > 0) console.log(`first errors:\n  ${result.errors.slice(0, 10).join('\n  ')}`);
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export async function benchLoad(): Promise<void> {
  const clients = Number(process.env.LOAD_CLIENTS ?? 50);
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  await withLocalStack(async (stack) => {
    const rssStart = rssBytes(stack.pid);
    const result = await runMix(stack, clients, seconds);
    const rssEnd = rssBytes(stack.pid);
    printMix(result, clients);
    const drained = await drain(stack, result.created);
    const rssDrained = rssBytes(stack.pid);
    console.log(`runs created: ${result.created.length}; after the load: ${JSON.stringify(drained.byStatus)} within ${drained.seconds.toFixed(1)} s; stuck: ${drained.stuck.length}`);
    console.log(`server RSS: start ${mb(rssStart)} MB, end of load ${mb(rssEnd)} MB, after the backlog drained ${mb(rssDrained)} MB`);
    if (result.errors.length > 0 || drained.stuck.length > 0) {
      console.log('LOAD FAILED: errors or runs that never ended (see above)');
      process.exitCode = 1;
    }
  });
}
