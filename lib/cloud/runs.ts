/**
 * Background runs (DESIGN §4): the task Lambdas named in `taskFunctions` and the Standard state
 * machines of `stateMachines` whose ASL files call them. The ASL files are shared with the local
 * runner; here each `${Name}` placeholder in them is substituted with the ARN of task function `Name`.
 */
import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { stateMachines, taskFunctions } from '../../functions/features.ts';
import type { TaskFunction } from '../../functions/platform/route.ts';
import { DOCUMENT_YOUNG_GENERATION_MB } from '../../functions/documents/pdf-helper.ts';
import { FUNCTIONS_DIR, REPO_ROOT, TASK_RUNTIME_PACKAGES, TASK_THREAD_ENTRIES } from './bundling.ts';
import { QuireFunction } from './function.ts';
import type { StageSettings } from './stage.ts';
import type { Storage } from './storage.ts';

export type StateMachineName = keyof typeof stateMachines;

/**
 * The task Lambdas read documents (functions/documents/) and ship, as files, the packages that cannot
 * be bundled (bundling.ts TASK_RUNTIME_PACKAGES), among them the native addon @napi-rs/canvas, whose
 * binary is whichever platform package npm installed. Only @napi-rs/canvas-linux-x64-gnu is installed
 * where Quire is synthesized, and the arm64 one cannot be downloaded there, so the task Lambdas run on
 * x86_64 (the API Lambdas bundle everything and stay on arm64). Synthesis fails if the binary for
 * this architecture is missing (copyRuntimePackages). Moving to arm64 means installing
 * @napi-rs/canvas-linux-arm64-gnu as well and changing this constant.
 */
export const TASK_ARCHITECTURE = lambda.Architecture.X86_64;

/**
 * /tmp of the task Lambdas: above Lambda's 512 MB default, as room for what document engines may
 * spill there (decoded images, temporary files of a child process).
 */
export const TASK_EPHEMERAL_STORAGE_MB = 1024;

export interface RunsProps {
  settings: StageSettings;
  storage: Storage;
  /** Environment shared by every Lambda, without QUIRE_RUN_STATE_MACHINE_ARN (added here). */
  environment: Record<string, string>;
}

export class Runs extends Construct {
  readonly taskFunctions: Record<string, QuireFunction> = {};
  readonly stateMachines = {} as Record<StateMachineName, sfn.StateMachine>;
  readonly failedAlarms = {} as Record<StateMachineName, cloudwatch.Alarm>;
  /** ARN of the deliver-webhook state machine (fixed name, known before it exists). */
  readonly deliverStateMachineArn: string;

  constructor(scope: Construct, id: string, props: RunsProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // The task Lambdas are invoked by the state machines, and they need the run state machine's
    // ARN in their configuration (functions/platform/config.ts reads it). Referencing the state
    // machine resource from them would be a cycle (it references them), so the machines get fixed
    // names and the ARN is spelled out from the name.
    const runStateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName(stack, 'run'),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    const deliverStateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName(stack, 'deliver'),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.deliverStateMachineArn = deliverStateMachineArn;
    const workflowRunStateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: stateMachineName(stack, 'workflowRun'),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    for (const [name, task] of Object.entries(taskFunctions) as [string, TaskFunction][]) {
      const documents = task.documents !== false;
      const fn = new QuireFunction(this, name, {
        entry: join(FUNCTIONS_DIR, task.module),
        handler: task.handler,
        memoryMb: task.memoryMb,
        timeoutSeconds: task.timeoutSeconds,
        environment: {
          ...props.environment,
          QUIRE_RUN_STATE_MACHINE_ARN: runStateMachineArn,
          QUIRE_DELIVER_STATE_MACHINE_ARN: deliverStateMachineArn,
          QUIRE_WORKFLOW_RUN_STATE_MACHINE_ARN: workflowRunStateMachineArn,
          // A larger young generation for reading documents (functions/documents/pdf-helper.ts).
          ...(documents ? { NODE_OPTIONS: `--max-semi-space-size=${DOCUMENT_YOUNG_GENERATION_MB / 3}` } : {}),
        },
        settings: props.settings,
        description: `Quire background task ${name} (${task.module})`,
        ...(documents
          ? { runtimePackages: TASK_RUNTIME_PACKAGES, threadEntries: TASK_THREAD_ENTRIES, architecture: TASK_ARCHITECTURE, ephemeralStorageMb: TASK_EPHEMERAL_STORAGE_MB }
          : {}),
      });
      if (documents) props.storage.grantDataAccess(fn);
      else props.storage.grantRecordAccess(fn);
      this.taskFunctions[name] = fn;
    }

    for (const [name, machine] of Object.entries(stateMachines) as [StateMachineName, (typeof stateMachines)[StateMachineName]][]) {
      const logGroup = new logs.LogGroup(this, `${name}Logs`, {
        // The /aws/vendedlogs/ prefix keeps Step Functions from growing the account-wide
        // CloudWatch Logs resource policy with one entry per log group.
        logGroupName: `/aws/vendedlogs/states/${stateMachineName(stack, name)}`,
        retention: props.settings.logRetention,
        removalPolicy: props.settings.removalPolicy,
      });

      const substitutions: Record<string, string> = {};
      for (const task of machine.tasks) substitutions[task] = this.taskFunctions[task]!.fn.functionArn;

      const stateMachine = new sfn.StateMachine(this, name, {
        stateMachineName: stateMachineName(stack, name),
        stateMachineType: sfn.StateMachineType.STANDARD,
        definitionBody: sfn.DefinitionBody.fromFile(join(REPO_ROOT, machine.definition)),
        definitionSubstitutions: substitutions,
        logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
        tracingEnabled: true,
      });

      // The definition comes from a file, so CDK cannot see which functions it calls: grant them here.
      // The ASL names the unqualified function ARN, so no version/alias wildcard is needed.
      stateMachine.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: machine.tasks.map((task) => this.taskFunctions[task]!.fn.functionArn),
        }),
      );

      Validations.of(stateMachine).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Added by CDK for logging and tracing: the CloudWatch Logs delivery actions (logs:CreateLogDelivery, ...) ' +
          'and the X-Ray actions (xray:PutTraceSegments, ...) do not support resource-level permissions.',
      });

      this.failedAlarms[name] = new cloudwatch.Alarm(this, `${name}FailedAlarm`, {
        alarmDescription: `Executions of ${stateMachineName(stack, name)} failed (a run did not reach its Fail step cleanly).`,
        metric: stateMachine.metricFailed({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

      this.stateMachines[name] = stateMachine;
    }

    // Run and workflow tasks announce the end of runs (webhook events): they may start deliveries, nothing else.
    for (const task of [...stateMachines.run.tasks, ...stateMachines.workflowRun.tasks]) this.grantStartDelivery(this.taskFunctions[task]!);
    // The workflow task resumes a run whose review was decided before its wait began (functions/workflows/reviews.ts).
    this.workflowRunStateMachineArn = workflowRunStateMachineArn;
    for (const task of stateMachines.workflowRun.tasks) this.grantTaskResponse(this.taskFunctions[task]!);
  }

  private readonly workflowRunStateMachineArn: string;

  /**
   * SendTaskSuccess / SendTaskFailure on the workflow-run state machine: a review decision completes
   * the AwaitReview state waiting on its task token (`.waitForTaskToken`). The ARN is spelled out
   * from the machine's fixed name (the task functions are referenced by the machine).
   */
  grantTaskResponse(target: QuireFunction): void {
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReviewTaskResponse',
        actions: ['states:SendTaskSuccess', 'states:SendTaskFailure'],
        resources: [this.workflowRunStateMachineArn],
      }),
    );
  }

  /** StartExecution on the deliver-webhook state machine only (the Events port, functions/webhooks/events.ts). */
  grantStartDelivery(target: QuireFunction): void {
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'DeliveryStart',
        actions: ['states:StartExecution'],
        resources: [this.stateMachines.deliver.stateMachineArn],
      }),
    );
  }

  /**
   * DescribeExecution on the executions of every state machine (the sweeper asks whether the
   * execution of an active record is still running), and StartExecution on the deliver-webhook
   * machine (it announces the runs it ends). Nothing else: it never starts or stops a run.
   */
  grantSweep(target: QuireFunction): void {
    this.grantStartDelivery(target);
    const machines = Object.keys(this.stateMachines) as StateMachineName[];
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ExecutionDescribe',
        actions: ['states:DescribeExecution'],
        resources: machines.map((name) => this.executionsArn(name)),
      }),
    );
    for (const name of machines) {
      Validations.of(target).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${stateMachineName(Stack.of(this), name)}:*]`,
        reason: 'Execution ARNs end in the record id (run, workflow run or delivery); the wildcard covers the executions of one state machine of this stack.',
      });
    }
  }

  /** The ARN pattern of every execution of one state machine (executions are named after record ids). */
  private executionsArn(name: StateMachineName): string {
    return Stack.of(this).formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${stateMachineName(Stack.of(this), name)}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /**
   * Lets an API function start and stop runs and read their status: StartExecution on the run state
   * machine; StopExecution and DescribeExecution on its executions (named after run ids).
   */
  grantStartStop(target: QuireFunction): void {
    this.grantStartDelivery(target);
    const machines: StateMachineName[] = ['run', 'workflowRun'];
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'RunStart',
        actions: ['states:StartExecution'],
        resources: machines.map((name) => this.stateMachines[name].stateMachineArn),
      }),
    );
    target.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'RunStopDescribe',
        actions: ['states:StopExecution', 'states:DescribeExecution'],
        resources: machines.map((name) => this.executionsArn(name)),
      }),
    );
    for (const name of machines) {
      Validations.of(target).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${stateMachineName(Stack.of(this), name)}:*]`,
        reason: 'Execution ARNs end in the run id, unknown until the run starts; the wildcard covers executions of the run and workflow-run state machines only.',
      });
    }
  }
}

/** e.g. "Quire-test-run": fixed, so the ARN is known before the machine exists (see above). */
function stateMachineName(stack: Stack, name: string): string {
  return `${stack.stackName}-${name}`;
}
