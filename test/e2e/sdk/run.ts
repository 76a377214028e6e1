/**
 * `npm run sdk-e2e`: the official Retab Node SDK against `npm start`.
 *   1. builds a copy of ../shared/vendor/retab-node-sdk (npm ci + tsc: needs the npm registry; kept in
 *      $QUIRE_SDK_DIR, default node_modules/.cache/retab-node-sdk, and rebuilt when the vendored
 *      package-lock.json changes);
 *   2. starts `npm start` on a free port, in a fresh data dir, with a known test key;
 *   3. runs issue 42's scenario through the SDK (./scenario.ts);
 *   4. runs the SDK's own workflow e2e suites (tests/workflows/) under bun (npm package bun@1).
 * Exit code 0 only when all passed. Not part of `npm test` (no network there): the same scenario
 * runs in test/functions/workflows/sdk-scenario.test.ts with the SDK's exact requests.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { textPdf } from '../../support/text-pdf.ts';
import { sdkScenario } from './scenario.ts';

const REPO = resolve(import.meta.dirname, '../../..');
const VENDORED = resolve(REPO, '../shared/vendor/retab-node-sdk');
const SDK_DIR = resolve(process.env.QUIRE_SDK_DIR ?? join(REPO, 'node_modules/.cache/retab-node-sdk'));

function buildSdk(): void {
  const lock = readFileSync(join(VENDORED, 'package-lock.json'), 'utf8') + readFileSync(join(VENDORED, 'package.json'), 'utf8');
  const stamp = join(SDK_DIR, '.quire-built');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock && existsSync(join(SDK_DIR, 'dist/index.js'))) return;
  console.log(`Building the SDK in ${SDK_DIR} (npm ci, tsc)...`);
  rmSync(SDK_DIR, { recursive: true, force: true });
  mkdirSync(SDK_DIR, { recursive: true });
  cpSync(VENDORED, SDK_DIR, { recursive: true });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: SDK_DIR, stdio: 'inherit' });
  execFileSync('npx', ['tsc'], { cwd: SDK_DIR, stdio: 'inherit' });
  writeFileSync(stamp, lock);
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
    server.on('error', fail);
  });
}

async function main(): Promise<number> {
  buildSdk();
  const port = await freePort();
  const key = `rt_test_${randomBytes(20).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-sdk-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const server = spawn('npm', ['start'], { cwd: REPO, env: { ...process.env, PORT: String(port), QUIRE_DATA_DIR: dataDir, QUIRE_TEST_KEY: key }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  try {
    for (let i = 0; !output.includes('Quire is listening'); i++) {
      if (i > 1200 || server.exitCode !== null) throw new Error(`npm start did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { Retab } = await import(pathToFileURL(join(SDK_DIR, 'dist/index.js')).href);
    const client = new Retab({ apiKey: key, baseUrl: url });
    const pdf = `data:application/pdf;base64,${Buffer.from(await textPdf([['INVOICE', 'Invoice number: INV-3301', 'Total due: 980.00 EUR']])).toString('base64')}`;
    await sdkScenario(client, { url, key }, pdf, (line) => console.log(`  ✓ ${line}`));
    console.log('The SDK scenario passed.\nThe SDK\'s own workflow e2e suites (bun test tests/workflows/):');
    execFileSync('npx', ['-y', 'bun@1', 'test', 'tests/workflows/'], {
      cwd: SDK_DIR,
      stdio: 'inherit',
      env: { ...process.env, RETAB_API_KEY: key, RETAB_API_BASE_URL: url, RETAB_ENV_FILE: '/dev/null' },
    });
    return 0;
  } catch (error) {
    console.error(error);
    return 1;
  } finally {
    try {
      process.kill(-server.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exit(await main());
