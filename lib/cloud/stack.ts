/**
 * One Quire deployment: storage, background runs, then the HTTP API (in that order: the API Lambdas
 * need the run state machine's ARN, the task Lambdas need nothing from the API).
 * Each deployment serves both data environments (test and production), chosen by the API key.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api } from './api.ts';
import { grantBedrockModels, modelsConfig, type ModelsConfig } from './models.ts';
import { Runs } from './runs.ts';
import { stageSettings, type Stage } from './stage.ts';
import { Storage } from './storage.ts';
import { Sweeper } from './sweeper.ts';

export interface QuireStackProps extends StackProps {
  stage: Stage;
  /** The model registry's configuration (default: QUIRE_MODELS / QUIRE_MODELS_FILE where the app is synthesized). */
  models?: ModelsConfig;
}

export class QuireStack extends Stack {
  readonly storage: Storage;
  readonly runs: Runs;
  readonly api: Api;
  readonly sweeper: Sweeper;

  constructor(scope: Construct, id: string, props: QuireStackProps) {
    super(scope, id, props);
    const settings = stageSettings(props.stage);

    this.storage = new Storage(this, 'Storage', { settings });

    // Read by functions/platform/config.ts in every Lambda.
    const environment: Record<string, string> = {
      QUIRE_TABLE: this.storage.table.tableName,
      QUIRE_BUCKET: this.storage.bucket.bucketName,
      QUIRE_KMS_KEY_ID: this.storage.key.keyArn,
      QUIRE_DEPLOYMENT: this.stackName,
      POWERTOOLS_SERVICE_NAME: 'quire',
    };
    const models = props.models ?? modelsConfig();
    if (models.json) environment.QUIRE_MODELS = models.json;

    this.runs = new Runs(this, 'Runs', { settings, storage: this.storage, environment });
    // Only the run task Lambda calls models, and only the configured Bedrock models.
    const runTask = this.runs.taskFunctions.RunTaskFunctionArn!;
    grantBedrockModels(runTask.role, models.bedrock, runTask);

    const withStateMachines = {
      ...environment,
      QUIRE_RUN_STATE_MACHINE_ARN: this.runs.stateMachines.run.stateMachineArn,
      QUIRE_DELIVER_STATE_MACHINE_ARN: this.runs.stateMachines.deliver.stateMachineArn,
      QUIRE_WORKFLOW_RUN_STATE_MACHINE_ARN: this.runs.stateMachines.workflowRun.stateMachineArn,
    };
    this.api = new Api(this, 'Api', { settings, storage: this.storage, runs: this.runs, environment: withStateMachines });
    // Ends runs left active by an execution that ended without settling them.
    this.sweeper = new Sweeper(this, 'Sweeper', { settings, storage: this.storage, runs: this.runs, environment: withStateMachines });

    // What the admin CLI (bin/quire.ts) needs to reach this deployment's data.
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'KeyArn', { value: this.storage.key.keyArn });
    new CfnOutput(this, 'RunStateMachineArn', { value: this.runs.stateMachines.run.stateMachineArn });
  }
}
