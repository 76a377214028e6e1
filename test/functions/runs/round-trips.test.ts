/**
 * The fixed cost of a sync run (issue 23: a 1-page sync parse, goal ≤ 40 ms on `npm start`) is its
 * sequential calls to DynamoDB, S3 and Step Functions, 2–8 ms each on the local emulators. This
 * counts them for a sync parse of a document already stored, so no change adds one unnoticed: on
 * the code before it was 20 here (the waiting request polled the run record, 5 reads here, and read
 * the output back; the task read the record back twice and the lookup and the bytes' check went one
 * after the other); it is 13, of which 11 one after the other. The 13th: the usage entry reads the run's
 * record for the usage breakdowns (its model, documents, metadata, the key that started it), which the
 * finish step, a Lambda invocation of its own, does not hold.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
let original: Platform;
beforeAll(async () => {
  cloud = await startTestCloud();
  original = platform();
});
afterAll(async () => {
  setPlatform(original);
  await cloud?.close();
});

/** The platform with every Store, Blobs and Runner call written to `calls` as "port.method". */
function counted(p: Platform, calls: string[]): Platform {
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(t, method) {
        const value = (t as Record<PropertyKey, unknown>)[method];
        if (typeof value !== 'function' || method === 'keyOfUrl') return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(method)}`);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return { ...p, store: wrap('store', p.store), blobs: wrap('blobs', p.blobs), runner: wrap('runner', p.runner) };
}

it('a sync parse of a stored document makes 13 calls to the emulators: none reads back what the other side already knows', async () => {
  const body = { document: { filename: 'note.txt', url: dataUrl('text/plain', 'Quarterly report: revenue grew by 12 percent.\n') }, bust_cache: true };
  // Once to store the document and its File, and to warm every module.
  expect((await cloud.api('POST', '/v1/parses', { body })).status).toBe(201);
  const calls: string[] = [];
  setPlatform(counted(original, calls));
  try {
    const r = await cloud.api('POST', '/v1/parses', { body });
    expect(r.status).toBe(201);
    expect(r.body.output.pages[0]).toContain('revenue grew by 12 percent');
  } finally {
    setPlatform(original);
  }
  expect([...calls].sort()).toEqual(
    [
      'store.getItem', // the API key
      'store.getItem', // the File of these bytes and name, looked up…
      'blobs.head', // …while the bytes are checked in storage
      'store.getRecord', // the File
      'store.putRecord', // the run, queued
      'runner.start', // its execution
      'store.moveStatus', // start: queued → in_progress (the record kept for execute)
      'blobs.get', // execute: the document
      'blobs.put', // the output…
      'store.getRecord', // …while the usage entry reads the run for what it shows of it…
      'store.putRecord', // …and is written
      'store.moveStatus', // in_progress → completed, announced with the record and the output
      'store.getItem', // the API key, checked again before the answer
    ].sort(),
  );
});

it('a get of a completed run with a small output reads its record only; a large output is read from its object', async () => {
  const small = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'small.txt', url: dataUrl('text/plain', 'Invoice number: INV-1\n') }, bust_cache: true } });
  // ~20 KB of text: over the 8 KB kept in the record.
  const longText = Array.from({ length: 400 }, (_, i) => `Line ${i}: the quarterly revenue grew by ${i % 17} percent.`).join('\n');
  const large = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'large.txt', url: dataUrl('text/plain', longText) }, bust_cache: true } });
  expect([small.body.status, large.body.status]).toEqual(['completed', 'completed']);
  const readsOf = async (id: string) => {
    const calls: string[] = [];
    setPlatform(counted(original, calls));
    try {
      const r = await cloud.api('GET', `/v1/parses/${id}`);
      expect(r.status).toBe(200);
      return { pages: r.body.output.pages as string[], calls: calls.filter((c) => c !== 'store.getItem') }; // (the API key)
    } finally {
      setPlatform(original);
    }
  };
  const smallRead = await readsOf(small.body.id);
  expect(smallRead.pages[0]).toContain('INV-1');
  expect(smallRead.calls).toEqual(['store.getRecord']);
  const largeRead = await readsOf(large.body.id);
  expect(largeRead.pages.join('\n')).toContain('Line 399: the quarterly revenue grew by 8 percent.');
  expect(largeRead.calls).toEqual(['store.getRecord', 'blobs.get']);
});
