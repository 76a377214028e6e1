/**
 * The two deployments differ only in how carefully they keep data. Everything that depends on the
 * stage is decided here, so the constructs read one object instead of comparing strings.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export type Stage = 'test' | 'production';

export interface StageSettings {
  stage: Stage;
  /** Table, buckets, key and log groups: kept in production, removed with a test stack. */
  removalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection (production only). */
  deletionProtection: boolean;
  logRetention: RetentionDays;
}

export function stageSettings(stage: Stage): StageSettings {
  if (stage === 'production') {
    return { stage, removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true, logRetention: RetentionDays.THREE_MONTHS };
  }
  return { stage, removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false, logRetention: RetentionDays.ONE_MONTH };
}
