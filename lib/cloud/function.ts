/**
 * One Lambda function as Quire deploys every one of them: Node.js 22 on arm64, bundled by the local
 * esbuild with code splitting (see bundling.ts), with its own log group and its own role.
 *
 * The code is a plain `lambda.Function` asset bundled locally, not a NodejsFunction: NodejsFunction
 * always bundles to a single `--outfile`, which rules out esbuild's code splitting (it needs
 * `outdir`). Bundling runs in-process through the esbuild API: no Docker, no network.
 *
 * The role is created here, not by the Function construct, because the default role carries the AWS
 * managed policy AWSLambdaBasicExecutionRole (logs:* on every log group of the account). Ours may
 * only write to the function's own log group; every other permission is added by the construct that
 * owns the resource (Storage.grantDataAccess, Runs.grantStartStop).
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, DockerImage, Duration, Validations, type BundlingOptions, type ILocalBundling } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { ENTRY_NAME, lambdaBuildOptions, REPO_ROOT } from './bundling.ts';
import type { StageSettings } from './stage.ts';

/** A static file (or directory) copied into a bundle, e.g. assets the function serves. */
export interface BundledFile {
  /** Absolute path of the source. */
  from: string;
  /** Path inside the bundle (relative to its root, /var/task in Lambda). */
  to: string;
}

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
  /** Static files copied next to the bundle. */
  files?: BundledFile[];
}

export class QuireFunction extends Construct {
  readonly fn: lambda.Function;
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

    this.fn = new lambda.Function(this, 'Function', {
      code: bundledCode(props.entry, props.files ?? []),
      handler: `${ENTRY_NAME}.${props.handler}`,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      environment: props.environment,
      role: this.role,
      logGroup: this.logGroup,
    });

    // Node.js 22 is the runtime Quire is built and tested for (DESIGN §7, the local runtime runs
    // the same code on Node 20/22); moving to a newer runtime is a deliberate, tested upgrade.
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Runtime pinned to nodejs22.x on purpose: it is the version the code is built and tested for (DESIGN §7).',
    });
  }
}

/**
 * The Lambda code asset of `entry`: bundled at synth time by EsbuildBundling (local bundling; the
 * Docker image is required by the API but never used, since the local bundler always succeeds or
 * throws).
 *
 * The asset hash is the hash of the bundle (OUTPUT): the code changes exactly when the bundle does,
 * whatever caused it (our sources, a dependency, the esbuild options). SOURCE would have to
 * fingerprint the whole repository, node_modules included. The asset path is the repository root,
 * as for NodejsFunction; it is not copied (bundling writes the asset) nor fingerprinted.
 */
function bundledCode(entry: string, files: BundledFile[]): lambda.Code {
  return lambda.Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('unused-quire-bundles-locally-with-esbuild'),
      local: new EsbuildBundling(entry, files),
    },
  });
}

/**
 * Bundles one Lambda with the esbuild API into CDK's output directory (bundling.ts has the options),
 * then copies its static files.
 *
 * `entry` and `files` are fields on purpose: CDK caches staged assets per synth under a key made
 * from the JSON of the bundling options, so what tells two bundles apart must be serializable
 * data, not only captured by `tryBundle`.
 */
class EsbuildBundling implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly files: readonly BundledFile[],
  ) {}

  tryBundle(outputDir: string, _options: BundlingOptions): boolean {
    buildSync(lambdaBuildOptions(this.entry, outputDir));
    for (const file of this.files) cpSync(file.from, join(outputDir, file.to), { recursive: true });
    return true;
  }
}
