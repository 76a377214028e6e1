/**
 * Workflow evals and experiments (API §9.5, the Retab SDK's `workflows.evals` and
 * `workflows.experiments`): saved checks of one block's output, and one block run with several
 * votes over a set of documents. Their runs are run kit runs (./kind.ts) whose task (./task.ts)
 * runs the block alone through functions/workflows/blocks.ts.
 *
 * Routes under /v1/workflows/evals and /v1/workflows/experiments: literal segments win over
 * parameters (API Gateway, and the local server alike), so none is taken by /v1/workflows/{workflow_id}.
 */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { evalRunKind, experimentRunKind } from './kind.ts';
import { evalOperations as e, experimentOperations as x } from './operations.ts';

export const evalsFeature: Feature = {
  name: 'evals',
  routes: routesOf('evals', [
    { method: 'GET', path: '/v1/workflows/evals', handler: 'listWorkflowEvals', size: 'small', op: e.list },
    { method: 'POST', path: '/v1/workflows/evals', handler: 'createWorkflowEval', size: 'small', op: e.create },
    { method: 'GET', path: '/v1/workflows/evals/runs', handler: 'listWorkflowEvalRuns', size: 'small', op: e.listRuns },
    { method: 'POST', path: '/v1/workflows/evals/runs', handler: 'createWorkflowEvalRun', size: 'small', op: e.createRun },
    { method: 'GET', path: '/v1/workflows/evals/runs/{run_id}', handler: 'getWorkflowEvalRun', size: 'small', op: e.getRun },
    { method: 'POST', path: '/v1/workflows/evals/runs/{run_id}/cancel', handler: 'cancelWorkflowEvalRun', size: 'small', op: e.cancelRun },
    { method: 'GET', path: '/v1/workflows/evals/results', handler: 'listWorkflowEvalResults', size: 'small', op: e.listResults },
    { method: 'GET', path: '/v1/workflows/evals/results/{result_id}', handler: 'getWorkflowEvalResult', size: 'small', op: e.getResult },
    { method: 'GET', path: '/v1/workflows/evals/{eval_id}', handler: 'getWorkflowEval', size: 'small', op: e.get },
    { method: 'PATCH', path: '/v1/workflows/evals/{eval_id}', handler: 'updateWorkflowEval', size: 'small', op: e.update },
    { method: 'DELETE', path: '/v1/workflows/evals/{eval_id}', handler: 'deleteWorkflowEval', size: 'small', op: e.delete },
    { method: 'GET', path: '/v1/workflows/experiments', handler: 'listWorkflowExperiments', size: 'small', op: x.list },
    { method: 'POST', path: '/v1/workflows/experiments', handler: 'createWorkflowExperiment', size: 'small', op: x.create },
    { method: 'GET', path: '/v1/workflows/experiments/runs', handler: 'listWorkflowExperimentRuns', size: 'small', op: x.listRuns },
    { method: 'POST', path: '/v1/workflows/experiments/runs', handler: 'createWorkflowExperimentRun', size: 'small', op: x.createRun },
    { method: 'GET', path: '/v1/workflows/experiments/runs/{run_id}', handler: 'getWorkflowExperimentRun', size: 'small', op: x.getRun },
    { method: 'POST', path: '/v1/workflows/experiments/runs/{run_id}/cancel', handler: 'cancelWorkflowExperimentRun', size: 'small', op: x.cancelRun },
    { method: 'GET', path: '/v1/workflows/experiments/results', handler: 'listWorkflowExperimentResults', size: 'small', op: x.listResults },
    { method: 'GET', path: '/v1/workflows/experiments/results/{result_id}', handler: 'getWorkflowExperimentResult', size: 'small', op: x.getResult },
    { method: 'GET', path: '/v1/workflows/experiments/metrics', handler: 'getWorkflowExperimentMetrics', size: 'small', op: x.metrics },
    { method: 'GET', path: '/v1/workflows/experiments/{experiment_id}', handler: 'getWorkflowExperiment', size: 'small', op: x.get },
    { method: 'PATCH', path: '/v1/workflows/experiments/{experiment_id}', handler: 'updateWorkflowExperiment', size: 'small', op: x.update },
    { method: 'DELETE', path: '/v1/workflows/experiments/{experiment_id}', handler: 'deleteWorkflowExperiment', size: 'small', op: x.delete },
  ]),
  runs: [
    { kind: evalRunKind, path: '/v1/workflows/evals/runs', task: async () => (await import('./task.ts')).evalRunTask },
    { kind: experimentRunKind, path: '/v1/workflows/experiments/runs', task: async () => (await import('./task.ts')).experimentRunTask },
  ],
};
