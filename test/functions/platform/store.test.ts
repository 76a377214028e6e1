/**
 * The DynamoDB Store adapter (DESIGN §3) against the local emulator (dynalite): conditional writes,
 * status moves, lists with sparse filters across DynamoDB pages, cursors and scope isolation. Every
 * case runs twice: through the AWS SDK (as on AWS) and over the emulator's wire without it (as the
 * local runtime calls it, functions/platform/dynamo-calls.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, Conflict, Invalid } from '../../../functions/platform/errors.ts';
import { ulidBody } from '../../../functions/platform/ids.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { connect, createServer, type AddressInfo } from 'node:net';
import { emulatorCalls, sdkCalls, type DynamoCalls } from '../../../functions/platform/dynamo-calls.ts';
import { dynamoStore } from '../../../functions/platform/dynamo-store.ts';
import type { Scope, Store, StoredRecord } from '../../../functions/platform/ports.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
let store: Store;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const WAYS: Array<[string, () => DynamoCalls]> = [
  ['the emulator wire', () => emulatorCalls(cloud.endpoints.dynamodb)],
  ['the AWS SDK', () => sdkCalls(new DynamoDBClient({ region: cloud.endpoints.region, endpoint: cloud.endpoints.dynamodb }))],
];

interface Item {
  id: string;
  status?: string;
  n?: number;
  note?: string;
}

const newScope = (): Scope => ({ orgId: `org_${ulidBody(Date.now())}`, envId: `env_${ulidBody(Date.now())}` });
const newId = (prefix = 'thg') => `${prefix}_${ulidBody(Date.now())}`;
/** Distinct, increasing creation times: record i was created i seconds after `base`. */
const at = (i: number, base = Date.UTC(2026, 0, 1)) => new Date(base + i * 1000).toISOString();

function record(id: string, createdAt: string, extra: Partial<StoredRecord<Item>> = {}): StoredRecord<Item> {
  return { type: 'thing', id, createdAt, data: { id, status: extra.status, ...(extra.data ?? {}) }, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each(WAYS)('through %s', (_way, calls) => {
  beforeAll(() => {
    store = dynamoStore(calls(), cloud.endpoints.table);
  });

  describe('putRecord / getRecord', () => {
    it('round-trips a record with its status, file name and attributes', async () => {
      const scope = newScope();
      const id = newId();
      const stored = record(id, at(0), { status: 'queued', filename: 'Invoice.PDF', attrs: { mime_type: 'application/pdf' }, data: { id, n: 1, note: 'ünïcode' } });
      await store.putRecord(scope, stored);
      expect(await store.getRecord<Item>(scope, 'thing', id)).toEqual(stored);
      expect(await store.getRecord(scope, 'thing', newId())).toBeUndefined();
      expect(await store.getRecord(scope, 'other-type', id)).toBeUndefined();
    });

    it('ifAbsent refuses to overwrite: Conflict (409), and the first record stays', async () => {
      const scope = newScope();
      const id = newId();
      await store.putRecord(scope, record(id, at(0), { data: { id, note: 'first' } }), { ifAbsent: true });
      const error = await rejection(store.putRecord(scope, record(id, at(1), { data: { id, note: 'second' } }), { ifAbsent: true }));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as AppError).status).toBe(409);
      expect((await store.getRecord<Item>(scope, 'thing', id))!.data.note).toBe('first');
      // Without ifAbsent a put replaces.
      await store.putRecord(scope, record(id, at(0), { data: { id, note: 'third' } }));
      expect((await store.getRecord<Item>(scope, 'thing', id))!.data.note).toBe('third');
    });

    it('two concurrent ifAbsent puts of the same id: exactly one wins', async () => {
      const scope = newScope();
      for (let round = 0; round < 5; round++) {
        const id = newId();
        const results = await Promise.allSettled(['a', 'b', 'c'].map((note) => store.putRecord(scope, record(id, at(0), { data: { id, note } }), { ifAbsent: true })));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(Conflict);
      }
    });
  });

  describe('moveStatus', () => {
    it('moves only from an allowed status, applying the patch to data and keeping the rest', async () => {
      const scope = newScope();
      const id = newId();
      await store.putRecord(scope, record(id, at(0), { status: 'queued', data: { id, status: 'queued', n: 1, note: 'keep' } }));
      const moved = await store.moveStatus<Item>(scope, 'thing', id, ['pending', 'queued'], 'in_progress', { n: 2 });
      expect(moved).toMatchObject({ id, status: 'in_progress', data: { id, status: 'in_progress', n: 2, note: 'keep' } });
      expect(await store.getRecord(scope, 'thing', id)).toEqual(moved);
    });

    it('returns undefined and changes nothing when the status is not one of the allowed ones', async () => {
      const scope = newScope();
      const id = newId();
      await store.putRecord(scope, record(id, at(0), { status: 'completed', data: { id, status: 'completed', n: 1 } }));
      const before = await store.getRecord(scope, 'thing', id);
      expect(await store.moveStatus<Item>(scope, 'thing', id, ['queued', 'in_progress'], 'cancelled', { n: 99 })).toBeUndefined();
      expect(await store.getRecord(scope, 'thing', id)).toEqual(before);
    });

    it('returns undefined for a missing record and does not create it', async () => {
      const scope = newScope();
      const id = newId();
      expect(await store.moveStatus(scope, 'thing', id, ['queued'], 'in_progress')).toBeUndefined();
      expect(await store.getRecord(scope, 'thing', id)).toBeUndefined();
    });

    it('two concurrent moves from the same status: exactly one wins, and the record shows the winner', async () => {
      const scope = newScope();
      for (let round = 0; round < 10; round++) {
        const id = newId();
        await store.putRecord(scope, record(id, at(round), { status: 'in_progress', data: { id, status: 'in_progress' } }));
        const [completed, cancelled] = await Promise.all([
          store.moveStatus<Item>(scope, 'thing', id, ['in_progress'], 'completed', { note: 'result' }),
          store.moveStatus<Item>(scope, 'thing', id, ['queued', 'in_progress'], 'cancelled', { note: 'cancel' }),
        ]);
        const winners = [completed, cancelled].filter((r) => r !== undefined);
        expect(winners).toHaveLength(1);
        const final = await store.getRecord<Item>(scope, 'thing', id);
        expect(final).toEqual(winners[0]);
        expect(final!.data.note).toBe(final!.status === 'completed' ? 'result' : 'cancel');
      }
    });
  });

  describe('updateRecord / deleteRecord', () => {
    it('updateRecord merges into data and may set the file name (lists follow it); missing → undefined', async () => {
      const scope = newScope();
      const id = newId();
      await store.putRecord(scope, record(id, at(0), { filename: 'old.txt', data: { id, n: 1, note: 'x' } }));
      const updated = await store.updateRecord<Item>(scope, 'thing', id, { n: 2 }, { filename: 'New.txt' });
      expect(updated).toMatchObject({ filename: 'New.txt', data: { id, n: 2, note: 'x' } });
      const page = await store.listRecords(scope, 'thing', { limit: 10, order: 'desc', filenamePrefix: 'new' });
      expect(page.items.map((i) => i.id)).toEqual([id]);
      expect(await store.updateRecord(scope, 'thing', newId(), { n: 1 })).toBeUndefined();
      expect(await store.getRecord(scope, 'thing', updated!.id)).toEqual(updated);
    });

    it('deleteRecord says whether something was deleted', async () => {
      const scope = newScope();
      const id = newId();
      await store.putRecord(scope, record(id, at(0)));
      expect(await store.deleteRecord(scope, 'thing', id)).toBe(true);
      expect(await store.deleteRecord(scope, 'thing', id)).toBe(false);
      expect(await store.getRecord(scope, 'thing', id)).toBeUndefined();
    });
  });

  describe('listRecords', () => {
    // 60 records, created one second apart; five of them match every filter below, spread out so that
    // DynamoDB (which applies its Limit before the filter) has to be asked for several pages.
    const scope = newScope();
    const ids: string[] = [];
    const MATCHING = [2, 17, 38, 51, 58];
    beforeAll(async () => {
      for (let i = 0; i < 60; i++) ids.push(newId());
      await Promise.all(
        ids.map((id, i) => {
          const match = MATCHING.includes(i);
          return store.putRecord(
            scope,
            record(id, at(i), {
              status: match ? 'completed' : i % 2 ? 'failed' : 'queued',
              filename: match ? `Invoice-${i}.pdf` : i % 3 ? `receipt-${i}.png` : `inventory-${i}.csv`,
              attrs: { mime_type: match ? 'application/pdf' : 'image/png', project_id: match ? 'proj_a' : i % 5 ? 'proj_b' : 'proj_a' },
              data: { id, n: i },
            }),
          );
        }),
      );
    });
    const all = () => [...ids].reverse(); // newest first
    const matching = (order: 'asc' | 'desc' = 'desc') => {
      const m = MATCHING.map((i) => ids[i]!);
      return order === 'asc' ? m : m.reverse();
    };

    /** Follows `after` cursors to the end; returns every id seen and each page's metadata. */
    async function walk(query: Parameters<Store['listRecords']>[2]) {
      const seen: string[] = [];
      const pages: { before: string | null; after: string | null; ids: string[] }[] = [];
      let after: string | undefined;
      for (let i = 0; i < 100; i++) {
        const page = await store.listRecords<Item>(scope, 'thing', { ...query, ...(after ? { after } : {}) });
        const pageIds = page.items.map((item) => item.id);
        seen.push(...pageIds);
        pages.push({ before: page.before, after: page.after, ids: pageIds });
        if (!page.after) return { seen, pages };
        after = page.after;
      }
      throw new Error('did not end');
    }

    it('lists newest first by default, oldest first with asc', async () => {
      const desc = await store.listRecords(scope, 'thing', { limit: 100, order: 'desc' });
      expect(desc.items.map((i) => i.id)).toEqual(all());
      expect(desc).toMatchObject({ after: null, before: null });
      const asc = await store.listRecords(scope, 'thing', { limit: 100, order: 'asc' });
      expect(asc.items.map((i) => i.id)).toEqual(ids);
    });

    it('pages through every record with after cursors; before is set from the second page on', async () => {
      const { seen, pages } = await walk({ limit: 7, order: 'desc' });
      expect(seen).toEqual(all());
      expect(pages).toHaveLength(9);
      expect(pages[0]!.before).toBeNull();
      for (const page of pages.slice(1)) expect(page.before).toBe(page.ids[0]);
      for (const page of pages.slice(0, -1)) expect(page.after).toBe(page.ids.at(-1));
      expect(pages.at(-1)!.after).toBeNull();
    });

    it.each([
      ['an attribute', { attrs: { mime_type: 'application/pdf' } }],
      ['a status', { status: 'completed' }],
      ['a file name prefix (case-insensitive)', { filenamePrefix: 'INVOICE-' }],
      ['two attributes', { attrs: { mime_type: 'application/pdf', project_id: 'proj_a' } }],
      ['everything at once', { status: 'completed', filenamePrefix: 'inv', attrs: { mime_type: 'application/pdf' } }],
    ])('a filter on %s finds all five sparse matches across DynamoDB pages', async (_, filter) => {
      const one = await store.listRecords(scope, 'thing', { limit: 10, order: 'desc', ...filter });
      expect(one.items.map((i) => i.id)).toEqual(matching());
      expect(one).toMatchObject({ after: null, before: null });

      const asc = await store.listRecords(scope, 'thing', { limit: 100, order: 'asc', ...filter });
      expect(asc.items.map((i) => i.id)).toEqual(matching('asc'));

      const { seen, pages } = await walk({ limit: 2, order: 'desc', ...filter });
      expect(seen).toEqual(matching());
      expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
      expect(pages.map((p) => p.before)).toEqual([null, matching()[2], matching()[4]]);
    });

    it('a filter that matches nothing answers an empty page', async () => {
      const page = await store.listRecords(scope, 'thing', { limit: 10, order: 'desc', attrs: { mime_type: 'text/csv' } });
      expect(page).toEqual({ items: [], after: null, before: null });
    });

    it('before returns the items preceding the cursor, in the requested order', async () => {
      const desc = all();
      const page = await store.listRecords(scope, 'thing', { limit: 3, order: 'desc', before: desc[10] });
      expect(page.items.map((i) => i.id)).toEqual(desc.slice(7, 10));
      expect(page.before).toBe(desc[7]);
      expect(page.after).toBe(desc[9]);
      const first = await store.listRecords(scope, 'thing', { limit: 3, order: 'desc', before: desc[2] });
      expect(first.items.map((i) => i.id)).toEqual(desc.slice(0, 2));
      expect(first.before).toBeNull();
      const filtered = await store.listRecords(scope, 'thing', { limit: 2, order: 'asc', before: matching('asc')[3], status: 'completed' });
      expect(filtered.items.map((i) => i.id)).toEqual(matching('asc').slice(1, 3));
      expect(filtered.before).toBe(matching('asc')[1]);
      expect(filtered.after).toBe(matching('asc')[2]);
    });

    it('date bounds are inclusive', async () => {
      const page = await store.listRecords(scope, 'thing', { limit: 100, order: 'asc', fromTime: at(10), toTime: at(14) });
      expect(page.items.map((i) => i.id)).toEqual(ids.slice(10, 15));
      const reversed = await store.listRecords(scope, 'thing', { limit: 100, order: 'asc', fromTime: at(14), toTime: at(10) });
      expect(reversed).toEqual({ items: [], after: null, before: null });
    });

    it('a cursor outside the date bounds is answered, not a server error', async () => {
      // after = the newest item, listing older items within a window that excludes it.
      const page = await store.listRecords(scope, 'thing', { limit: 3, order: 'desc', after: ids[59], fromTime: at(10), toTime: at(20) });
      expect(page.items.map((i) => i.id)).toEqual([ids[20], ids[19], ids[18]]);
      // after = an item older than the window, listing newest first: nothing follows it in the window.
      const none = await store.listRecords(scope, 'thing', { limit: 3, order: 'desc', after: ids[0], fromTime: at(10), toTime: at(20) });
      expect(none.items).toEqual([]);
      const before = await store.listRecords(scope, 'thing', { limit: 3, order: 'asc', before: ids[59], fromTime: at(10), toTime: at(20) });
      expect(before.items.map((i) => i.id)).toEqual([ids[18], ids[19], ids[20]]);
    });

    it('a cursor that is not an item of this list → Invalid at query.after / query.before', async () => {
      for (const param of ['after', 'before'] as const) {
        for (const cursor of [newId(), 'garbage']) {
          const error = await rejection(store.listRecords(scope, 'thing', { limit: 10, order: 'desc', [param]: cursor }));
          expect(error).toBeInstanceOf(Invalid);
          expect((error as Invalid).issues[0]).toMatchObject({ loc: ['query', param], type: 'cursor_invalid', input: cursor });
        }
      }
      // An id of another type or another scope is not an item of this list either.
      const elsewhere = newScope();
      await store.putRecord(elsewhere, record(ids[0]!, at(0)));
      const other = await rejection(store.listRecords(newScope(), 'thing', { limit: 10, order: 'desc', after: ids[0] }));
      expect(other).toBeInstanceOf(Invalid);
      expect(await rejection(store.listRecords(scope, 'other-type', { limit: 10, order: 'desc', after: ids[0] }))).toBeInstanceOf(Invalid);
    });
  });

  describe('scope isolation', () => {
    it('the same id under another environment or organization is invisible and untouchable', async () => {
      const home = newScope();
      const otherEnv: Scope = { orgId: home.orgId, envId: `env_${ulidBody(Date.now())}` };
      const otherOrg: Scope = { orgId: `org_${ulidBody(Date.now())}`, envId: home.envId };
      const id = newId();
      const original = record(id, at(0), { status: 'queued', filename: 'secret.pdf', attrs: { mime_type: 'application/pdf' }, data: { id, status: 'queued', note: 'home' } });
      await store.putRecord(home, original);

      for (const scope of [otherEnv, otherOrg]) {
        expect(await store.getRecord(scope, 'thing', id)).toBeUndefined();
        expect((await store.listRecords(scope, 'thing', { limit: 100, order: 'desc' })).items).toEqual([]);
        expect(await store.moveStatus(scope, 'thing', id, ['queued'], 'cancelled')).toBeUndefined();
        expect(await store.updateRecord(scope, 'thing', id, { note: 'hijacked' })).toBeUndefined();
        expect(await store.deleteRecord(scope, 'thing', id)).toBe(false);
        expect(await rejection(store.listRecords(scope, 'thing', { limit: 10, order: 'desc', after: id }))).toBeInstanceOf(Invalid);
      }
      expect(await store.getRecord(home, 'thing', id)).toEqual(original);
      expect((await store.listRecords(home, 'thing', { limit: 100, order: 'desc' })).items).toEqual([original]);

      // The same id may exist independently in another scope.
      await store.putRecord(otherEnv, record(id, at(5), { data: { id, note: 'twin' } }), { ifAbsent: true });
      expect((await store.getRecord<Item>(otherEnv, 'thing', id))!.data.note).toBe('twin');
      expect((await store.getRecord<Item>(home, 'thing', id))!.data.note).toBe('home');
    });
  });

  describe('unscoped items', () => {
    it('putItem ifAbsent returns false and keeps the first value; listItems reads an index', async () => {
      const key = `test#${newId()}`;
      expect(await store.putItem(key, { v: 1 }, { ifAbsent: true })).toBe(true);
      expect(await store.putItem(key, { v: 2 }, { ifAbsent: true })).toBe(false);
      expect(await store.getItem(key)).toEqual({ v: 1 });
      await store.deleteItem(key);
      expect(await store.getItem(key)).toBeUndefined();

      const index = `idx#${newId()}`;
      await Promise.all([1, 2, 3].map((v) => store.putIndexedItem(`${index}#${v}`, index, { v })));
      expect((await store.listItems<{ v: number }>(index)).map((x) => x.v).sort()).toEqual([1, 2, 3]);
    });
  });
});

describe('the emulator wire and the AWS SDK', () => {
  it('write and read the same values, each reading what the other wrote', async () => {
    const wire = emulatorCalls(cloud.endpoints.dynamodb);
    const sdk = WAYS[1]![1]();
    const value = { n: 1.5, big: 12345678901, neg: -3, yes: true, no: false, none: null, empty: '', text: 'ünï "quoted" \\ ✓', list: [1, 'two', { three: [3] }], nested: { deep: { deeper: 'x' } } };
    for (const [writer, reader] of [[wire, sdk], [sdk, wire]] as const) {
      const key = { pk: `wire#${newId()}`, sk: 'item' };
      await writer('PutItem', { TableName: cloud.endpoints.table, Item: { ...key, value, gone: undefined } });
      const read = await reader('GetItem', { TableName: cloud.endpoints.table, Key: key, ConsistentRead: true });
      expect(read.Item).toEqual({ ...key, value });
    }
  });

  it('a refused call fails with the error DynamoDB names, as through the SDK', async () => {
    for (const [, calls] of WAYS) {
      const key = { pk: `wire#${newId()}`, sk: 'item' };
      await calls()('PutItem', { TableName: cloud.endpoints.table, Item: { ...key, v: 1 } });
      const conflict = await rejection(calls()('PutItem', { TableName: cloud.endpoints.table, Item: { ...key, v: 2 }, ConditionExpression: 'attribute_not_exists(pk)' }));
      expect((conflict as Error).name).toBe('ConditionalCheckFailedException');
      const invalid = await rejection(calls()('GetItem', { TableName: cloud.endpoints.table, Key: { pk: key.pk } }));
      expect((invalid as Error).name).toBe('ValidationException');
      expect((invalid as Error).message).toMatch(/key/i);
    }
  });

  it('the emulator wire sends a call again when the emulator drops the connection, as the SDK retries', async () => {
    // A proxy to the emulator that cuts its first connection as soon as a request arrives.
    const target = new URL(cloud.endpoints.dynamodb);
    let connections = 0;
    const proxy = createServer((client) => {
      if (++connections === 1) {
        client.once('data', () => client.resetAndDestroy());
        return;
      }
      const upstream = connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const key = { pk: `wire#${newId()}`, sk: 'item' };
      const wire = emulatorCalls(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      await wire('PutItem', { TableName: cloud.endpoints.table, Item: { ...key, v: 7 } });
      expect(connections).toBe(2);
      expect((await wire('GetItem', { TableName: cloud.endpoints.table, Key: key, ConsistentRead: true })).Item).toEqual({ ...key, v: 7 });
    } finally {
      proxy.close();
    }
  });
});
