/**
 * The one-machine cloud (DESIGN §5): dynalite for DynamoDB, s3rver for S3, local Step Functions and
 * KMS endpoints, and the HTTP→Lambda adapter driven by the route table — all in this process, with
 * handlers and task handlers in worker threads (or inline, for tests). State lives under the data dir
 * and survives a restart.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { letDynaliteCloseItsIterators } from './level-iterators.ts';
import S3rver from 's3rver';
import { TABLE_DEFINITION } from '../../functions/platform/dynamo-store.ts';
import { resetConfig } from '../../functions/platform/config.ts';
import { setPlatform } from '../../functions/platform/platform.ts';
import { routes as defaultRoutes, stateMachines, taskFunctions } from '../../functions/features.ts';
import type { Route } from '../../functions/platform/route.ts';
import { startHttpServer } from './http-server.ts';
import { inlineInvoker, REPO_ROOT, workerPoolInvoker, type Invoker } from './invoker.ts';
import { startLocalKms } from './kms.ts';
import { startLocalStepFunctions } from './stepfunctions.ts';
import { recoverBehindTheApi } from './recovery.ts';

export const REGION = 'us-east-1';
export const TABLE = 'quire';
export const BUCKET = 'quire-local';
/** s3rver checks signatures against these fixed credentials; dynalite and the local endpoints accept anything. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
/** How long closing the local DynamoDB waits for the requests it is still answering. */
const DRAIN_MS = 5_000;

export interface Endpoints {
  api: string;
  region: string;
  dynamodb: string;
  s3: string;
  stepfunctions: string;
  kms: string;
  table: string;
  bucket: string;
  kmsKeyId: string;
  runStateMachineArn: string;
  deliverStateMachineArn: string;
  workflowRunStateMachineArn: string;
}

export interface LocalCloudOptions {
  dataDir: string;
  host?: string;
  port?: number;
  /** `workers` (default): handlers in worker threads like Lambda containers. `inline`: in this process. */
  mode?: 'workers' | 'inline';
  /** Extra routes (tests); their modules may be absolute paths. */
  extraRoutes?: Route[];
  /** How long a synchronous create waits (API §0.5: 25 s). */
  syncWaitMs?: number;
  /** Webhook tests: scale the retry waits of API §12 (QUIRE_WEBHOOK_RETRY_SCALE) and the 10 s attempt timeout. */
  webhooks?: { retryScale?: number; timeoutMs?: number };
  /**
   * The sweeper that ends runs whose execution is gone (functions/runs/sweeper.ts): every
   * `intervalMs` (default 60 s), records older than `graceMs` (default 5 min). Tests shorten them.
   */
  sweeper?: { intervalMs?: number; graceMs?: number };
}

export interface LocalCloud {
  url: string;
  endpoints: Endpoints;
  /** Settles once the warm background-task containers are loaded (the API answers before). */
  tasksReady: Promise<void>;
  close(): Promise<void>;
}

/** The process environment the handlers read (functions/platform/config.ts), pointing at the emulators. */
export function environmentFor(endpoints: Endpoints, syncWaitMs?: number, webhooks: LocalCloudOptions['webhooks'] = {}): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: endpoints.region,
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SFN: endpoints.stepfunctions,
    AWS_ENDPOINT_URL_KMS: endpoints.kms,
    QUIRE_TABLE: endpoints.table,
    QUIRE_BUCKET: endpoints.bucket,
    QUIRE_KMS_KEY_ID: endpoints.kmsKeyId,
    QUIRE_RUN_STATE_MACHINE_ARN: endpoints.runStateMachineArn,
    QUIRE_DELIVER_STATE_MACHINE_ARN: endpoints.deliverStateMachineArn,
    QUIRE_WORKFLOW_RUN_STATE_MACHINE_ARN: endpoints.workflowRunStateMachineArn,
    QUIRE_S3_FORCE_PATH_STYLE: 'true',
    // The handlers' store calls the emulator without the AWS SDK's per-call middleware (functions/platform/dynamo-calls.ts).
    QUIRE_DYNAMODB_EMULATOR: endpoints.dynamodb,
    // Local only: webhook endpoints may be http:// and loopback (receivers on this machine, tests).
    QUIRE_ALLOW_PRIVATE_URLS: 'true',
    QUIRE_DEPLOYMENT: 'local',
    // Handlers share this process: run ends reach waiting requests at once (functions/platform/run-ends.ts).
    // Named after this cloud's own DynamoDB endpoint, so two clouds in one process stay apart.
    QUIRE_RUN_ENDS_CHANNEL: `quire-run-ends ${endpoints.dynamodb}`,
    // The SDK warns that its 2027 releases need Node 22; Lambdas run on Node 22, the local runtime on 20.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  if (syncWaitMs !== undefined) env.QUIRE_SYNC_WAIT_MS = String(syncWaitMs);
  if (webhooks.retryScale !== undefined) env.QUIRE_WEBHOOK_RETRY_SCALE = String(webhooks.retryScale);
  if (webhooks.timeoutMs !== undefined) env.QUIRE_WEBHOOK_TIMEOUT_MS = String(webhooks.timeoutMs);
  return env;
}

/** Sets the handler environment in this process (inherited by worker threads created afterwards). */
export function applyEnvironment(env: Record<string, string>): void {
  // Credentials from a developer's shell or a profile must not leak into emulator calls.
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
  Object.assign(process.env, env);
  resetConfig();
  setPlatform(undefined);
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Counts the requests a server is still answering, so that closing it can wait for them. dynalite
 * closes its database once the HTTP server has closed, waiting only for the operation in progress:
 * a request whose handler makes several operations (a transaction, a query then a put) that is still
 * being answered when its client (a container just stopped) has gone would reach a closed database
 * between two of them: "Database is closed", an error dynalite leaves unhandled.
 */
function trackAnswers(server: Server): { settled(capMs: number): Promise<void> } {
  let answering = 0;
  let waiting: (() => void) | undefined;
  // First of the listeners, so that it wraps `end` before the handler can call it.
  server.prependListener('request', (_request, response) => {
    answering++;
    const end = response.end.bind(response);
    // The handler is done when it ends its response, whether or not its client is still there.
    response.end = ((...args: Parameters<typeof response.end>) => {
      if (--answering === 0) waiting?.();
      return end(...args);
    }) as typeof response.end;
  });
  return {
    settled(capMs) {
      if (answering === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, capMs);
        waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

async function ensureTable(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({ region: REGION, endpoint, credentials: CREDENTIALS });
  try {
    await client.send(new DescribeTableCommand({ TableName: TABLE }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand({ TableName: TABLE, ...structuredClone(TABLE_DEFINITION) } as never));
  } finally {
    client.destroy();
  }
}

/** Lambda ARNs of the task functions in the local runtime, and the ASL with them substituted. */
function localTaskArn(name: string): string {
  return `arn:aws:lambda:${REGION}:000000000000:function:quire-local-${name}`;
}
function localDefinitions(): Record<string, object> {
  const definitions: Record<string, object> = {};
  for (const [name, machine] of Object.entries(stateMachines)) {
    let text = readFileSync(join(REPO_ROOT, machine.definition), 'utf8');
    for (const task of machine.tasks) text = text.replaceAll(`\${${task}}`, localTaskArn(task));
    definitions[name] = JSON.parse(text) as object;
  }
  return definitions;
}

export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = options.dataDir;
  mkdirSync(join(dataDir, 'dynamodb'), { recursive: true });
  mkdirSync(join(dataDir, 's3'), { recursive: true });
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    // Reverse start order: the API first, the storage last.
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };

  try {
    letDynaliteCloseItsIterators();
    const dynamo = dynalite({ path: join(dataDir, 'dynamodb'), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }) as Server;
    const dynamoAnswers = trackAnswers(dynamo);
    const dynamoPort = await listen(dynamo, host);
    closers.push(async () => {
      await dynamoAnswers.settled(DRAIN_MS);
      await closeServer(dynamo);
    });
    const dynamoEndpoint = `http://${host}:${dynamoPort}`;
    await ensureTable(dynamoEndpoint);

    const s3 = new S3rver({ address: host, port: 0, directory: join(dataDir, 's3'), silent: true, configureBuckets: [{ name: BUCKET, configs: [] }], vhostBuckets: false });
    const s3Address = (await s3.run()) as AddressInfo;
    closers.push(async () => {
      (s3 as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await s3.close();
    });

    const kms = await startLocalKms({ host, port: 0, region: REGION, masterKeyFile: join(dataDir, 'kms-master.key') });
    closers.push(() => kms.close());

    // Background tasks: a container per core (QUIRE_TASK_WORKERS), so document work keeps within the
    // cores. API requests: containers of their own, two loaded before the API listens, more when
    // long requests hold them, up to QUIRE_REQUEST_WORKERS (lib/local/invoker.ts says why).
    const routes = [...defaultRoutes, ...(options.extraRoutes ?? [])];
    const cores = availableParallelism();
    const taskWorkers = Number(process.env.QUIRE_TASK_WORKERS ?? cores);
    // A long PDF's parse fans out over as many ranges as there are task containers to read them
    // (functions/parses/ranges.ts fanOutSettings): more would only open the file more often.
    process.env.QUIRE_PARSE_CONCURRENCY ??= String(taskWorkers);
    const invoker: Invoker =
      options.mode === 'inline'
        ? inlineInvoker()
        : workerPoolInvoker({
            taskWorkers,
            cores,
            requestWorkers: Number(process.env.QUIRE_REQUEST_WORKERS ?? Math.max(8, 4 * cores)),
            warmRequestWorkers: 2,
            warmTaskWorkers: taskWorkers,
            requestModules: [...new Set(routes.map((route) => route.module))],
            taskModules: [...new Set(Object.values(taskFunctions).map((fn) => fn.module)), join(REPO_ROOT, 'lib/local/worker-run-tasks.ts')],
          });
    const taskByArn = new Map(Object.entries(taskFunctions).map(([name, fn]) => [localTaskArn(name), fn]));
    const sfn = await startLocalStepFunctions({
      host,
      port: 0,
      region: REGION,
      stateMachines: localDefinitions(),
      invokeTask: (arn, input, order) => {
        const fn = taskByArn.get(arn);
        if (!fn) return Promise.reject(new Error(`No local task function for ${arn}`));
        return invoker.invoke({ module: fn.module, handler: fn.handler }, input, fn.timeoutSeconds * 1000, 'task', order);
      },
    });
    // Executions first (they call the invoker), then the containers.
    closers.push(() => invoker.close());
    closers.push(() => sfn.close());

    const endpoints: Endpoints = {
      api: '',
      region: REGION,
      dynamodb: dynamoEndpoint,
      s3: `http://${host}:${s3Address.port}`,
      stepfunctions: sfn.endpoint,
      kms: kms.endpoint,
      table: TABLE,
      bucket: BUCKET,
      kmsKeyId: kms.keyId,
      runStateMachineArn: sfn.stateMachineArn('run'),
      deliverStateMachineArn: sfn.stateMachineArn('deliver'),
      workflowRunStateMachineArn: sfn.stateMachineArn('workflowRun'),
    };
    applyEnvironment(environmentFor(endpoints, options.syncWaitMs, options.webhooks));

    // The API's first requests find warm containers: it listens once they are loaded.
    const { tasks: tasksReady } = await invoker.warmUp();
    const http = await startHttpServer({ routes, invoker, host, port: options.port ?? 3000 });
    closers.push(() => http.close());
    // Runs left unfinished by a previous process (executions are in memory) start again, then runs
    // whose execution is gone anyway (stopped, timed out) end as failed, now and periodically: behind
    // the API, which answers meanwhile.
    const recovery = recoverBehindTheApi(endpoints, CREDENTIALS, options.sweeper);
    closers.push(() => recovery.stop());
    endpoints.api = http.url;
    writeFileSync(join(dataDir, 'endpoints.json'), `${JSON.stringify(endpoints, null, 2)}\n`);
    return { url: http.url, endpoints, tasksReady, close };
  } catch (error) {
    await close();
    throw error;
  }
}
