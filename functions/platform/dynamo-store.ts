/**
 * The Store port on one DynamoDB table (DESIGN §3).
 *
 * Records: pk = "<org>#<env>#<type>#<id>", sk = "record"; lists through gsi1
 * (gsi1pk = "<org>#<env>#<type>", gsi1sk = "<created_at>#<id>"). A key of one environment can never
 * address an item of another: the scope is part of every key.
 * Unscoped items (API keys, organizations, lookups): pk = the given key, sk = "item".
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoCalls } from './dynamo-calls.ts';
import { Conflict, Invalid } from './errors.ts';
import type { ListPage, ListQuery, RecordRef, Scope, Store, StoredRecord } from './ports.ts';

const RECORD_SK = 'record';
/** DynamoDB's ceiling on a partition key; an id that makes a longer key cannot name any item. */
const MAX_PARTITION_KEY_BYTES = 2048;
const ITEM_SK = 'item';

interface RecordItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  type: string;
  id: string;
  created_at: string;
  status?: string;
  filename_lc?: string;
  filename?: string;
  attrs?: Record<string, string>;
  data: Record<string, unknown>;
}

export function recordKey(scope: Scope, type: string, id: string): { pk: string; sk: string } {
  return { pk: `${scope.orgId}#${scope.envId}#${type}#${id}`, sk: RECORD_SK };
}
export function listKey(scope: Scope, type: string): string {
  return `${scope.orgId}#${scope.envId}#${type}`;
}

function toRecord<T>(item: RecordItem): StoredRecord<T> {
  const record: StoredRecord<T> = { type: item.type, id: item.id, createdAt: item.created_at, data: item.data as T };
  if (item.status !== undefined) record.status = item.status;
  if (item.filename !== undefined) record.filename = item.filename;
  if (item.attrs !== undefined) record.attrs = item.attrs;
  return record;
}

function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/** A key longer than DynamoDB allows names no item (DynamoDB would refuse it with a ValidationException): an unknown id. */
function cannotExist(key: { pk: string }): boolean {
  return Buffer.byteLength(key.pk) > MAX_PARTITION_KEY_BYTES;
}

export function dynamoStore(call: DynamoCalls, table: string): Store {

  async function getRecordItem(scope: Scope, type: string, id: string): Promise<RecordItem | undefined> {
    const key = recordKey(scope, type, id);
    if (cannotExist(key)) return undefined;
    const out = await call('GetItem', { TableName: table, Key: key, ConsistentRead: true });
    return out.Item as RecordItem | undefined;
  }

  /**
   * Collects up to `want` items matching the query's filters, walking gsi1 in one direction from
   * an optional exclusive start item. DynamoDB applies Limit before filters, so it loops.
   */
  async function collect(
    scope: Scope,
    type: string,
    query: ListQuery,
    forward: boolean,
    startAfter: RecordItem | undefined,
    want: number,
  ): Promise<RecordItem[]> {
    const names: Record<string, string> = { '#pk': 'gsi1pk', '#sk': 'gsi1sk' };
    const values: Record<string, unknown> = {
      ':pk': listKey(scope, type),
      ':from': query.fromTime ?? '0',
      // '~' sorts after every character used in ids and timestamps.
      ':to': `${query.toTime ?? '9999'}#~`,
    };
    const filters: string[] = [];
    if (query.status !== undefined) {
      names['#status'] = 'status';
      values[':status'] = query.status;
      filters.push('#status = :status');
    }
    if (query.filenamePrefix !== undefined) {
      names['#fn'] = 'filename_lc';
      values[':fn'] = query.filenamePrefix.toLowerCase();
      filters.push('begins_with(#fn, :fn)');
    }
    if (query.filenameContains !== undefined) {
      names['#fn'] = 'filename_lc';
      values[':fnc'] = query.filenameContains.toLowerCase();
      filters.push('contains(#fn, :fnc)');
    }
    for (const [i, [name, value]] of Object.entries(query.attrs ?? {}).entries()) {
      names['#attrs'] = 'attrs';
      names[`#a${i}`] = name;
      values[`:a${i}`] = value;
      filters.push(`#attrs.#a${i} = :a${i}`);
    }
    const hasFilter = filters.length > 0 || query.where !== undefined;
    const found: RecordItem[] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined;
    if (startAfter) {
      // DynamoDB rejects a start key outside the key condition (a cursor outside the date bounds):
      // a cursor before the range walks the whole range, one beyond it has nothing after it.
      const beforeRange = forward ? startAfter.gsi1sk < (values[':from'] as string) : startAfter.gsi1sk > (values[':to'] as string);
      const beyondRange = forward ? startAfter.gsi1sk > (values[':to'] as string) : startAfter.gsi1sk < (values[':from'] as string);
      if (beyondRange) return found;
      if (!beforeRange) exclusiveStartKey = { pk: startAfter.pk, sk: startAfter.sk, gsi1pk: startAfter.gsi1pk, gsi1sk: startAfter.gsi1sk };
    }
    do {
      const input: QueryCommandInput = {
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: forward,
        Limit: hasFilter ? Math.max(50, (want - found.length) * 4) : want - found.length,
        ExclusiveStartKey: exclusiveStartKey,
      };
      if (filters.length > 0) input.FilterExpression = filters.join(' AND ');
      const out = await call('Query', input);
      for (const item of (out.Items ?? []) as RecordItem[]) {
        if (found.length < want && (!query.where || query.where(toRecord(item)))) found.push(item);
      }
      exclusiveStartKey = out.LastEvaluatedKey;
    } while (exclusiveStartKey && found.length < want);
    return found;
  }

  /**
   * One UpdateItem: SET the given top-level attributes and fields of `data`, only if `condition`
   * holds. Returns the updated record, or undefined when the condition failed (or the item is gone).
   */
  async function conditionalUpdate<T>(
    scope: Scope,
    type: string,
    id: string,
    topLevel: Record<string, unknown>,
    dataPatch: Record<string, unknown>,
    condition: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<StoredRecord<T> | undefined> {
    const names: Record<string, string> = { ...condition.names };
    const values: Record<string, unknown> = { ...condition.values };
    const sets: string[] = [];
    if (cannotExist(recordKey(scope, type, id))) return undefined;
    Object.entries(topLevel).forEach(([key, value], i) => {
      names[`#t${i}`] = key;
      values[`:t${i}`] = value;
      sets.push(`#t${i} = :t${i}`);
    });
    Object.entries(dataPatch).forEach(([key, value], i) => {
      names['#data'] = 'data';
      names[`#d${i}`] = key;
      values[`:d${i}`] = value;
      sets.push(`#data.#d${i} = :d${i}`);
    });
    try {
      const out = await call('UpdateItem', {
        TableName: table,
        Key: recordKey(scope, type, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      });
      return toRecord<T>(out.Attributes as RecordItem);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async function cursorItem(scope: Scope, type: string, id: string, param: 'after' | 'before'): Promise<RecordItem> {
    const item = await getRecordItem(scope, type, id);
    if (!item) throw Invalid.at(['query', param], `Cursor ${id} is not an item of this list`, 'cursor_invalid', id);
    return item;
  }

  return {
    async getRecord<T>(scope: Scope, type: string, id: string) {
      const item = await getRecordItem(scope, type, id);
      return item ? toRecord<T>(item) : undefined;
    },

    async putRecord<T>(scope: Scope, record: StoredRecord<T>, opts?: { ifAbsent?: boolean }) {
      const item: RecordItem = {
        ...recordKey(scope, record.type, record.id),
        gsi1pk: listKey(scope, record.type),
        gsi1sk: `${record.createdAt}#${record.id}`,
        type: record.type,
        id: record.id,
        created_at: record.createdAt,
        status: record.status,
        filename: record.filename,
        filename_lc: record.filename?.toLowerCase(),
        attrs: record.attrs,
        data: record.data as Record<string, unknown>,
      };
      try {
        await call('PutItem', {
          TableName: table,
          Item: item,
          ConditionExpression: opts?.ifAbsent ? 'attribute_not_exists(pk)' : undefined,
        });
      } catch (error) {
        if (isConditionFailure(error)) throw new Conflict(`${record.type} ${record.id} already exists`);
        throw error;
      }
    },

    async moveStatus<T>(scope: Scope, type: string, id: string, fromStatuses: readonly string[], toStatus: string, patch?: Partial<T>) {
      const values: Record<string, unknown> = {};
      fromStatuses.forEach((s, i) => (values[`:from${i}`] = s));
      return conditionalUpdate<T>(scope, type, id, { status: toStatus }, { ...patch, status: toStatus }, {
        expression: `attribute_exists(pk) AND #current IN (${Object.keys(values).join(', ')})`,
        names: { '#current': 'status' },
        values,
      });
    },

    async updateRecord<T>(scope: Scope, type: string, id: string, patch: Partial<T>, attrs?: { filename?: string; status?: string }) {
      const topLevel: Record<string, unknown> = {};
      const dataPatch: Record<string, unknown> = { ...patch };
      if (attrs?.filename !== undefined) Object.assign(topLevel, { filename: attrs.filename, filename_lc: attrs.filename.toLowerCase() });
      if (attrs?.status !== undefined) topLevel.status = dataPatch.status = attrs.status;
      if (Object.keys(topLevel).length === 0 && Object.keys(dataPatch).length === 0) {
        const item = await getRecordItem(scope, type, id);
        return item ? toRecord<T>(item) : undefined;
      }
      return conditionalUpdate<T>(scope, type, id, topLevel, dataPatch, { expression: 'attribute_exists(pk)', names: {}, values: {} });
    },

    async deleteRecord(scope: Scope, type: string, id: string) {
      if (cannotExist(recordKey(scope, type, id))) return false;
      const out = await call('DeleteItem', { TableName: table, Key: recordKey(scope, type, id), ReturnValues: 'ALL_OLD' });
      return out.Attributes !== undefined;
    },

    async listRecords<T>(scope: Scope, type: string, query: ListQuery): Promise<ListPage<T>> {
      if (query.fromTime && query.toTime && query.toTime < query.fromTime) return { items: [], after: null, before: null };
      const forward = query.order === 'asc';
      let items: RecordItem[];
      let hasNext: boolean;
      let hasPrevious: boolean;
      if (query.before !== undefined) {
        // Walk backwards from the cursor, then restore the requested order.
        const cursor = await cursorItem(scope, type, query.before, 'before');
        const previous = await collect(scope, type, query, !forward, cursor, query.limit + 1);
        hasPrevious = previous.length > query.limit;
        items = previous.slice(0, query.limit).reverse();
        const last = items.at(-1);
        hasNext = last ? (await collect(scope, type, query, forward, last, 1)).length > 0 : false;
      } else {
        const cursor = query.after !== undefined ? await cursorItem(scope, type, query.after, 'after') : undefined;
        const page = await collect(scope, type, query, forward, cursor, query.limit + 1);
        hasNext = page.length > query.limit;
        items = page.slice(0, query.limit);
        const first = items[0];
        hasPrevious = cursor !== undefined && first !== undefined && (await collect(scope, type, query, !forward, first, 1)).length > 0;
      }
      return {
        items: items.map((item) => toRecord<T>(item)),
        after: hasNext ? (items.at(-1)?.id ?? null) : null,
        before: hasPrevious ? (items[0]?.id ?? null) : null,
      };
    },

    async scanRecordsByStatus(statuses: readonly string[], createdBefore: string) {
      // A Scan reads (and bills) every item of the table; the filter only trims what comes back.
      // Kept because the sweeper runs every few minutes and the table holds small items; see
      // functions/runs/sweeper.ts for when a sparse index of active records would pay off.
      const values: Record<string, unknown> = { ':record': RECORD_SK, ':before': createdBefore };
      statuses.forEach((status, i) => (values[`:s${i}`] = status));
      const statusList = statuses.map((_, i) => `:s${i}`).join(', ');
      const found: RecordRef[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await call('Scan', {
          TableName: table,
          FilterExpression: `sk = :record AND #status IN (${statusList}) AND created_at < :before`,
          ExpressionAttributeNames: { '#status': 'status', '#type': 'type', '#id': 'id' },
          ExpressionAttributeValues: values,
          ProjectionExpression: 'pk, #type, #id, #status, created_at',
          ExclusiveStartKey: start,
        });
        for (const item of (out.Items ?? []) as Array<Pick<RecordItem, 'pk' | 'type' | 'id' | 'status' | 'created_at'>>) {
          // pk = "<org>#<env>#<type>#<id>" (recordKey): the scope is its first two parts.
          const [orgId, envId] = item.pk.split('#');
          found.push({ scope: { orgId: orgId!, envId: envId! }, type: item.type, id: item.id, status: item.status!, createdAt: item.created_at });
        }
        start = out.LastEvaluatedKey;
      } while (start);
      return found;
    },

    async getItem<T>(key: string) {
      const out = await call('GetItem', { TableName: table, Key: { pk: key, sk: ITEM_SK }, ConsistentRead: true });
      return out.Item?.value as T | undefined;
    },

    async putItem<T>(key: string, value: T, opts?: { ifAbsent?: boolean }) {
      try {
        await call('PutItem', {
          TableName: table,
          Item: { pk: key, sk: ITEM_SK, value },
          ConditionExpression: opts?.ifAbsent ? 'attribute_not_exists(pk)' : undefined,
        });
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async putIndexedItem<T>(key: string, indexKey: string, value: T) {
      await call('PutItem', { TableName: table, Item: { pk: key, sk: ITEM_SK, gsi1pk: indexKey, gsi1sk: key, value } });
    },

    async listItems<T>(indexKey: string) {
      const values: T[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await call('Query', {
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': indexKey },
          ExclusiveStartKey: start,
        });
        for (const item of out.Items ?? []) values.push(item.value as T);
        start = out.LastEvaluatedKey;
      } while (start);
      return values;
    },

    async deleteItem(key: string) {
      await call('DeleteItem', { TableName: table, Key: { pk: key, sk: ITEM_SK } });
    },
  };
}

/** The table definition, shared by the local runtime (dynalite) and kept in line with lib/cloud/storage.ts. */
export const TABLE_DEFINITION = {
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'gsi1pk', AttributeType: 'S' },
    { AttributeName: 'gsi1sk', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'gsi1',
      KeySchema: [
        { AttributeName: 'gsi1pk', KeyType: 'HASH' },
        { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST',
} as const;
