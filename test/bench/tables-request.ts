/**
 * What one request of a table costs the local stack, in CPU: a small table is made, then
 * `GET /v1/tables/{id}` and a `count_only` query are each asked REQUESTS times after a warm-up; the
 * server process's CPU (/proc, all its threads) per request is printed. With QUIRE_PROFILE_DIR set,
 * the server runs with --cpu-prof into that directory (profiles written when it stops).
 * `node --import tsx test/bench/tables-request.ts`
 */
import { loadavg } from 'node:os';
import { processCpuMs, withLocalStack } from './stack.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 200);

const csv = `id,name,amount,day\n${Array.from({ length: 1000 }, (_, i) => `${i},name ${i % 37},${(i * 1.5).toFixed(2)},2024-01-${String((i % 28) + 1).padStart(2, '0')}`).join('\n')}\n`;
const profileDir = process.env.QUIRE_PROFILE_DIR;
const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250'] : [];

await withLocalStack(async ({ base, headers, pid }) => {
  const created = await fetch(`${base}/v1/tables`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'small', document: { url: `data:text/csv;base64,${Buffer.from(csv).toString('base64')}`, filename: 'small.csv' } }),
  });
  const body = (await created.json()) as { tables: Array<{ id: string }> };
  if (!created.ok) throw new Error(JSON.stringify(body));
  const id = body.tables[0]!.id;
  const requests: Array<[string, () => Promise<Response>]> = [
    ['GET /v1/tables/{id}', () => fetch(`${base}/v1/tables/${id}`, { headers })],
    ['POST /v1/tables/{id}/query count_only', () => fetch(`${base}/v1/tables/${id}/query`, { method: 'POST', headers, body: JSON.stringify({ filters: [{ column: 'amount', operator: 'gt', value: 10 }], count_only: true }) })],
  ];
  for (const [label, ask] of requests) {
    for (let i = 0; i < 10; i++) {
      const r = await ask();
      if (!r.ok) throw new Error(`${label} ${r.status} ${await r.text()}`);
    }
    const cpu0 = processCpuMs(pid);
    const t0 = performance.now();
    const mono0 = process.hrtime.bigint() / 1000n;
    for (let i = 0; i < REQUESTS; i++) await (await ask()).text();
    const cpu = (processCpuMs(pid) - cpu0) / REQUESTS;
    // Monotonic µs, the clock of a .cpuprofile's timestamps: the window of these requests.
    if (profileDir) console.log(`window ${label}: ${mono0} ${process.hrtime.bigint() / 1000n}`);
    console.log(`${label.padEnd(40)} server CPU ${cpu.toFixed(1)} ms/request, wall ${((performance.now() - t0) / REQUESTS).toFixed(1)} ms (load ${loadavg()[0]!.toFixed(1)})`);
  }
}, {}, profiling);
