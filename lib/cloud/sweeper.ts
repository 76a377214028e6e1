/**
 * The sweeper on AWS (functions/runs/sweeper.ts): a small Lambda an EventBridge schedule calls every
 * 10 minutes. It ends runs, workflow runs and webhook deliveries left active by an execution that
 * ended without settling them (timed out, stopped by hand, Fail step failing). Its permissions: the
 * table (Scan and single items), DescribeExecution on the executions of the three state machines,
 * StartExecution on the deliver-webhook machine (the `*.failed` events it sends). No bucket, no key.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { FUNCTIONS_DIR } from './bundling.ts';
import { QuireFunction } from './function.ts';
import type { Runs } from './runs.ts';
import type { StageSettings } from './stage.ts';
import type { Storage } from './storage.ts';

/** How often it sweeps: a lost record ends at most this long after its grace period (5 min). */
export const SWEEP_INTERVAL = Duration.minutes(10);

export interface SweeperProps {
  settings: StageSettings;
  storage: Storage;
  runs: Runs;
  /** Environment shared by every Lambda, with the three state machine ARNs. */
  environment: Record<string, string>;
}

export class Sweeper extends Construct {
  readonly function: QuireFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: SweeperProps) {
    super(scope, id);
    this.function = new QuireFunction(this, 'Function', {
      entry: join(FUNCTIONS_DIR, 'features.ts'),
      handler: 'sweep',
      memoryMb: 256,
      // A Scan of the whole table and one DescribeExecution per active record: well under this.
      timeoutSeconds: 300,
      environment: props.environment,
      settings: props.settings,
      description: 'Quire sweeper: ends runs whose execution ended without settling them (functions/runs/sweeper.ts)',
    });
    props.storage.grantTableSweep(this.function);
    props.runs.grantSweep(this.function);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Runs the Quire sweeper',
      schedule: events.Schedule.rate(SWEEP_INTERVAL),
      // A missed sweep is simply done by the next one: no retries piling up.
      targets: [new targets.LambdaFunction(this.function.fn, { retryAttempts: 0 })],
    });
  }
}
