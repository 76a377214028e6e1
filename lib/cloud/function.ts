/**
 * One Lambda function as Quire deploys every one of them: Node.js 22 (on arm64 unless it ships a
 * native addon, see QuireFunctionProps.architecture), bundled by the local esbuild with code
 * splitting (see bundling.ts), with its own log group and its own role.
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
import { AssetHashType, DockerImage, Duration, Size, Validations, type BundlingOptions, type ILocalBundling } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { copyRuntimePackages, ENTRY_NAME, lambdaBuildOptions, REPO_ROOT, type LambdaArchitecture, type RuntimePackage } from './bundling.ts';
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
  /** Packages left out of the bundle and shipped in its node_modules/ (bundling.ts RuntimePackage). */
  runtimePackages?: readonly RuntimePackage[];
  /** Worker thread entries built next to the entry (bundling.ts TASK_THREAD_ENTRIES), by output name. */
  threadEntries?: Readonly<Record<string, string>>;
  /**
   * arm64 by default (cheaper per GB-second). A function whose runtime packages hold a native addon
   * runs on the architecture of the binaries that can be installed for it (see runs.ts).
   */
  architecture?: lambda.Architecture;
  /** The function's /tmp; Lambda's default (512 MB) when not set. */
  ephemeralStorageMb?: number;
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

    const architecture = props.architecture ?? lambda.Architecture.ARM_64;
    this.fn = new lambda.Function(this, 'Function', {
      code: bundledCode(props.entry, props.files ?? [], props.runtimePackages ?? [], architecture.name as LambdaArchitecture, props.threadEntries ?? {}),
      handler: `${ENTRY_NAME}.${props.handler}`,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture,
      memorySize: props.memoryMb,
      ephemeralStorageSize: props.ephemeralStorageMb === undefined ? undefined : Size.mebibytes(props.ephemeralStorageMb),
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
function bundledCode(
  entry: string,
  files: BundledFile[],
  runtimePackages: readonly RuntimePackage[],
  architecture: LambdaArchitecture,
  threadEntries: Readonly<Record<string, string>>,
): lambda.Code {
  return lambda.Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('unused-quire-bundles-locally-with-esbuild'),
      local: new EsbuildBundling(entry, files, runtimePackages, architecture, threadEntries),
    },
  });
}

/**
 * Bundles one Lambda with the esbuild API into CDK's output directory (bundling.ts has the options),
 * then copies its runtime packages (into node_modules/) and its static files.
 *
 * The inputs are fields on purpose: CDK caches staged assets per synth under a key made from the
 * JSON of the bundling options, so what tells two bundles apart must be serializable data, not only
 * captured by `tryBundle` (`packages` spells out the runtime packages, whose RegExps JSON drops).
 */
class EsbuildBundling implements ILocalBundling {
  readonly packages: string;

  constructor(
    readonly entry: string,
    readonly files: readonly BundledFile[],
    private readonly runtimePackages: readonly RuntimePackage[],
    readonly architecture: LambdaArchitecture,
    readonly threadEntries: Readonly<Record<string, string>>,
  ) {
    this.packages = JSON.stringify(runtimePackages, (_key, value: unknown) => (value instanceof RegExp ? String(value) : value));
  }

  tryBundle(outputDir: string, _options: BundlingOptions): boolean {
    buildSync(lambdaBuildOptions(this.entry, outputDir, this.runtimePackages, this.threadEntries));
    copyRuntimePackages(outputDir, this.runtimePackages, this.architecture);
    for (const file of this.files) cpSync(file.from, join(outputDir, file.to), { recursive: true });
    return true;
  }
}
