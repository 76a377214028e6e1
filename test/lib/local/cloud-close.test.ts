/**
 * Closing the local cloud while its DynamoDB is still answering: requests already received are
 * answered before the database closes (a handler whose client has gone, a look a finished task left
 * in flight), so no "Database is closed" escapes as an unhandled error, and nothing written is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect, it } from 'vitest';
import { startLocalCloud } from '../../../lib/local/cloud.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-close-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

it('answers the requests it has received before its database closes', async () => {
  const escaped: unknown[] = [];
  const keep = (error: unknown) => escaped.push(error);
  process.on('unhandledRejection', keep);
  process.on('uncaughtException', keep);
  try {
    const cloud = await startLocalCloud({ dataDir, port: 0, mode: 'inline' });
    const { dynamodb, region, table } = cloud.endpoints;
    const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region, endpoint: dynamodb, credentials: CREDENTIALS }));
    // Batches of 25 items each (several database operations per request), sent and not awaited,
    // then the cloud closes under them.
    const batches = Array.from({ length: 40 }, (_, b) =>
      doc.send(new BatchWriteCommand({ RequestItems: { [table]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk: 'close#test', sk: `item#${String(b * 25 + i).padStart(4, '0')}` } } })) } })),
    );
    const settled = Promise.allSettled(batches);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await cloud.close();
    const sent = await settled;
    const written = sent.filter((s) => s.status === 'fulfilled').length;
    // Give anything dynalite left unhandled the time to surface.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(escaped.map(String)).toEqual([]);

    // Every batch the closing database acknowledged is there after a restart.
    const again = await startLocalCloud({ dataDir, port: 0, mode: 'inline' });
    try {
      const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region, endpoint: again.endpoints.dynamodb, credentials: CREDENTIALS }));
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'close#test' }, ExclusiveStartKey: start }));
        count += page.Items?.length ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      expect(count).toBeGreaterThanOrEqual(written * 25);
    } finally {
      await again.close();
    }
  } finally {
    process.off('unhandledRejection', keep);
    process.off('uncaughtException', keep);
  }
});
