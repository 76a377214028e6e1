/**
 * The adapters of one Lambda container (or one local worker), built once on first use from the
 * configuration. Services receive this object; tests may build their own.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SFNClient } from '@aws-sdk/client-sfn';
import { config, type Config } from './config.ts';
import { dynamoStore } from './dynamo-store.ts';
import { randomIds, systemClock } from './ids.ts';
import { kmsKeyRing } from './kms-keyring.ts';
import type { Blobs, Clock, Ids, KeyRing, Runner, Store } from './ports.ts';
import { s3Blobs, s3Client } from './s3-blobs.ts';
import { sfnRunner } from './sfn-runner.ts';

export interface Platform {
  config: Config;
  store: Store;
  blobs: Blobs;
  keyRing: KeyRing;
  runner: Runner;
  clock: Clock;
  ids: Ids;
}

let current: Platform | undefined;

export function buildPlatform(cfg: Config = config()): Platform {
  const s3 = s3Client({ region: cfg.region, endpoint: cfg.s3Endpoint, forcePathStyle: cfg.s3ForcePathStyle });
  const clock = systemClock;
  return {
    config: cfg,
    store: dynamoStore(new DynamoDBClient({ region: cfg.region }), cfg.table),
    blobs: s3Blobs(s3, cfg.bucket, { endpoint: cfg.s3Endpoint, forcePathStyle: cfg.s3ForcePathStyle, region: cfg.region }),
    keyRing: kmsKeyRing(new KMSClient({ region: cfg.region }), cfg.kmsKeyId),
    runner: sfnRunner(new SFNClient({ region: cfg.region }), { run: cfg.runStateMachineArn }),
    clock,
    ids: randomIds(clock),
  };
}

export function platform(): Platform {
  current ??= buildPlatform();
  return current;
}

/** Replaces the platform (tests that inject faults through the ports). */
export function setPlatform(next: Platform | undefined): void {
  current = next;
}
