/**
 * Streamed answers through the local runtime as `npm start` runs them (issue 43 part 3): the HTTP
 * server writes each part as the handler, in a worker thread, writes it; a client that goes away is
 * told to the handler, which stops; the container then serves the next request.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operation } from '../../../functions/platform/operation.ts';
import { startHttpServer, type LocalHttpServer } from '../../../lib/local/http-server.ts';
import { REPO_ROOT, workerPoolInvoker, type Invoker } from '../../../lib/local/invoker.ts';

const module = join(REPO_ROOT, 'test/lib/local/stream-handler.ts');
const route = { method: 'POST' as const, path: '/stream', module, handler: 'lines', size: 'small' as const, op: operation({ summary: 'test', auth: 'public', status: 200 }), stream: true };
const dir = mkdtempSync(join(tmpdir(), 'quire-stream-'));
let invoker: Invoker;
let server: LocalHttpServer;

beforeAll(async () => {
  invoker = workerPoolInvoker({ taskWorkers: 1, requestWorkers: 1, cores: 2, requestModules: [module] });
  server = await startHttpServer({ routes: [route], invoker, host: '127.0.0.1', port: 0 });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await invoker?.close();
});

/** Posts to the stream route; resolves with each line and when it came. */
function post(body: object, stopAfter?: number): Promise<{ status: number; lines: Array<{ at: number; text: string }> }> {
  const url = new URL(server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const lines: Array<{ at: number; text: string }> = [];
    const req = request({ host: url.hostname, port: url.port, path: '/stream', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let buffered = '';
      res.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          lines.push({ at: Date.now(), text: buffered.slice(0, newline) });
          buffered = buffered.slice(newline + 1);
        }
        if (stopAfter !== undefined && lines.length >= stopAfter) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, lines });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, lines }));
      res.on('error', () => undefined);
    });
    req.on('error', (error) => (stopAfter !== undefined ? undefined : reject(error)));
    req.end(payload);
  });
}

async function waitFor(file: string): Promise<string> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return readFileSync(file, 'utf8');
}

it('each part goes out as the handler in its worker thread writes it', async () => {
  const marker = join(dir, 'whole');
  const started = Date.now();
  const r = await post({ chunks: 4, delayMs: 300, marker });
  expect(r.status).toBe(200);
  expect(r.lines.map((l) => JSON.parse(l.text).i)).toEqual([0, 1, 2, 3]);
  // The first line came long before the last was written: streamed, not buffered.
  expect(r.lines[0]!.at - started).toBeLessThan(r.lines[3]!.at - started - 600);
  expect(await waitFor(marker)).toBe('done');
}, 30_000);

it('a client gone away is told to the handler, which stops; the container serves the next request', async () => {
  const marker = join(dir, 'cut');
  const r = await post({ chunks: 50, delayMs: 100, marker }, 2);
  expect(r.lines.length).toBeGreaterThanOrEqual(2);
  expect(await waitFor(marker)).toMatch(/^cut after \d+$/);
  const next = await post({ chunks: 1, delayMs: 0, marker: join(dir, 'next') });
  expect(next.lines).toHaveLength(1);
}, 30_000);
