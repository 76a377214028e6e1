/**
 * `npm start`: the whole service on this machine. State under .quire/ (QUIRE_DATA_DIR to move it);
 * PORT (default 3000) and HOST (default 127.0.0.1) choose where it listens. Ctrl-C stops everything.
 */
import { resolve } from 'node:path';
import { ModelsConfigError, registryFromEnvironment } from '../functions/models/registry.ts';
import { platform } from '../functions/platform/platform.ts';
import { bootstrap } from '../lib/local/bootstrap.ts';
import { startLocalCloud } from '../lib/local/cloud.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const dataDir = resolve(process.env.QUIRE_DATA_DIR ?? '.quire');
const started = Date.now();
// An invalid QUIRE_MODELS (or QUIRE_MODELS_FILE) stops start-up here, before anything listens.
try {
  registryFromEnvironment();
} catch (error) {
  if (!(error instanceof ModelsConfigError)) throw error;
  console.error(`Quire could not start: ${error.message}`);
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
const cloud = await startLocalCloud({ dataDir, host, port, mode: 'workers' }).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') console.error(`Port ${port} on ${host} is in use: stop what holds it or choose another with PORT=...`);
  else console.error(`Quire could not start: ${error.message}`);
  process.exit(1);
});
const boot = await bootstrap(platform(), dataDir, { testKey: process.env.QUIRE_TEST_KEY, liveKey: process.env.QUIRE_LIVE_KEY });

console.log(`Quire is listening on ${cloud.url} (ready in ${Date.now() - started} ms; data in ${dataDir})`);
console.log(`Organization: ${boot.organizationId}`);
for (const { environment, key } of boot.created) {
  console.log(`${environment === 'test' ? 'Test' : 'Live'} key (shown once, keep it): ${key}`);
}
console.log(`Try: curl -H "Authorization: Bearer <key>" ${cloud.url}/v1/auth/status   ·   API reference: ${cloud.url}/docs`);
console.log(`Dashboard: ${cloud.url}/dashboard   ·   first sign-in: npm run quire -- members create --email you@example.com`);
// The background-task containers load behind the API (seconds of CPU): said once they are warm.
void cloud.tasksReady.then(() => console.log(`Background tasks ready (in ${Date.now() - started} ms)`));

// Benchmarks (npm run soak) watch the memory of this process: QUIRE_MEMORY_LOG_MS prints it that often.
const memoryLogMs = Number(process.env.QUIRE_MEMORY_LOG_MS ?? 0);
if (memoryLogMs > 0) {
  setInterval(() => {
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    console.log(`memory ${JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external })}`);
  }, memoryLogMs).unref();
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Quire...`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await cloud.close();
  console.log('Stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
