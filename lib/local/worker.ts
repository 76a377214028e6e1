/**
 * One warm "Lambda container": imports handler modules on first use and runs one invocation at a time.
 * Like every Lambda entry, it first hands the platform its feature adapters (functions/wiring.ts).
 */
import { parentPort } from 'node:worker_threads';
import '../../functions/wiring.ts';
import { lambdaContext } from './invoker.ts';

const modules = new Map<string, Promise<Record<string, unknown>>>();

parentPort!.on('message', async (message: { module: string; handler: string; event: unknown; timeoutMs: number }) => {
  try {
    let mod = modules.get(message.module);
    if (!mod) {
      mod = import(message.module) as Promise<Record<string, unknown>>;
      modules.set(message.module, mod);
    }
    const fn = (await mod)[message.handler];
    if (typeof fn !== 'function') throw new Error(`${message.module} exports no function ${message.handler}`);
    const value = await (fn as (e: unknown, c: unknown) => Promise<unknown>)(message.event, lambdaContext(message.handler, message.timeoutMs));
    parentPort!.postMessage({ ok: true, value });
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(error) } });
  }
});
