/**
 * The feature list: the one place that names Quire's features. Each feature folder describes itself
 * in its `feature.ts` (./feature.ts says what a feature may declare: routes, run kinds with their
 * tasks, workflow blocks, state machines, records the sweeper ends); everything that needs "every
 * route" or "every run kind" reads it from here:
 *
 *   routes             the route table: CDK's API (lib/cloud/api.ts), the local HTTP server
 *                      (lib/local), the OpenAPI document (docs/) and the dashboard
 *   runKinds, runTask  the run task Lambda (statemachines/run.asl.json calls `runTask`)
 *   blockTypes         the workflow task's document blocks (workflows/blocks.ts)
 *   stateMachines,
 *   taskFunctions      the background machines and their Lambdas (lib/cloud/runs.ts, lib/local)
 *   sweep              the sweeper Lambda (lib/cloud/sweeper.ts) and the local sweeper
 *   runCollections     the CLI's `get`/`list` of runs (lib/cli/runs.ts)
 *
 * The layers below know no feature: functions/platform/ imports nothing outside itself, and
 * functions/runs/ imports only platform/, documents/, models/ and files/; what they need of the
 * features (each kind's task, the usage ledger, webhook events) is handed to them from here and
 * ./wiring.ts.
 *
 * Adding a kind of run: a folder with its schema, kind, operations, handlers, service and task, and
 * a `feature.ts` naming its routes and its run (`runs: [{ kind, path, task }]`); then one line in
 * `features` below.
 */
import './wiring.ts';
import type { DocumentBlockType, Feature } from './feature.ts';
import type { MachineName } from './platform/ports.ts';
import { dispatcherOf, type LambdaHandler } from './platform/dispatcher.ts';
import { routeKey, type Route, type StateMachine, type TaskFunction } from './platform/route.ts';
import { registeredRunTask, type RunKind, type RunTask } from './runs/kinds.ts';
import { sweeperHandler, type SweptRecords } from './runs/sweeper.ts';
import { runTaskHandler } from './runs/task.ts';
import { authFeature } from './auth/feature.ts';
import { classificationsFeature } from './classifications/feature.ts';
import { consensusFeature } from './consensus/feature.ts';
import { dashboardFeature } from './dashboard/feature.ts';
import { docsFeature } from './docs/feature.ts';
import { editsFeature } from './edits/feature.ts';
import { extractionsFeature } from './extractions/feature.ts';
import { filesFeature } from './files/feature.ts';
import { modelCatalogFeature } from './model-catalog/feature.ts';
import { parsesFeature } from './parses/feature.ts';
import { partitionsFeature } from './partitions/feature.ts';
import { projectsFeature } from './projects/feature.ts';
import { schemasFeature } from './schemas/feature.ts';
import { secretsFeature } from './secrets/feature.ts';
import { splitsFeature } from './splits/feature.ts';
import { tablesFeature } from './tables/feature.ts';
import { usageFeature } from './usage/feature.ts';
import { webhooksFeature } from './webhooks/feature.ts';
import { workflowsFeature } from './workflows/feature.ts';

/** Every feature, once. The order is the order of the route table and the OpenAPI document. */
export const features: readonly Feature[] = [
  docsFeature,
  authFeature,
  modelCatalogFeature,
  filesFeature,
  parsesFeature,
  classificationsFeature,
  splitsFeature,
  partitionsFeature,
  extractionsFeature,
  consensusFeature,
  schemasFeature,
  projectsFeature,
  workflowsFeature,
  secretsFeature,
  webhooksFeature,
  usageFeature,
  tablesFeature,
  editsFeature,
  dashboardFeature,
];

// ── The route table ──────────────────────────────────────────────────────────────────────────────

/** Every HTTP route of every feature. */
export const routes: Route[] = features.flatMap((f) => f.routes ?? []);

/** The resource groups that host HTTP routes, e.g. ["auth", "docs", "files", ...]: one Lambda each on AWS. */
export function routeGroups(): string[] {
  return [...new Set(routes.map((r) => r.module.split('/')[0]!))].sort();
}

/** Route key → handler name, for the routes of one group (written into the group's generated Lambda entry). */
export function routeHandlersOf(group: string): Record<string, string> {
  return Object.fromEntries(routes.filter((route) => route.module === `${group}/handlers.ts`).map((route) => [routeKey(route), route.handler]));
}

/** The dispatcher of a group, from the route table (the generated entries carry its table instead). */
export function routeDispatcher(group: string, handlers: Record<string, unknown>): LambdaHandler {
  return dispatcherOf(group, handlers, routeHandlersOf(group));
}

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────────

const featureRuns = features.flatMap((f) => f.runs ?? []);

/** Every kind of run (pure data: nothing of its work is loaded). */
export const runKinds: readonly RunKind[] = featureRuns.map((r) => r.kind);

/** The run kinds clients read through a collection route, with that route (the CLI). */
export const runCollections = featureRuns.filter((r) => r.path !== undefined).map((r) => ({ kind: r.kind, path: r.path! }));

/** The run kinds the dashboard lists, with what its pages do with each. */
export const dashboardRuns = featureRuns.filter((r) => r.dashboard !== undefined).map((r) => ({ kind: r.kind, startable: r.dashboard!.startable === true, pages: r.dashboard!.pages }));

/** The task of a kind by name; kinds registered at run time (tests) first. */
export async function loadRunTask(name: string): Promise<RunTask> {
  const task = registeredRunTask(name) ?? (await featureRuns.find((r) => r.kind.name === name)?.task());
  if (!task) throw new Error(`Unknown run kind ${name}`);
  return task;
}

/** The handler of the run task Lambda (statemachines/run.asl.json). */
export const runTask = runTaskHandler(loadRunTask);

/** The workflow blocks that run a feature's kind on a document, by block type. */
export const blockTypes: readonly DocumentBlockType[] = features.flatMap((f) => f.blocks ?? []);

// ── Background machines and the sweeper ──────────────────────────────────────────────────────────

/** The run machine belongs to the run machinery itself; the others to the features that declare them. */
const RUN_MACHINE: StateMachine = {
  definition: 'statemachines/run.asl.json',
  tasks: { RunTaskFunctionArn: { module: 'features.ts', handler: 'runTask', memoryMb: 3008, timeoutSeconds: 900 } },
};

const machines: Record<string, StateMachine> = Object.assign({ run: RUN_MACHINE }, ...features.map((f) => f.machines ?? {}));
for (const name of ['run', 'deliver', 'workflowRun'] satisfies MachineName[]) {
  if (!machines[name]) throw new Error(`No feature declares the ${name} state machine`);
}

/** State machines: ASL file (relative to the repo root) and the names of the task functions it calls. */
export const stateMachines = Object.fromEntries(Object.entries(machines).map(([name, m]) => [name, { definition: m.definition, tasks: Object.keys(m.tasks) }])) as Record<
  MachineName,
  { definition: string; tasks: string[] }
>;

/** Background task functions: invoked by state machines, never by HTTP. Keys are the ASL substitution names. */
export const taskFunctions: Record<string, TaskFunction> = Object.assign({}, ...Object.values(machines).map((m) => m.tasks));

/** What the sweeper looks after: every run kind and the other records features declare. */
export const sweptRecords: SweptRecords = { runKinds, others: features.flatMap((f) => f.swept ?? []) };

/** The handler of the sweeper Lambda (lib/cloud/sweeper.ts). */
export const sweep = sweeperHandler(sweptRecords);
