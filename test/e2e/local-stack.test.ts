/**
 * End to end: `npm start` as a user runs it, driven over HTTP only; the admin CLI against it; a
 * restart keeps the state; Ctrl-C leaves no process and no bound port behind.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { spawnLocalServer } from '../support/local-server.ts';
import { freePort, portIsFree } from '../support/ports.ts';
import { greyToPng, renderScan } from '../support/scan-fixtures.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-e2e-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Stack {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function start(port: number, env: Record<string, string> = {}): Promise<Stack> {
  return spawnLocalServer({ via: 'npm start', port, env: { QUIRE_DATA_DIR: dataDir, ...env } });
}

/** Ctrl-C: SIGINT to the whole process group, then wait for every member to be gone. */
async function stop(stack: Stack): Promise<void> {
  const pgid = stack.child.pid!;
  process.kill(-pgid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return; // ESRCH: no process of the group is left
    }
    if (Date.now() > deadline) throw new Error(`processes left after Ctrl-C:\n${stack.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function cli(...args: string[]) {
  const result = spawnSync('npm', ['run', '--silent', 'quire', '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, QUIRE_DATA_DIR: dataDir }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

it('runs, serves, survives a restart and stops cleanly', async () => {
  const port = await freePort();
  const first = await start(port);
  const testKey = /Test key[^:]*: (rt_test_\S+)/.exec(first.output())?.[1];
  const liveKey = /Live key[^:]*: (rt_live_\S+)/.exec(first.output())?.[1];
  expect(testKey).toBeDefined();
  expect(liveKey).toBeDefined();

  const status = (await (await fetch(`${first.url}/v1/auth/status`, { headers: auth(testKey!) })).json()) as { organization_id: string };
  expect(status).toMatchObject({ authenticated: true, environment_slug: 'test', key: { prefix: 'rt_test_', role: 'admin' } });
  const live = await (await fetch(`${first.url}/v1/auth/status`, { headers: auth(liveKey!) })).json();
  expect(live).toMatchObject({ environment_slug: 'production', environment: { type: 'production' } });

  // Three-step upload round trip, then the bytes come back through the download link.
  // (A real one-page PDF: uploads are checked as a parse would open them.)
  const onePage = await PDFDocument.create();
  onePage.addPage([200, 200]);
  const bytes = Buffer.from(await onePage.save());
  const ticket = (await (
    await fetch(`${first.url}/v1/files/upload`, { method: 'POST', headers: { ...auth(testKey!), 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'e2e.pdf', size_bytes: bytes.length }) })
  ).json()) as { fileId: string; uploadUrl: string; uploadHeaders: Record<string, string> };
  expect((await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.uploadHeaders, body: bytes })).status).toBe(200);
  const completed = await fetch(`${first.url}/v1/files/upload/${ticket.fileId}/complete`, { method: 'POST', headers: { ...auth(testKey!), 'content-type': 'application/json' }, body: '{}' });
  expect(completed.status).toBe(200);
  const mime = (await completed.json()) as { url: string };
  expect(Buffer.from(await (await fetch(mime.url)).arrayBuffer())).toEqual(bytes);
  const file = await (await fetch(`${first.url}/v1/files/${ticket.fileId}`, { headers: auth(testKey!) })).json();
  expect(file).toMatchObject({ id: ticket.fileId, filename: 'e2e.pdf', mime_type: 'application/pdf', size_bytes: bytes.length });

  // Document work runs in the worker threads as users run it: OCR of a scanned page (tesseract.js
  // starts its own threads inside the worker; images decode in a child process).
  const scan = greyToPng(renderScan({ dpi: 150 }).image);
  const parse = await fetch(`${first.url}/v1/parses`, {
    method: 'POST',
    headers: { ...auth(testKey!), 'content-type': 'application/json' },
    body: JSON.stringify({ document: { filename: 'scan.png', url: `data:image/png;base64,${scan.toString('base64')}` } }),
  });
  type Parsed = { id: string; status: string; output: { text: string }; usage: { page_count: number } };
  let parsed = (await parse.json()) as Parsed;
  // A sync run that outlasts the sync wait answers `in_progress` (a loaded machine: the suite's other
  // files run beside this one); it is then fetched until done, as a user does.
  for (const until = Date.now() + 120_000; parsed.status === 'in_progress' && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    parsed = (await (await fetch(`${first.url}/v1/parses/${parsed.id}`, { headers: auth(testKey!) })).json()) as Parsed;
  }
  expect(parsed.status).toBe('completed');
  expect(parsed.usage.page_count).toBe(1);
  expect(parsed.output.text).toContain('invoice');

  // The admin CLI reaches the running stack through endpoints.json.
  const created = cli('keys', 'create', '--env', 'production', '--name', 'ci', '--role', 'viewer', '--json');
  expect(created.status).toBe(0);
  const made = JSON.parse(created.stdout);
  expect(made).toMatchObject({ environment: 'production', role: 'viewer', name: 'ci' });
  expect(made.key).toMatch(/^rt_live_/);
  expect((await fetch(`${first.url}/v1/auth/status`, { headers: auth(made.key) })).status).toBe(200);
  const legacy = JSON.parse(cli('keys', 'create', '--env', 'production', '--name', 'old', '--legacy', '--json').stdout);
  expect(legacy.key).toMatch(/^sk_service_/);
  const listed = JSON.parse(cli('keys', 'list', '--json').stdout);
  expect(listed.data.find((k: { id: string }) => k.id === legacy.id)).toMatchObject({ legacy: true, environment_slug: 'production' });
  expect(JSON.stringify(listed)).not.toContain(made.key);
  expect(cli('keys', 'list').stdout).toContain('[legacy]');
  expect(cli('keys', 'revoke', made.id).status).toBe(0);
  const revoked = await fetch(`${first.url}/v1/auth/status`, { headers: auth(made.key) });
  expect(revoked.status).toBe(401);
  expect(await revoked.json()).toEqual({ detail: 'API key revoked' });
  expect(cli('keys', 'create', '--env', 'staging', '--name', 'x').status).toBe(2);

  await stop(first);
  expect(await portIsFree(port)).toBe(true);

  // A restart keeps everything and prints no new keys; given keys are registered.
  const givenTest = 'rt_test_given0000000000000000000000';
  const second = await start(port, { QUIRE_TEST_KEY: givenTest });
  expect(second.output()).not.toContain('shown once');
  const again = await fetch(`${second.url}/v1/files/${ticket.fileId}`, { headers: auth(testKey!) });
  expect(again.status).toBe(200);
  const given = await (await fetch(`${second.url}/v1/auth/status`, { headers: auth(givenTest) })).json();
  expect(given).toMatchObject({ environment_slug: 'test', organization_id: status.organization_id });
  await stop(second);
  expect(await portIsFree(port)).toBe(true);
}, 120_000);
