/**
 * The local Step Functions endpoint keeps executions in memory, so runs that were queued or in
 * progress when the local runtime stopped would wait forever. On start, they are resumed: an
 * in-progress run goes back to queued (its work restarts; a late result of the old process cannot
 * exist, that process is gone) and its execution is started again. Webhook deliveries still pending
 * or retrying get their deliver-webhook execution again (the next attempt comes at once: delivery is
 * at least once). (On AWS, executions survive.)
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DELIVERY_TYPE } from '../../functions/webhooks/service.ts';
import { WORKFLOW_RUN_TYPE } from '../../functions/workflows/schema.ts';
import type { Endpoints } from './cloud.ts';

interface RunItem {
  pk: string;
  type: string;
  id: string;
  status: string;
}

export async function resumeUnfinishedRuns(endpoints: Endpoints, credentials: { accessKeyId: string; secretAccessKey: string }): Promise<number> {
  const dynamo = new DynamoDBClient({ region: endpoints.region, endpoint: endpoints.dynamodb, credentials });
  const doc = DynamoDBDocumentClient.from(dynamo);
  const sfn = new SFNClient({ region: endpoints.region, endpoint: endpoints.stepfunctions, credentials });
  let resumed = 0;
  try {
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
          ProjectionExpression: 'pk, #type, #id, #status',
          ExclusiveStartKey: start,
        }),
      );
      for (const item of (page.Items ?? []) as RunItem[]) {
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
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    dynamo.destroy();
    sfn.destroy();
  }
  return resumed;
}
