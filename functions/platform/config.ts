/**
 * Deployment configuration, read once from the environment. On AWS the CDK stack sets these on each
 * Lambda; locally `lib/local` sets them (plus AWS_ENDPOINT_URL_* for the emulators) before any
 * handler runs.
 */
export interface Config {
  region: string;
  table: string;
  bucket: string;
  kmsKeyId: string;
  runStateMachineArn: string;
  /** statemachines/deliver-webhook.asl.json; empty where webhooks are not deployed (admin tools). */
  deliverStateMachineArn: string;
  /** statemachines/workflow-run.asl.json; empty where workflows are not deployed (admin tools). */
  workflowRunStateMachineArn: string;
  /** S3 endpoint override (local emulator); undefined on AWS. */
  s3Endpoint: string | undefined;
  /**
   * The local runtime's DynamoDB emulator, called over its JSON wire without the AWS SDK
   * (./dynamo-calls.ts says why). QUIRE_DYNAMODB_EMULATOR, set by lib/local only; undefined on AWS.
   */
  dynamoEmulator: string | undefined;
  /** Path-style S3 URLs (required by the local emulator). */
  s3ForcePathStyle: boolean;
  /** How long a synchronous create waits for its run before answering with the run as it stands. */
  syncWaitMs: number;
  /**
   * Whether webhook URLs may be http:// or private/loopback addresses (API §12). A local-only switch:
   * QUIRE_ALLOW_PRIVATE_URLS=true is set by the local runtime (its tests use loopback receivers) and
   * is off by default on AWS stacks.
   */
  allowPrivateUrls: boolean;
  /**
   * Multiplies the webhook retry waits of API §12 (30 s, 2 min, ...). 1 on AWS; the local runtime's
   * tests set QUIRE_WEBHOOK_RETRY_SCALE to a tiny factor so retries come within milliseconds.
   */
  webhookRetryScale: number;
  /** How long a delivery attempt waits for the receiver (API §12: 10 s). QUIRE_WEBHOOK_TIMEOUT_MS, for tests. */
  webhookTimeoutMs: number;
  /**
   * The BroadcastChannel on which run ends are announced to waiting requests (./run-ends.ts). Set by
   * the local runtime only (QUIRE_RUN_ENDS_CHANNEL), where all handlers share one process; empty on
   * AWS, where a waiting request polls.
   */
  runEndsChannel: string;
  /** The human name of this deployment ("local", "Quire-test", ...), for logs only. */
  deployment: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Configuration error: environment variable ${name} is not set`);
  return value;
}

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  cached = {
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    table: required('QUIRE_TABLE'),
    bucket: required('QUIRE_BUCKET'),
    kmsKeyId: required('QUIRE_KMS_KEY_ID'),
    runStateMachineArn: required('QUIRE_RUN_STATE_MACHINE_ARN'),
    deliverStateMachineArn: process.env.QUIRE_DELIVER_STATE_MACHINE_ARN ?? '',
    workflowRunStateMachineArn: process.env.QUIRE_WORKFLOW_RUN_STATE_MACHINE_ARN ?? '',
    s3Endpoint: process.env.AWS_ENDPOINT_URL_S3 || undefined,
    dynamoEmulator: process.env.QUIRE_DYNAMODB_EMULATOR || undefined,
    s3ForcePathStyle: process.env.QUIRE_S3_FORCE_PATH_STYLE === 'true',
    syncWaitMs: Number(process.env.QUIRE_SYNC_WAIT_MS ?? 25_000),
    allowPrivateUrls: process.env.QUIRE_ALLOW_PRIVATE_URLS === 'true',
    webhookRetryScale: Number(process.env.QUIRE_WEBHOOK_RETRY_SCALE ?? 1),
    webhookTimeoutMs: Number(process.env.QUIRE_WEBHOOK_TIMEOUT_MS ?? 10_000),
    runEndsChannel: process.env.QUIRE_RUN_ENDS_CHANNEL ?? '',
    deployment: process.env.QUIRE_DEPLOYMENT ?? 'local',
  };
  return cached;
}

/** Tests that rebuild the environment call this to re-read it. */
export function resetConfig(): void {
  cached = undefined;
}
