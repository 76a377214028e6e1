/** Workflows: named, versioned graphs of blocks, their drafts, publishing, promotion and runs. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { workflowOperations as ops } from './operations.ts';
import { ACTIVE, WORKFLOW_RUN_TYPE } from './schema.ts';

export const workflowsFeature: Feature = {
  name: 'workflows',
  routes: routesOf('workflows', [
    { method: 'POST', path: '/v1/workflows', handler: 'createWorkflow', size: 'small', op: ops.create },
    { method: 'GET', path: '/v1/workflows', handler: 'listWorkflows', size: 'small', op: ops.list },
    { method: 'POST', path: '/v1/workflows/promotions', handler: 'promoteWorkflow', size: 'small', op: ops.promote },
    { method: 'POST', path: '/v1/workflows/runs', handler: 'createRun', size: 'document', op: ops.createRun },
    { method: 'GET', path: '/v1/workflows/runs', handler: 'listRuns', size: 'small', op: ops.listRuns },
    { method: 'GET', path: '/v1/workflows/runs/{run_id}', handler: 'getRun', size: 'small', op: ops.getRun },
    { method: 'POST', path: '/v1/workflows/runs/{run_id}/cancel', handler: 'cancelRun', size: 'small', op: ops.cancelRun },
    { method: 'GET', path: '/v1/workflows/{workflow_id}', handler: 'getWorkflow', size: 'small', op: ops.get },
    { method: 'PATCH', path: '/v1/workflows/{workflow_id}', handler: 'patchWorkflow', size: 'small', op: ops.patch },
    { method: 'DELETE', path: '/v1/workflows/{workflow_id}', handler: 'deleteWorkflow', size: 'small', op: ops.delete },
    { method: 'GET', path: '/v1/workflows/{workflow_id}/draft', handler: 'getDraft', size: 'small', op: ops.getDraft },
    { method: 'PUT', path: '/v1/workflows/{workflow_id}/draft', handler: 'putDraft', size: 'small', op: ops.putDraft },
    { method: 'POST', path: '/v1/workflows/{workflow_id}/publish', handler: 'publishWorkflow', size: 'small', op: ops.publish },
    { method: 'GET', path: '/v1/workflows/{workflow_id}/versions', handler: 'listVersions', size: 'small', op: ops.versions },
    { method: 'GET', path: '/v1/workflows/{workflow_id}/export', handler: 'exportWorkflow', size: 'small', op: ops.export },
  ]),
  machines: {
    workflowRun: {
      definition: 'statemachines/workflow-run.asl.json',
      tasks: { WorkflowTaskFunctionArn: { module: 'workflows/run-task.ts', handler: 'handler', memoryMb: 3008, timeoutSeconds: 900 } },
    },
  },
  swept: [
    {
      type: WORKFLOW_RUN_TYPE,
      machine: 'workflowRun',
      active: ACTIVE,
      end: async (p, ref, execution) => (await import('./runs.ts')).endLostWorkflowRun(p, ref.scope, ref.id, execution),
    },
  ],
};
