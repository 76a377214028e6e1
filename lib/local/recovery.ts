/**
 * The local Step Functions endpoint keeps executions in memory, so runs that were queued or in
 * progress when the local runtime stopped would wait forever. On start, they are resumed: an
 * in-progress run goes back to queued (its work restarts; a late result of the old process cannot
 * exist, that process is gone) and its execution is started again. Webhook deliveries still pending
 * or retrying get their deliver-webhook execution again (the next attempt comes at once: delivery is
 * at least once). (On AWS, executions survive.)
 *
 * No stampede: executions are started oldest run first, and their tasks wait for the task containers
 * like any others (lib/local/invoker.ts), a few at a time, the oldest run's steps first. The
 * API does not wait for any of it: recovery runs behind it (recoverBehindTheApi), then the sweeper.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DELIVERY_TYPE } from '../../functions/webhooks/service.ts';
import { WORKFLOW_RUN_TYPE } from '../../functions/workflows/schema.ts';
import { logger } from '../../functions/platform/logger.ts';
import type { Endpoints } from './cloud.ts';
import { startPeriodicSweeper, type PeriodicSweeper } from './sweeper.ts';

interface RunItem {
  pk: string;
  type: string;
  id: string;
  status: string;
  created_at: string;
}

/**
 * Resumes unfinished runs, then starts the sweeper (which ends runs whose execution is gone anyway:
 * it must come after, or it would end runs about to be resumed), all without holding up the start:
 * the API answers from the first second. `stop` waits for whatever is under way.
 */
export function recoverBehindTheApi(
  endpoints: Endpoints,
  credentials: { accessKeyId: string; secretAccessKey: string },
  sweeperOptions?: Parameters<typeof startPeriodicSweeper>[0],
): { stop(): Promise<void> } {
  let stopping = false;
  let sweeper: PeriodicSweeper | undefined;
  const recovered = (async () => {
    try {
      await resumeUnfinishedRuns(endpoints, credentials, () => stopping);
    } catch (error) {
      // The sweeper still comes: runs left without an execution end as failed rather than stay active.
      logger.error('resuming unfinished runs failed', { error: error as Error });
    }
    if (!stopping) sweeper = await startPeriodicSweeper(sweeperOptions);
  })();
  return {
    async stop() {
      stopping = true;
      await recovered;
      await sweeper?.stop();
    },
  };
}

/** `stopping`: checked between runs, so a runtime closing soon after its start does not wait for all of them. */
export async function resumeUnfinishedRuns(endpoints: Endpoints, credentials: { accessKeyId: string; secretAccessKey: string }, stopping = () => false): Promise<number> {
  const dynamo = new DynamoDBClient({ region: endpoints.region, endpoint: endpoints.dynamodb, credentials });
  const doc = DynamoDBDocumentClient.from(dynamo);
  const sfn = new SFNClient({ region: endpoints.region, endpoint: endpoints.stepfunctions, credentials });
  let resumed = 0;
  try {
    const unfinished: RunItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({
          TableName: endpoints.table,
          // A workflow run awaiting review is resumed too: its execution comes back to the review it waits
          // for and registers a new task token there (it neither starts over nor loses the wait).
          FilterExpression: 'sk = :record AND #status IN (:queued, :pending, :running, :retrying, :workflowRunning, :workflowAwaiting)',
          ExpressionAttributeNames: { '#status': 'status', '#type': 'type', '#id': 'id' },
          ExpressionAttributeValues: {
            ':record': 'record',
            ':queued': 'queued',
            ':pending': 'pending',
            ':running': 'in_progress',
            ':retrying': 'retrying',
            ':workflowRunning': 'running',
            ':workflowAwaiting': 'awaiting_review',
          },
          ProjectionExpression: 'pk, #type, #id, #status, created_at',
          ExclusiveStartKey: start,
        }),
      );
      unfinished.push(...((page.Items ?? []) as RunItem[]));
      start = page.LastEvaluatedKey;
    } while (start);
    // Oldest first: an execution's start time is its tasks' place in line for a container.
    unfinished.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    for (const item of unfinished) {
      if (stopping()) break;
      const [orgId, envId] = item.pk.split('#');
      if (item.type === DELIVERY_TYPE) {
        await sfn.send(
          new StartExecutionCommand({
            stateMachineArn: endpoints.deliverStateMachineArn,
            name: item.id,
            input: JSON.stringify({ delivery: { orgId, envId, id: item.id } }),
          }),
        );
        resumed++;
        continue;
      }
      if (item.type === WORKFLOW_RUN_TYPE) {
        // A running workflow run starts its blocks again (the start step lets a running run proceed).
        await sfn.send(
          new StartExecutionCommand({ stateMachineArn: endpoints.workflowRunStateMachineArn, name: item.id, input: JSON.stringify({ run: { orgId, envId, id: item.id } }) }),
        );
        resumed++;
        continue;
      }
      if (item.status === 'retrying' || item.status === 'running') continue; // only deliveries retry; only workflow runs are 'running'
      if (item.status === 'in_progress') {
        try {
          await doc.send(
            new UpdateCommand({
              TableName: endpoints.table,
              Key: { pk: item.pk, sk: 'record' },
              UpdateExpression: 'SET #status = :queued, #data.#status = :queued',
              ConditionExpression: '#status = :running',
              ExpressionAttributeNames: { '#status': 'status', '#data': 'data' },
              ExpressionAttributeValues: { ':queued': 'queued', ':running': 'in_progress' },
            }),
          );
        } catch (error) {
          // Cancelled or deleted since the scan (the API answers while this runs): nothing to resume.
          if (error instanceof ConditionalCheckFailedException) continue;
          throw error;
        }
      }
      // A run kind's name is its record type (parse, classification, ..., schema_generation).
      await sfn.send(
        new StartExecutionCommand({
          stateMachineArn: endpoints.runStateMachineArn,
          name: item.id,
          input: JSON.stringify({ run: { kind: item.type, orgId, envId, id: item.id } }),
        }),
      );
      resumed++;
    }
  } finally {
    dynamo.destroy();
    sfn.destroy();
  }
  return resumed;
}
