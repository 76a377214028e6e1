/** Workflows: named, versioned graphs of blocks, their drafts, publishing, promotion and runs. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { graphOperations as g, workflowOperations as ops } from './operations.ts';
import { blockExecutionKind } from './kind.ts';
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
    { method: 'DELETE', path: '/v1/workflows/runs/{run_id}', handler: 'deleteRun', size: 'small', op: g.deleteRun },
    { method: 'POST', path: '/v1/workflows/runs/export', handler: 'exportRunsCsv', size: 'small', op: g.exportRuns },
    // The graph: blocks, edges, their versions and the workflow's graph versions (the Retab SDK's routes).
    { method: 'GET', path: '/v1/workflows/blocks', handler: 'listBlocks', size: 'small', op: g.listBlocks },
    { method: 'POST', path: '/v1/workflows/blocks', handler: 'createBlock', size: 'small', op: g.createBlock },
    { method: 'GET', path: '/v1/workflows/blocks/executions', handler: 'listBlockExecutions', size: 'small', op: g.listBlockExecutions },
    { method: 'POST', path: '/v1/workflows/blocks/executions', handler: 'createBlockExecution', size: 'small', op: g.createBlockExecution },
    { method: 'GET', path: '/v1/workflows/blocks/versions', handler: 'listBlockVersions', size: 'small', op: g.listBlockVersions },
    { method: 'GET', path: '/v1/workflows/blocks/versions/diff', handler: 'diffBlockVersions', size: 'small', op: g.diffBlockVersions },
    { method: 'GET', path: '/v1/workflows/blocks/versions/{block_version_id}', handler: 'getBlockVersion', size: 'small', op: g.getBlockVersion },
    { method: 'POST', path: '/v1/workflows/blocks/versions/{block_version_id}/restore', handler: 'restoreBlockVersion', size: 'small', op: g.restoreBlockVersion },
    { method: 'GET', path: '/v1/workflows/blocks/{block_id}', handler: 'getBlock', size: 'small', op: g.getBlock },
    { method: 'PATCH', path: '/v1/workflows/blocks/{block_id}', handler: 'updateBlock', size: 'small', op: g.updateBlock },
    { method: 'DELETE', path: '/v1/workflows/blocks/{block_id}', handler: 'deleteBlock', size: 'small', op: g.deleteBlock },
    { method: 'POST', path: '/v1/workflows/blocks/{block_id}/validate-config', handler: 'validateBlockConfig', size: 'small', op: g.validateBlockConfig },
    { method: 'GET', path: '/v1/workflows/edges', handler: 'listEdges', size: 'small', op: g.listEdges },
    { method: 'POST', path: '/v1/workflows/edges', handler: 'createEdge', size: 'small', op: g.createEdge },
    { method: 'GET', path: '/v1/workflows/edges/versions', handler: 'listEdgeVersions', size: 'small', op: g.listEdgeVersions },
    { method: 'GET', path: '/v1/workflows/edges/versions/diff', handler: 'diffEdgeVersions', size: 'small', op: g.diffEdgeVersions },
    { method: 'GET', path: '/v1/workflows/edges/versions/{edge_version_id}', handler: 'getEdgeVersion', size: 'small', op: g.getEdgeVersion },
    { method: 'POST', path: '/v1/workflows/edges/versions/{edge_version_id}/restore', handler: 'restoreEdgeVersion', size: 'small', op: g.restoreEdgeVersion },
    { method: 'GET', path: '/v1/workflows/edges/{edge_id}', handler: 'getEdge', size: 'small', op: g.getEdge },
    { method: 'DELETE', path: '/v1/workflows/edges/{edge_id}', handler: 'deleteEdge', size: 'small', op: g.deleteEdge },
    { method: 'GET', path: '/v1/workflows/versions', handler: 'listGraphVersions', size: 'small', op: g.listGraphVersions },
    { method: 'GET', path: '/v1/workflows/versions/diff', handler: 'diffGraphVersions', size: 'small', op: g.diffGraphVersions },
    { method: 'GET', path: '/v1/workflows/versions/{workflow_version_id}', handler: 'getGraphVersion', size: 'small', op: g.getGraphVersion },
    { method: 'POST', path: '/v1/workflows/versions/{workflow_version_id}/restore', handler: 'restoreGraphVersion', size: 'small', op: g.restoreGraphVersion },
    { method: 'POST', path: '/v1/workflows/{workflow_id}/discard-draft', handler: 'discardDraft', size: 'small', op: g.discardDraft },
    // The YAML spec.
    { method: 'GET', path: '/v1/workflows/{workflow_id}/spec', handler: 'exportSpec', size: 'small', op: g.exportSpec },
    { method: 'POST', path: '/v1/workflows/spec/validate', handler: 'validateSpec', size: 'small', op: g.validateSpec },
    { method: 'POST', path: '/v1/workflows/spec/plan', handler: 'planSpec', size: 'small', op: g.planSpec },
    { method: 'POST', path: '/v1/workflows/{workflow_id}/spec/plan', handler: 'planSpecOf', size: 'small', op: g.planSpecOf },
    { method: 'POST', path: '/v1/workflows/spec/apply', handler: 'applySpec', size: 'small', op: g.applySpec },
    { method: 'POST', path: '/v1/workflows/{workflow_id}/spec/apply', handler: 'applySpecOf', size: 'small', op: g.applySpecOf },
    // What runs did: steps, artifacts; and human review.
    { method: 'GET', path: '/v1/workflows/steps', handler: 'listSteps', size: 'small', op: g.listSteps },
    { method: 'GET', path: '/v1/workflows/steps/{step_id}', handler: 'getStep', size: 'small', op: g.getStep },
    { method: 'GET', path: '/v1/workflows/artifacts', handler: 'listArtifacts', size: 'small', op: g.listArtifacts },
    { method: 'GET', path: '/v1/workflows/artifacts/{artifact_id}', handler: 'getArtifact', size: 'small', op: g.getArtifact },
    { method: 'GET', path: '/v1/workflows/reviews', handler: 'listReviews', size: 'small', op: g.listReviews },
    { method: 'GET', path: '/v1/workflows/reviews/versions', handler: 'listReviewVersions', size: 'small', op: g.listReviewVersions },
    { method: 'POST', path: '/v1/workflows/reviews/versions', handler: 'createReviewVersion', size: 'small', op: g.createReviewVersion },
    { method: 'GET', path: '/v1/workflows/reviews/versions/{version_id}', handler: 'getReviewVersion', size: 'small', op: g.getReviewVersion },
    { method: 'GET', path: '/v1/workflows/reviews/{review_id}', handler: 'getReview', size: 'small', op: g.getReview },
    { method: 'POST', path: '/v1/workflows/reviews/{review_id}/approve', handler: 'approveReview', size: 'small', op: g.approveReview },
    { method: 'POST', path: '/v1/workflows/reviews/{review_id}/reject', handler: 'rejectReview', size: 'small', op: g.rejectReview },
  ]),
  // Block executions (one block of a run run again) are runs of the run machinery, read through their list.
  runs: [{ kind: blockExecutionKind, task: async () => (await import('./task.ts')).blockExecutionTask }],
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
