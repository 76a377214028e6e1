/**
 * Integration-test harness: the real local cloud (dynalite, s3rver, local Step Functions and KMS) in
 * this test process, handlers inline, in a fresh temp data dir. Two organizations, each with a test
 * and a live key, so isolation can be checked from every side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, createOrganization } from '../../functions/auth/service.ts';
import { platform } from '../../functions/platform/platform.ts';
import type { Route } from '../../functions/platform/route.ts';
import { startLocalCloud, type Endpoints } from '../../lib/local/cloud.ts';

export interface Keys {
  test: string;
  live: string;
  otherOrgTest: string;
  otherOrgLive: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestCloud {
  url: string;
  endpoints: Endpoints;
  dataDir: string;
  orgId: string;
  keys: Keys;
  /** Calls the API; `key: null` sends no Authorization header. */
  api<T = any>(method: string, path: string, options?: { key?: string | null; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTestCloud(options: { extraRoutes?: Route[]; syncWaitMs?: number; webhooks?: { retryScale?: number; timeoutMs?: number }; sweeper?: { intervalMs?: number; graceMs?: number }; /** Reuse (and keep) this data dir: a restart. */ dataDir?: string; keys?: Keys & { orgId: string } } = {}): Promise<TestCloud> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'quire-test-'));
  const cloud = await startLocalCloud({ dataDir, port: 0, mode: 'inline', extraRoutes: options.extraRoutes, syncWaitMs: options.syncWaitMs, webhooks: options.webhooks, sweeper: options.sweeper });
  const p = platform();
  let orgId: string;
  let keys: Keys;
  if (options.keys) {
    // A restart: the organization and keys are already in the data dir.
    ({ orgId, ...keys } = options.keys);
  } else {
    const org = await createOrganization(p, 'Test org');
    const other = await createOrganization(p, 'Other org');
    const key = async (id: string, environment: 'test' | 'production') => (await createApiKey(p, { orgId: id, environment, name: `${environment} key`, role: 'admin' })).key;
    orgId = org.id;
    keys = { test: await key(org.id, 'test'), live: await key(org.id, 'production'), otherOrgTest: await key(other.id, 'test'), otherOrgLive: await key(other.id, 'production') };
  }

  return {
    url: cloud.url,
    endpoints: cloud.endpoints,
    dataDir,
    orgId,
    keys,
    async api(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const key = opts.key === undefined ? keys.test : opts.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | Buffer | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${cloud.url}${path}`, { method, headers, body, redirect: 'manual' });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async close() {
      await cloud.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A data URL of the given bytes. */
export function dataUrl(mime: string, bytes: Buffer | string): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** Polls `check` until it returns a value (not undefined) or the timeout passes. */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 10;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 200);
  }
}
