/**
 * Authentication and environments (API §1) on the real local emulators, plus the other routes every
 * deployment serves: models (API §14), the OpenAPI document and the docs page (API §0.1).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, getOrganization, revokeApiKey } from '../../../functions/auth/service.ts';
import { Invalid } from '../../../functions/platform/errors.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { routes } from '../../../functions/features.ts';
import { gate, probeRoutes } from '../../support/probe.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: probeRoutes });
});
afterAll(() => cloud?.close());

const status = (key: string | null, headers?: Record<string, string>) => cloud.api('GET', '/v1/auth/status', { key, headers });
const secret = () => randomBytes(24).toString('base64url');

async function newKey(environment: 'test' | 'production', options: { legacy?: boolean; key?: string; name?: string } = {}) {
  return createApiKey(platform(), { orgId: cloud.orgId, environment, name: options.name ?? 'extra', role: 'admin', legacy: options.legacy, key: options.key });
}

describe('GET /v1/auth/status', () => {
  it('a test key: the exact body of API §1, non_production', async () => {
    const org = await getOrganization(platform(), cloud.orgId);
    const r = await status(cloud.keys.test);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      authenticated: true,
      auth_method: 'api_key',
      organization_id: cloud.orgId,
      environment_slug: 'test',
      environment_id: org.environments.test,
      environment: { id: org.environments.test, name: 'test', type: 'non_production' },
      key: { id: expect.stringMatching(/^key_[0-9a-z]{26}$/), name: 'test key', prefix: 'rt_test_', last4: cloud.keys.test.slice(-4), role: 'admin', legacy: false },
    });
    expect(r.body.environment_id).toMatch(/^env_[0-9a-z]{26}$/);
    expect(r.body.organization_id).toMatch(/^org_[0-9a-z]{26}$/);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('a live key: the production environment of the same organization', async () => {
    const org = await getOrganization(platform(), cloud.orgId);
    const r = await status(cloud.keys.live);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      authenticated: true,
      auth_method: 'api_key',
      organization_id: cloud.orgId,
      environment_slug: 'production',
      environment_id: org.environments.production,
      environment: { id: org.environments.production, name: 'production', type: 'production' },
      key: { id: expect.stringMatching(/^key_/), name: 'production key', prefix: 'rt_live_', last4: cloud.keys.live.slice(-4), role: 'admin', legacy: false },
    });
    expect(org.environments.production).not.toBe(org.environments.test);
  });

  it('another organization has its own organization and environment ids', async () => {
    const mine = (await status(cloud.keys.test)).body;
    const theirs = (await status(cloud.keys.otherOrgTest)).body;
    expect(theirs.organization_id).not.toBe(mine.organization_id);
    expect(theirs.environment_id).not.toBe(mine.environment_id);
  });
});

describe('401s', () => {
  it.each([
    ['no Authorization header', null, undefined, /^Missing API key/],
    ['a malformed header', null, { authorization: 'Token abc' }, /^Malformed Authorization header/],
    ['a malformed key', 'not-a-key', undefined, /^Malformed API key/],
    ['a key of an unknown prefix', `pk_live_${'a'.repeat(30)}`, undefined, /^Malformed API key/],
    ['an unknown key', `rt_test_${'z'.repeat(32)}`, undefined, /^Invalid API key$/],
    ['an unknown live key', `rt_live_${'z'.repeat(32)}`, undefined, /^Invalid API key$/],
  ])('%s → 401 {"detail": <reason>}', async (_, key, headers, reason) => {
    const r = await status(key, headers);
    expect(r.status).toBe(401);
    expect(Object.keys(r.body)).toEqual(['detail']);
    expect(r.body.detail).toMatch(reason);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    // Every authenticated route answers the same.
    const files = await cloud.api('GET', '/v1/files', { key, headers });
    expect(files.status).toBe(401);
    expect(files.body).toEqual(r.body);
  });

  it('a revoked key → 401 "API key revoked", at once and on every route', async () => {
    const { key, item } = await newKey('test', { name: 'to revoke' });
    expect((await status(key)).status).toBe(200);
    const revoked = await revokeApiKey(platform(), cloud.orgId, item.id);
    expect(revoked.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const [method, path] of [
      ['GET', '/v1/auth/status'],
      ['GET', '/v1/files'],
      ['GET', '/v1/models'],
      ['POST', '/v1/files'],
    ] as const) {
      const r = await cloud.api(method, path, { key, body: method === 'POST' ? { document: { filename: 'x.txt', url: dataUrl('text/plain', 'x') } } : undefined });
      expect(r.status, path).toBe(401);
      expect(r.body).toEqual({ detail: 'API key revoked' });
    }
    // Revoking twice is harmless; other keys are untouched.
    expect((await revokeApiKey(platform(), cloud.orgId, item.id)).revoked_at).toBe(revoked.revoked_at);
    expect((await status(cloud.keys.test)).status).toBe(200);
  });

  it('a key revoked after it was used is refused at once, on reads too (what a key names is remembered, its revocation never)', async () => {
    const { key, item } = await newKey('test');
    const file = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: 'seen.txt', url: dataUrl('text/plain', `seen ${secret()}`) } } });
    expect((await cloud.api('GET', `/v1/files/${file.body.id}`, { key })).status).toBe(200);
    await revokeApiKey(platform(), cloud.orgId, item.id);
    const r = await cloud.api('GET', `/v1/files/${file.body.id}`, { key });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'API key revoked' });
    expect((await cloud.api('GET', '/v1/files?limit=10', { key })).status).toBe(401);
  });

  it('a revoked key stores nothing, even for a valid request', async () => {
    const { key, item } = await newKey('test');
    await revokeApiKey(platform(), cloud.orgId, item.id);
    const before = (await cloud.api('GET', '/v1/files?limit=100')).body.data.length;
    const r = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: 'revoked.txt', url: dataUrl('text/plain', `revoked ${secret()}`) } } });
    expect(r.status).toBe(401);
    expect((await cloud.api('GET', '/v1/files?limit=100')).body.data.length).toBe(before);
  });

  it('revocation takes effect mid-request: a key revoked while its request works gets 401, not 201', async () => {
    const { key, item } = await newKey('test', { name: 'revoked in flight' });
    const g = gate('auth-revoke-in-flight');
    const pending = cloud.api('POST', '/v1/probes', { key, body: { mode: 'gate', gate: 'auth-revoke-in-flight', text: 'work' } });
    await g.reached.promise;
    await revokeApiKey(platform(), cloud.orgId, item.id);
    g.open.resolve();
    const r = await pending;
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'API key revoked' });
    expect(r.text).not.toContain('work');
  });
});

describe('keys: the prefix is only a hint', () => {
  it('a legacy sk_service_ key is a production key with legacy: true', async () => {
    const { key, item } = await newKey('production', { legacy: true, name: 'old integration' });
    expect(key).toMatch(/^sk_service_[A-Za-z0-9_-]{16,}$/);
    expect(item).toMatchObject({ prefix: 'sk_service_', legacy: true, environment_slug: 'production' });
    expect(item).not.toHaveProperty('key');
    expect(JSON.stringify(item)).not.toContain(key);
    const r = await status(key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      environment_slug: 'production',
      environment: { name: 'production', type: 'production' },
      key: { id: item.id, name: 'old integration', prefix: 'sk_service_', last4: key.slice(-4), legacy: true, role: 'admin' },
    });
    // It sees what the live key sees.
    const live = await cloud.api('POST', '/v1/files', { key: cloud.keys.live, body: { document: { filename: 'shared.txt', url: dataUrl('text/plain', 'production data') } } });
    expect((await cloud.api('GET', `/v1/files/${live.body.id}`, { key })).status).toBe(200);
  });

  it('a legacy key cannot be made for the test environment', async () => {
    await expect(newKey('test', { legacy: true })).rejects.toBeInstanceOf(Invalid);
  });

  it('an rt_test_ string registered as a production key authenticates as production', async () => {
    const given = `rt_test_${secret()}`;
    const { key, item } = await newKey('production', { key: given, name: 'odd prefix' });
    expect(key).toBe(given);
    expect(item).toMatchObject({ prefix: 'rt_test_', environment_slug: 'production', legacy: false });
    const r = await status(given);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ environment_slug: 'production', environment: { type: 'production' }, key: { prefix: 'rt_test_', name: 'odd prefix' } });
    // And it reads production data, not test data.
    const test = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'test-only.txt', url: dataUrl('text/plain', 'test data') } } });
    expect((await cloud.api('GET', `/v1/files/${test.body.id}`, { key: given })).status).toBe(404);
  });

  it('registering a given key again is idempotent; for another environment it is refused', async () => {
    const given = `rt_live_${secret()}`;
    const first = await newKey('production', { key: given });
    const again = await newKey('production', { key: given });
    expect(again.item.id).toBe(first.item.id);
    await expect(newKey('test', { key: given })).rejects.toBeInstanceOf(Invalid);
    await expect(newKey('test', { key: 'rt_test_short' })).rejects.toBeInstanceOf(Invalid);
  });
});

describe('isolation between organizations and environments', () => {
  it("a key of one organization cannot see another organization's files", async () => {
    const theirs = await cloud.api('POST', '/v1/files', { key: cloud.keys.otherOrgTest, body: { document: { filename: 'private.txt', url: dataUrl('text/plain', `private ${secret()}`) } } });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id;
    for (const key of [cloud.keys.test, cloud.keys.live, cloud.keys.otherOrgLive]) {
      const r = await cloud.api('GET', `/v1/files/${id}`, { key });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: `File ${id} not found` });
      expect((await cloud.api('GET', `/v1/files/${id}/download-link`, { key })).body).toEqual({ detail: `File ${id} not found` });
      const list = await cloud.api('GET', '/v1/files?limit=100', { key });
      expect(list.body.data.map((f: { id: string }) => f.id)).not.toContain(id);
    }
    expect((await cloud.api('GET', `/v1/files/${id}`, { key: cloud.keys.otherOrgTest })).status).toBe(200);
  });
});

describe('GET /v1/models', () => {
  it('lists quire-local and the retab-* aliases with the fields of API §14', async () => {
    const r = await cloud.api('GET', '/v1/models');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    const ids = r.body.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['quire-local', 'retab-micro', 'retab-small', 'retab-large']));
    for (const model of r.body.data) {
      expect(Object.keys(model).sort()).toEqual(['capabilities', 'credits_per_page', 'id', 'provider']);
      expect(typeof model.provider).toBe('string');
      expect(Array.isArray(model.capabilities)).toBe(true);
      expect(model.capabilities.length).toBeGreaterThan(0);
      for (const capability of model.capabilities) expect(typeof capability).toBe('string');
      expect(typeof model.credits_per_page).toBe('number');
    }
    const local = r.body.data.find((m: { id: string }) => m.id === 'quire-local');
    expect(local.provider).toBe('quire-local');
    expect(local.capabilities).toEqual(expect.arrayContaining(['parse', 'split', 'classify', 'extract']));
    expect((await cloud.api('GET', '/v1/models', { key: null })).status).toBe(401);
  });
});

describe('public documentation routes', () => {
  it('GET /openapi.json (no auth) is OpenAPI 3.1.0 with a path and method for every route', async () => {
    const r = await cloud.api('GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.info.title).toBeTruthy();
    // Dashboard routes (auth: session) serve people, not API clients: they are not in the document.
    for (const route of routes.filter((x) => x.op.auth !== 'session')) {
      const op = r.body.paths?.[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.responses).toBeDefined();
      if (route.op.auth === 'public') expect(op.security).toEqual([]);
      else expect(op.responses['401']).toBeDefined();
    }
    // Every $ref points at a component that exists.
    const refs = [...r.text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    for (const ref of new Set(refs)) expect(r.body.components.schemas[ref], ref).toBeDefined();
    // It is public even with a bad key.
    expect((await cloud.api('GET', '/openapi.json', { key: 'garbage' })).status).toBe(200);
  });

  it('GET /docs (no auth) is an HTML page loading /docs/swagger-ui-bundle.js, which is served', async () => {
    const page = await cloud.api('GET', '/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/^<!doctype html>/i);
    expect(page.text).toContain('/docs/swagger-ui-bundle.js');
    expect(page.text).toContain('/openapi.json');

    const bundle = await cloud.api('GET', '/docs/swagger-ui-bundle.js', { key: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    expect(bundle.text).toContain('SwaggerUIBundle');
    for (const asset of ['swagger-ui.css', 'swagger-ui-standalone-preset.js']) {
      expect((await cloud.api('GET', `/docs/${asset}`, { key: null })).status, asset).toBe(200);
    }
    const missing = await cloud.api('GET', '/docs/package.json', { key: null });
    expect(missing.status).toBe(404);
  });
});
