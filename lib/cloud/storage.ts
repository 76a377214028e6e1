/**
 * Where Quire keeps state (DESIGN §3): one DynamoDB table, one S3 bucket for documents and outputs
 * (plus a bucket for its access logs), and one KMS key that encrypts the bucket and envelopes secrets.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { QuireFunction } from './function.ts';
import type { StageSettings } from './stage.ts';

/**
 * Objects of a three-step upload (`<org>/<env>/uploads/<id>`) are staging copies. S3 lifecycle filters
 * match key prefixes, not infixes, so the rule that expires them matches this object tag instead.
 * The presigned upload PUT must carry it (`x-amz-tagging: quire-lifecycle=upload` in uploadHeaders).
 */
export const UPLOAD_STAGING_TAG = { key: 'quire-lifecycle', value: 'upload' } as const;

export interface StorageProps {
  settings: StageSettings;
}

export class Storage extends Construct {
  readonly key: kms.Key;
  readonly table: dynamodb.TableV2;
  readonly bucket: s3.Bucket;
  readonly accessLogsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const { settings } = props;

    this.key = new kms.Key(this, 'Key', {
      description: `Quire ${Stack.of(this).stackName}: documents bucket and secret envelopes`,
      enableKeyRotation: true,
      removalPolicy: settings.removalPolicy,
    });

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      globalSecondaryIndexes: [
        {
          indexName: 'gsi1',
          partitionKey: { name: 'gsi1pk', type: dynamodb.AttributeType.STRING },
          sortKey: { name: 'gsi1sk', type: dynamodb.AttributeType.STRING },
        },
      ],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: settings.deletionProtection,
      removalPolicy: settings.removalPolicy,
    });

    // Server access logs cannot be delivered to an SSE-KMS bucket, hence S3-managed keys here.
    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
      removalPolicy: settings.removalPolicy,
    });

    this.bucket = new s3.Bucket(this, 'Documents', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.key,
      // One data key per bucket instead of one KMS call per object.
      bucketKeyEnabled: true,
      enforceSSL: true,
      versioned: false,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        {
          // Presigned uploads are single PUTs valid 15 minutes; a multipart upload still open after
          // a day is abandoned. (S3 accepts no tag filter on this action, so it covers the bucket.)
          id: 'abort-incomplete-multipart-uploads',
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        {
          id: 'expire-upload-staging-objects',
          tagFilters: { [UPLOAD_STAGING_TAG.key]: UPLOAD_STAGING_TAG.value },
          expiration: Duration.days(2),
        },
      ],
      // Browsers PUT uploads and GET downloads straight to S3 through presigned URLs.
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
          allowedOrigins: ['*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      removalPolicy: settings.removalPolicy,
    });
  }

  /**
   * Read/write on the table, the documents bucket and the key, with explicit actions only
   * (the grant* helpers of the L2 constructs add wildcard actions such as s3:GetObject*).
   */
  grantDataAccess(target: QuireFunction): void {
    this.grantRecordAccess(target);
    this.grantDocumentAccess(target);
  }

  /** Read/write on the table and use of the key (sealed secrets): all a function without documents needs. */
  grantRecordAccess(target: QuireFunction): void {
    const principal = target.role;
    principal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'TableReadWrite',
        actions: [
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:Query',
          'dynamodb:BatchGetItem',
          'dynamodb:BatchWriteItem',
        ],
        resources: [this.table.tableArn, `${this.table.tableArn}/index/gsi1`],
      }),
    );
    principal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'KeyUse',
        actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey'],
        resources: [this.key.keyArn],
      }),
    );
  }

  /**
   * What the sweeper (functions/runs/sweeper.ts) does with the table: one Scan for active records,
   * then reads and conditional writes of single items (the run, its usage entry, its event and
   * delivery). No index, no batch, no key, no bucket.
   */
  grantTableSweep(target: QuireFunction): void {
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'TableSweep',
        actions: ['dynamodb:Scan', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        resources: [this.table.tableArn],
      }),
    );
  }

  /** Read/write on the documents bucket. */
  grantDocumentAccess(target: QuireFunction): void {
    const principal = target.role;
    principal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'DocumentsReadWrite',
        // PutObjectTagging: an upload PUT that sets the staging tag needs it.
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:PutObjectTagging'],
        resources: [this.bucket.arnForObjects('*')],
      }),
    );
    principal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'DocumentsList',
        // Without ListBucket a HEAD/GET of a missing key answers 403 instead of 404.
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
      }),
    );
    const bucketLogicalId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    Validations.of(target).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
      reason: 'Object keys are dynamic (<org>/<env>/...); access is limited to objects of this one bucket.',
    });
  }
}
