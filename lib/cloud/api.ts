/**
 * The HTTP API (DESIGN §1, §7): one Lambda per resource group (functions/<group>/), and one API
 * Gateway route per row of the route table, integrated with its group's Lambda. The Lambda learns
 * which route it serves from `event.routeKey` (functions/features.ts `routeHandlersOf`, platform/dispatcher.ts).
 */
import { CfnOutput, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { routeGroups, routes } from '../../functions/features.ts';
import { routeKey, SIZES, STREAM_TIMEOUT_SECONDS, type Route } from '../../functions/platform/route.ts';
import { ASSETS as DASHBOARD_ASSETS, sourceDirs as dashboardSourceDirs } from '../../functions/dashboard/assets.ts';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DUCKDB_RUNTIME_PACKAGES, ENTRIES_DIR, writeRouteEntry, writeStreamEntry, type RuntimePackage } from './bundling.ts';
import { QuireFunction, type BundledFile } from './function.ts';
import type { Runs } from './runs.ts';
import type { StageSettings } from './stage.ts';
import type { Storage } from './storage.ts';

/** Where the docs Lambda finds the swagger-ui files copied next to its bundle (see docsAssetFiles). */
export const DOCS_ASSETS_DIR = '/var/task/swagger-ui';
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-standalone-preset.js'];
/** Where the dashboard Lambda finds its static files (functions/dashboard/assets.ts), copied next to its bundle. */
export const DASHBOARD_ASSETS_DIR = '/var/task/dashboard-web';

/** One JSON line per request, with the route key so logs group by route (HTTP API $context variables). */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** Stage-wide throttling: a runaway client cannot exhaust the account's Lambda concurrency. */
const THROTTLE = { rateLimit: 100, burstLimit: 200 };

export interface ApiProps {
  settings: StageSettings;
  storage: Storage;
  runs: Runs;
  /** Environment of every API Lambda (config.ts), QUIRE_RUN_STATE_MACHINE_ARN included. */
  environment: Record<string, string>;
}

/**
 * The API groups that ship runtime packages (bundling.ts RuntimePackage): tables queries run on
 * DuckDB, a native addon whose linux-x64 binary is the one installed, so that Lambda runs on x86_64,
 * with /tmp room for a CSV being read into its Parquet query snapshot and the snapshots it caches
 * (functions/tables/query-service.ts; QUIRE_TABLES_CACHE_BYTES bounds the cache).
 */
const GROUP_RUNTIME: Record<string, { runtimePackages: readonly RuntimePackage[]; architecture: lambda.Architecture; ephemeralStorageMb: number; environment: Record<string, string> }> = {
  tables: {
    runtimePackages: DUCKDB_RUNTIME_PACKAGES,
    architecture: lambda.Architecture.X86_64,
    ephemeralStorageMb: 4096,
    // Half of /tmp for cached snapshots; the rest for a CSV (up to 1 GB) and the snapshot made from it.
    environment: { QUIRE_TABLES_CACHE_BYTES: String(2 * 1024 ** 3) },
  },
};

export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly functions: Record<string, QuireFunction> = {};
  /** The function URLs that stream the answers of streaming routes, and their functions, by route key. */
  readonly streamUrls: Record<string, lambda.FunctionUrl> = {};
  readonly streamFunctions: Record<string, QuireFunction> = {};

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new apigw.HttpApi(this, 'Http', {
      description: 'Quire HTTP API',
      // The stage is created below, with access logging and throttling.
      createDefaultStage: false,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.settings.logRetention,
      removalPolicy: props.settings.removalPolicy,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
      throttle: THROTTLE,
    });

    for (const group of routeGroups()) {
      const groupRoutes = routes.filter((route) => groupOf(route) === group);
      const isDocs = group === 'docs';
      const isDashboard = group === 'dashboard';
      const environment = isDocs
        ? { ...props.environment, QUIRE_DOCS_ASSETS_DIR: DOCS_ASSETS_DIR }
        : isDashboard
          ? { ...props.environment, QUIRE_DASHBOARD_ASSETS_DIR: DASHBOARD_ASSETS_DIR }
          : props.environment;

      const runtime = GROUP_RUNTIME[group];
      const fn = new QuireFunction(this, group, {
        entry: writeRouteEntry(ENTRIES_DIR, group),
        handler: 'handler',
        // The most demanding route of the group decides (document routes need memory for parsing).
        memoryMb: Math.max(...groupRoutes.map((route) => SIZES[route.size].memoryMb)),
        timeoutSeconds: Math.max(...groupRoutes.map((route) => SIZES[route.size].timeoutSeconds)),
        environment: { ...environment, ...(runtime?.environment ?? {}) },
        settings: props.settings,
        description: `Quire API: ${group} routes`,
        files: isDocs ? docsAssetFiles() : isDashboard ? dashboardAssetFiles() : undefined,
        ...(runtime ? { runtimePackages: runtime.runtimePackages, architecture: runtime.architecture, ephemeralStorageMb: runtime.ephemeralStorageMb } : {}),
      });
      props.storage.grantDataAccess(fn);
      props.runs.grantStartStop(fn);
      // Deciding a review hands the waiting workflow run its task token back (functions/workflows/reviews.ts).
      if (group === 'workflows' || isDashboard) props.runs.grantTaskResponse(fn);
      this.functions[group] = fn;

      // One integration per group, shared by its routes, and one invoke permission for it (API
      // Gateway may call the group's Lambda on this API's routes): a permission per route would put
      // the stack past CloudFormation's 500 resources (180 routes and as many permissions). The
      // Lambda answers only its group's route keys (platform/dispatcher.ts: 404 for any other).
      const integration = new HttpLambdaIntegration(`${group}Integration`, fn.fn, {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        scopePermissionToRoute: false,
      });

      for (const route of groupRoutes) {
        const httpRoute = new apigw.HttpRoute(this, `${route.method} ${route.path}`, {
          httpApi: this.httpApi,
          routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
          integration,
        });
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            route.op.auth === 'public'
              ? 'Public by contract (API.md §0.1): the OpenAPI document and its docs page need no key.'
              : route.op.auth === 'session'
                ? 'Dashboard route (DESIGN §8): members are authorized in the Lambda by their session cookie (hashed, looked up in DynamoDB, with CSRF checks); sign-in and static files are public.'
                : 'Authorized in the Lambda: API keys are hashed and looked up in DynamoDB, then checked again before the response (API.md §1); API Gateway authorizers cannot express that.',
        });
      }
    }

    for (const route of routes.filter((r) => r.stream)) this.streamingUrl(route, props);

    new CfnOutput(this, 'Url', { value: this.stage.url, description: 'Base URL of the Quire HTTP API' });
  }

  /**
   * A streaming route (functions/platform/response-stream.ts) is served twice. API Gateway's HTTP
   * API cannot stream, so its route (above) answers the events buffered, all at once when the
   * handler ends, within the 29 s every route has. And a Lambda function URL in RESPONSE_STREAM mode
   * streams them as they are written, for up to 15 minutes: a function of its own (the route's
   * handler alone, waiting on the run that does the work, hence the small memory), whose URL is a
   * stack output. The URL is public like the API (auth type NONE): the handler checks the API key
   * as every route does. A client streams by sending the same request to that URL (same path);
   * one base URL for every route needs CloudFront in front of both (not built here).
   */
  private streamingUrl(route: Route, props: ApiProps): void {
    const fn = new QuireFunction(this, `${route.handler}Stream`, {
      entry: writeStreamEntry(ENTRIES_DIR, route),
      handler: 'handler',
      memoryMb: 1024,
      timeoutSeconds: STREAM_TIMEOUT_SECONDS,
      environment: props.environment,
      settings: props.settings,
      description: `Quire API: ${routeKey(route)}, streamed through a function URL`,
    });
    props.storage.grantDataAccess(fn);
    props.runs.grantStartStop(fn);
    const url = fn.fn.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    this.streamFunctions[routeKey(route)] = fn;
    this.streamUrls[routeKey(route)] = url;
    new CfnOutput(this, `${route.handler}StreamUrl`, { value: url.url, description: `Streams ${routeKey(route)} as it goes: send the same request to this URL, path ${route.path}` });
  }
}

/** The resource group of a route: the folder of its handler module ("files/handlers.ts" → "files"). */
function groupOf(route: Route): string {
  return route.module.split('/')[0]!;
}

/** The dashboard's static files and pdf.js's browser build, copied into its bundle under dashboard-web/. */
function dashboardAssetFiles(): BundledFile[] {
  const dirs = dashboardSourceDirs();
  return Object.values(DASHBOARD_ASSETS).map((asset) => ({ from: join(dirs[asset.source.dir], asset.source.file), to: join('dashboard-web', asset.bundled) }));
}

/** The swagger-ui files served by GET /docs/{asset}, copied into the docs bundle under swagger-ui/. */
function docsAssetFiles(): BundledFile[] {
  const require = createRequire(import.meta.url);
  const sourceDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  return SWAGGER_UI_FILES.map((file) => ({ from: join(sourceDir, file), to: join('swagger-ui', file) }));
}
