/**
 * How the Store (./dynamo-store.ts) reaches DynamoDB: six document-level actions, plain JavaScript
 * values in and out. Two ways behind the same function:
 *
 * - `sdkCalls`: the AWS SDK's document client. On AWS, and wherever retries, the credential chain
 *   and request signing matter.
 * - `emulatorCalls`: the DynamoDB JSON wire spoken directly to the local emulator (dynalite), for the
 *   local runtime only. The SDK's per-call middleware (endpoint rules, retry bookkeeping, signing,
 *   schema walks) costs ~1 ms of CPU a call: nothing next to a network round trip on AWS, but on one
 *   machine it was most of what a read cost (issue 45). Same actions, same wire as the SDK sends.
 */
import { type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type GetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { Agent, request } from 'node:http';

type Item = Record<string, NativeAttributeValue>;

interface Actions {
  GetItem: [GetCommandInput, { Item?: Item }];
  PutItem: [PutCommandInput, object];
  UpdateItem: [UpdateCommandInput, { Attributes?: Item }];
  DeleteItem: [DeleteCommandInput, { Attributes?: Item }];
  Query: [QueryCommandInput, { Items?: Item[]; LastEvaluatedKey?: Item }];
  Scan: [ScanCommandInput, { Items?: Item[]; LastEvaluatedKey?: Item }];
}

export type DynamoAction = keyof Actions;

/** One DynamoDB action on document values; a failure is an Error named as DynamoDB names it (ConditionalCheckFailedException, ...). */
export type DynamoCalls = <A extends DynamoAction>(action: A, input: Actions[A][0]) => Promise<Actions[A][1]>;

/**
 * undefined attributes are left out (not an error); class instances are refused, as the SDK's
 * document client does. A copy for each use: the document client writes into the options it is given.
 */
const marshallOptions = () => ({ removeUndefinedValues: true, convertClassInstanceToMap: false });

const COMMANDS = { GetItem: GetCommand, PutItem: PutCommand, UpdateItem: UpdateCommand, DeleteItem: DeleteCommand, Query: QueryCommand, Scan: ScanCommand };

export function sdkCalls(client: DynamoDBClient): DynamoCalls {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: marshallOptions() });
  return (action, input) => {
    const Command = COMMANDS[action] as new (input: unknown) => GetCommand;
    return doc.send(new Command(input)) as never;
  };
}

/** The input fields that carry items or attribute values, and the output fields that bring them back. */
const VALUE_INPUTS = ['Item', 'Key', 'ExclusiveStartKey', 'ExpressionAttributeValues'] as const;
const ITEM_OUTPUTS = ['Item', 'Attributes', 'LastEvaluatedKey'] as const;

/** A socket the emulator closed while idle fails the call at once: sent again, as the SDK's retry would. */
const SOCKET_RETRIES = 2;
const RETRYABLE_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED']);

/**
 * The emulator reads a SigV4 Authorization header's form, not its signature (it holds no secret to
 * check it with); the fixed header below names the local runtime's credentials.
 */
const EMULATOR_AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=local/20260101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0';

export function emulatorCalls(endpoint: string): DynamoCalls {
  const url = new URL(endpoint);
  const options = marshallOptions();
  const agent = new Agent({ keepAlive: true });

  function post(action: DynamoAction, body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'content-length': Buffer.byteLength(body),
            'x-amz-target': `DynamoDB_20120810.${action}`,
            'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
            authorization: EMULATOR_AUTHORIZATION,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  return async (action, input) => {
    // (Fields left undefined are left out by JSON.stringify.)
    const wire: Record<string, unknown> = { ...input };
    for (const field of VALUE_INPUTS) if (wire[field] !== undefined) wire[field] = marshall(wire[field] as Item, options);
    const body = JSON.stringify(wire);
    let answer: { status: number; text: string };
    for (let attempt = 0; ; attempt++) {
      try {
        answer = await post(action, body);
        break;
      } catch (error) {
        if (attempt >= SOCKET_RETRIES || !RETRYABLE_SOCKET_ERRORS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
    }
    const out = JSON.parse(answer.text) as Record<string, unknown>;
    if (answer.status !== 200) {
      const failure = new Error(String(out.message ?? out.Message ?? `DynamoDB ${action} answered ${answer.status}`));
      failure.name = String(out.__type ?? 'DynamoDBError').split('#').pop()!;
      throw failure;
    }
    for (const field of ITEM_OUTPUTS) if (out[field]) out[field] = unmarshall(out[field] as never);
    if (Array.isArray(out.Items)) out.Items = out.Items.map((item) => unmarshall(item));
    return out as never;
  };
}
