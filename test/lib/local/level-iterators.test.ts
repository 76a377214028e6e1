/**
 * Regression test: dynalite (the local DynamoDB) must close the LevelDB iterator of every Query once
 * it has its page. It used to leave one open per Query (see lib/local/level-iterators.ts), which made
 * the local server's memory grow without bound under load.
 */
import { AbstractLevel } from 'abstract-level';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
/** Iterators registered with a LevelDB database and not yet closed, counted by watching the database. */
let openIterators = 0;
const restore: Array<() => void> = [];

beforeAll(async () => {
  const prototype = AbstractLevel.prototype as unknown as Record<'attachResource' | 'detachResource', (resource: object) => void>;
  for (const [method, change] of [
    ['attachResource', 1],
    ['detachResource', -1],
  ] as const) {
    const original = prototype[method];
    prototype[method] = function (this: unknown, resource: object) {
      if (resource.constructor.name.endsWith('Iterator')) openIterators += change;
      return original.call(this, resource);
    };
    restore.push(() => (prototype[method] = original));
  }
  cloud = await startTestCloud();
});

afterAll(async () => {
  await cloud?.close();
  for (const undo of restore) undo();
});

it('closes the LevelDB iterator of every list query (no iterator left open per request)', async () => {
  // Enough records that a page of 2 stops the query early, the case that leaked.
  for (let n = 0; n < 5; n++) {
    const created = await cloud.api('POST', '/v1/projects', { key: cloud.keys.test, body: { name: `Project ${n}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  const before = openIterators;
  for (let n = 0; n < 30; n++) {
    const listed = await cloud.api('GET', '/v1/projects?limit=2', { key: cloud.keys.test });
    expect(listed.status).toBe(200);
  }
  // Closing is asynchronous (a stream's destroy): give it a moment to settle.
  const deadline = Date.now() + 2_000;
  while (openIterators > before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(openIterators - before).toBe(0);
});
