/**
 * The adapters of one Lambda container (or one local worker), built once on first use from the
 * configuration. Services receive this object; tests may build their own.
 *
 * Every request reads DynamoDB, so the store is built at once. S3, KMS and Step Functions are loaded
 * on their first call: most routes never touch them, and their SDK clients are a large part of a
 * bundle's import time (cold start).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config, type Config } from './config.ts';
import { emulatorCalls, sdkCalls } from './dynamo-calls.ts';
import { dynamoStore } from './dynamo-store.ts';
import { randomIds, systemClock } from './ids.ts';
import type { Blobs, Clock, Events, Ids, KeyRing, Ledger, Runner, RunEnds, Store } from './ports.ts';
import { broadcastRunEnds, sleepingRunEnds } from './run-ends.ts';
import { s3KeyOfUrl } from './s3-urls.ts';

export interface Platform {
  config: Config;
  store: Store;
  blobs: Blobs;
  keyRing: KeyRing;
  runner: Runner;
  /** Wakes a request waiting for a run when the run ends (./run-ends.ts). */
  runEnds: RunEnds;
  clock: Clock;
  ids: Ids;
  /** The usage ledger (adapter from the usage feature, see `provideFeatureAdapters`). */
  ledger: Ledger;
  /** Webhook events (adapter from the webhooks feature, see `provideFeatureAdapters`). */
  events: Events;
}

/** The adapters that live in features rather than here. */
export interface FeatureAdapters {
  ledger: Ledger;
  events: Events;
}

let featureAdapters: FeatureAdapters | undefined;

/**
 * Hands the platform the adapters that live in features (functions/wiring.ts does, and every entry
 * imports it first). Platforms built before this still reach them: they look them up on each call.
 */
export function provideFeatureAdapters(adapters: FeatureAdapters): void {
  featureAdapters = adapters;
}

function handedIn(): FeatureAdapters {
  if (!featureAdapters) throw new Error('The usage ledger and webhook events are handed in by functions/wiring.ts: import it in the entry first');
  return featureAdapters;
}

/** The feature adapters as ports, looked up when called. */
const ledgerPort: Ledger = {
  record: (...args) => handedIn().ledger.record(...args),
  forget: (...args) => handedIn().ledger.forget(...args),
};
const eventsPort: Events = {
  emit: (...args) => handedIn().events.emit(...args),
};

/**
 * A port whose adapter module is imported on the first call of any of its (async) methods.
 * `ready` holds methods that must answer synchronously without the adapter.
 */
function lazyPort<T extends object>(load: () => Promise<T>, ready: Partial<T> = {}): T {
  let adapter: Promise<T> | undefined;
  return new Proxy(ready as T, {
    get(target, method) {
      if (method in target) return target[method as keyof T];
      return async (...args: unknown[]) => {
        adapter ??= load();
        const impl = (await adapter) as Record<PropertyKey, (...a: unknown[]) => unknown>;
        return impl[method]!(...args);
      };
    },
  });
}

let current: Platform | undefined;

export function buildPlatform(cfg: Config = config()): Platform {
  const clock = systemClock;
  const s3Options = { region: cfg.region, endpoint: cfg.s3Endpoint, forcePathStyle: cfg.s3ForcePathStyle };
  const built: Platform = {
    config: cfg,
    store: dynamoStore(cfg.dynamoEmulator ? emulatorCalls(cfg.dynamoEmulator) : sdkCalls(new DynamoDBClient({ region: cfg.region })), cfg.table),
    blobs: lazyPort<Blobs>(
      async () => {
        const { s3Blobs, s3Client } = await import('./s3-blobs.ts');
        return s3Blobs(s3Client(s3Options), cfg.bucket, { endpoint: cfg.s3Endpoint });
      },
      { keyOfUrl: (url: string) => s3KeyOfUrl(url, cfg.bucket, cfg.s3Endpoint) },
    ),
    keyRing: lazyPort<KeyRing>(async () => {
      const [{ KMSClient }, { kmsKeyRing }] = await Promise.all([import('@aws-sdk/client-kms'), import('./kms-keyring.ts')]);
      return kmsKeyRing(new KMSClient({ region: cfg.region }), cfg.kmsKeyId);
    }),
    runner: lazyPort<Runner>(async () => {
      const [{ SFNClient }, { sfnRunner }] = await Promise.all([import('@aws-sdk/client-sfn'), import('./sfn-runner.ts')]);
      return sfnRunner(new SFNClient({ region: cfg.region }), { run: cfg.runStateMachineArn, deliver: cfg.deliverStateMachineArn, workflowRun: cfg.workflowRunStateMachineArn });
    }),
    runEnds: cfg.runEndsChannel ? broadcastRunEnds(cfg.runEndsChannel) : sleepingRunEnds,
    clock,
    ids: randomIds(clock),
    ledger: ledgerPort,
    events: eventsPort,
  };
  return built;
}

export function platform(): Platform {
  current ??= buildPlatform();
  return current;
}

/** Replaces the platform (tests that inject faults through the ports). */
export function setPlatform(next: Platform | undefined): void {
  current = next;
}
