/**
 * Local API throughput: GET /v1/auth/status and GET /v1/files/{id} on the real local stack (spawned as
 * `npm start` runs it: worker threads, dynalite), 16 concurrent connections, next to a bare node:http
 * server answering the same JSON in the same run. The ratio is the figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { freePort } from '../support/ports.ts';
import { withLocalStack } from './stack.ts';

const CONNECTIONS = 16;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function spawnAndWait(command: string, args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 30_000;
  while (!out.includes(ready)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${command} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

function stopGroup(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGINT');
  } catch {
    // already gone
  }
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<LoadResult> {
  // A short warm-up fills the worker pool and the module caches, as on warm Lambdas.
  await autocannon({ url, connections: CONNECTIONS, duration: 5, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const BARE_SERVER = `
const http = require('node:http');
const body = process.env.BODY;
http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_bare' }); res.end(body); })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
`;

export async function benchApi(): Promise<LoadResult[]> {
  return withLocalStack(async ({ base, headers }) => {
    const results: LoadResult[] = [];
    const auth = { authorization: headers.authorization! };
    const status = await (await fetch(`${base}/v1/auth/status`, { headers: auth })).text();
    const file = (await (
      await fetch(`${base}/v1/files`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ document: { filename: 'bench.txt', url: `data:text/plain;base64,${Buffer.from('bench').toString('base64')}` } }),
      })
    ).json()) as { id: string };
    const barePort = await freePort();
    const bare = await spawnAndWait('node', ['-e', BARE_SERVER], { PORT: String(barePort), BODY: status }, 'bare ready');
    try {
      results.push(await load('bare node:http (same JSON)', `http://127.0.0.1:${barePort}/`, {}));
    } finally {
      stopGroup(bare);
    }
    results.push(await load('GET /v1/auth/status', `${base}/v1/auth/status`, auth));
    results.push(await load('GET /v1/files/{id}', `${base}/v1/files/${file.id}`, auth));
    return results;
  });
}

export function printApiResults(results: LoadResult[]) {
  const bare = results[0]!;
  console.log(`\nLocal API, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each (autocannon)`);
  console.log('| route | req/s | p50 ms | p99 ms | errors | req/s vs bare node:http |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.requestsPerSecond / bare.requestsPerSecond).toFixed(3)} |`);
  }
}
