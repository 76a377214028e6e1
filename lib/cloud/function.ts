/**
 * One Lambda function as Quire deploys every one of them: Node.js 22 on arm64, bundled by the local
 * esbuild (see bundling.ts), with its own log group and its own role.
 *
 * The role is created here, not by NodejsFunction, because the default role carries the AWS managed
 * policy AWSLambdaBasicExecutionRole (logs:* on every log group of the account). Ours may only write
 * to the function's own log group; every other permission is added by the construct that owns the
 * resource (Storage.grantDataAccess, Runs.grantStartStop).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { nodejsBundling, REPO_ROOT } from './bundling.ts';
import type { StageSettings } from './stage.ts';
import { join } from 'node:path';

export interface QuireFunctionProps {
  /** Absolute path of the entry module. */
  entry: string;
  /** Exported handler name in the entry module. */
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  environment: Record<string, string>;
  settings: StageSettings;
  description: string;
  /** Extra shell commands run by the bundler, e.g. to copy static assets next to the bundle. */
  commandHooks?: ICommandHooks;
}

export class QuireFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: QuireFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.settings.logRetention,
      removalPolicy: props.settings.removalPolicy,
    });

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (execution role)`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: props.handler,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      environment: props.environment,
      role: this.role,
      logGroup: this.logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(props.commandHooks),
    });

    // Node.js 22 is the runtime Quire is built and tested for (DESIGN §7, the local runtime runs
    // the same code on Node 20/22); moving to a newer runtime is a deliberate, tested upgrade.
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x on purpose: it is the version the code is built and tested for (DESIGN §7).',
    });
  }
}
