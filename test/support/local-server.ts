/**
 * The local runtime as its own process, for tests and benchmarks that drive it over HTTP only:
 * `npm start` as a user runs it, or its entry (`node --import tsx bin/local.ts`) without npm in
 * between. Spawned in its own process group (like a terminal's foreground job), so a signal to the
 * group reaches it and everything it started.
 *
 * It counts as started once its whole start banner is out: the last line ("Try: ... API reference")
 * comes after the keys it creates on a first start, which tests read from the output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../../lib/local/invoker.ts';

export interface LocalServer {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves once it has printed `text`; rejects after `timeoutMs` or if it exits first. */
  waitFor(text: string, timeoutMs: number): Promise<void>;
}

const STARTED = 'API reference:';

/** `nodeArgs`: options of node itself (`--cpu-prof`, which NODE_OPTIONS does not take), with `via: 'node'`. */
export async function spawnLocalServer(options: { via: 'npm start' | 'node'; port: number; env: Record<string, string>; nodeArgs?: string[] }): Promise<LocalServer> {
  const [command, args] = options.via === 'npm start' ? ['npm', ['start']] : ['node', [...(options.nodeArgs ?? []), '--import', 'tsx', 'bin/local.ts']];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(options.port), ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const waitFor = async (text: string, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`the local server (${options.via}) did not print "${text}":\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await waitFor(STARTED, 30_000);
  return { child, url: `http://127.0.0.1:${options.port}`, output: () => out, waitFor };
}
