import { api, RawResponse } from '../platform/http.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import { graphOperations as g, workflowOperations as ops } from './operations.ts';
import * as blockExecutions from './block-executions.ts';
import * as editing from './editing.ts';
import * as reviews from './reviews.ts';
import * as spec from './spec.ts';
import * as steps from './steps.ts';
import * as versions from './versions.ts';
import { exportRuns } from './export.ts';
import { promote } from './promotions.ts';
import { missingSecrets } from './secrets.ts';
import * as workflows from './service.ts';
import { cancelWorkflowRun, createWorkflowRun, deleteWorkflowRun, getWorkflowRun, listWorkflowRuns } from './runs.ts';

export const createWorkflow = api(ops.create, ({ platform, caller, body }) => workflows.createWorkflow(platform, caller, body));

export const listWorkflows = api(ops.list, async ({ platform, caller, query }) => {
  workflows.requireCapability(caller, 'workflow:view');
  const page = await platform.store.listRecords<workflows.WorkflowData>(caller, workflows.WORKFLOW_TYPE, toListQuery(query, { project_id: query.project_id }));
  return listEnvelopeOf(page, (data) => workflows.toWire(caller, data));
});

export const getWorkflow = api(ops.get, ({ platform, caller, params }) => workflows.getWorkflow(platform, caller, params.workflow_id));

export const patchWorkflow = api(ops.patch, ({ platform, caller, params, body }) => workflows.patchWorkflow(platform, caller, params.workflow_id, body));

export const deleteWorkflow = api(ops.delete, async ({ platform, caller, params }) => {
  await workflows.deleteWorkflow(platform, caller, params.workflow_id);
  return undefined;
});

export const getDraft = api(ops.getDraft, ({ platform, caller, params }) => workflows.getDraft(platform, caller, params.workflow_id));

export const putDraft = api(ops.putDraft, ({ platform, caller, params, body }) => workflows.putDraft(platform, caller, params.workflow_id, body));

export const publishWorkflow = api(ops.publish, ({ platform, caller, params, body }) => workflows.publishWorkflow(platform, caller, params.workflow_id, body.description, missingSecrets));

export const listVersions = api(ops.versions, async ({ platform, caller, params, query }) => {
  await workflows.readWorkflow(platform, caller, params.workflow_id);
  workflows.requireCapability(caller, 'workflow:view');
  const page = await platform.store.listRecords<workflows.VersionData>(caller, workflows.VERSION_TYPE, {
    limit: query.limit,
    order: query.order,
    after: query.after,
    before: query.before,
    attrs: { workflow_id: params.workflow_id, published: 'true' },
  });
  return listEnvelopeOf(page, workflows.versionToWire);
});

export const exportWorkflow = api(ops.export, ({ platform, caller, params, query }) => workflows.exportWorkflow(platform, caller, params.workflow_id, query.version));

export const promoteWorkflow = api(ops.promote, async ({ platform, caller, body }) => {
  const { created, promotion } = await promote(platform, caller, body, missingSecrets);
  // A repeated idempotency_key answers the first result with 200.
  return created ? promotion : new RawResponse(JSON.stringify(promotion), 'application/json', 200);
});

export const createRun = api(ops.createRun, ({ platform, caller, body }) => createWorkflowRun(platform, caller, body));

export const listRuns = api(ops.listRuns, ({ platform, caller, query }) => listWorkflowRuns(platform, caller, query));

export const getRun = api(ops.getRun, ({ platform, caller, params }) => getWorkflowRun(platform, caller, params.run_id));

export const cancelRun = api(ops.cancelRun, ({ platform, caller, params }) => cancelWorkflowRun(platform, caller, params.run_id));

export const deleteRun = api(g.deleteRun, async ({ platform, caller, params }) => {
  await deleteWorkflowRun(platform, caller, params.run_id);
  return undefined;
});
export const exportRunsCsv = api(g.exportRuns, ({ platform, caller, body }) => exportRuns(platform, caller, body));

// ── The graph (blocks, edges), its versions and the draft ───────────────────────────────────────

export const listBlocks = api(g.listBlocks, ({ platform, caller, query }) => editing.listBlocks(platform, caller, query));
export const createBlock = api(g.createBlock, ({ platform, caller, body }) => editing.createBlock(platform, caller, body));
export const getBlock = api(g.getBlock, ({ platform, caller, params, query }) => editing.getBlock(platform, caller, params.block_id!, query.workflow_id));
export const updateBlock = api(g.updateBlock, ({ platform, caller, params, query, body }) => editing.updateBlock(platform, caller, params.block_id!, query.workflow_id, body));
export const deleteBlock = api(g.deleteBlock, async ({ platform, caller, params, query }) => {
  await editing.deleteBlock(platform, caller, params.block_id!, query.workflow_id);
  return undefined;
});
export const validateBlockConfig = api(g.validateBlockConfig, ({ platform, caller, params, query, body }) => editing.validateBlockConfig(platform, caller, params.block_id!, query.workflow_id, body));
export const listBlockVersions = api(g.listBlockVersions, ({ platform, caller, query }) => versions.listBlockVersions(platform, caller, query));
export const diffBlockVersions = api(g.diffBlockVersions, ({ platform, caller, query }) => versions.diffBlockVersions(platform, caller, query));
export const getBlockVersion = api(g.getBlockVersion, ({ platform, caller, params }) => versions.getBlockVersion(platform, caller, params.block_version_id!));
export const restoreBlockVersion = api(g.restoreBlockVersion, ({ platform, caller, params }) => versions.restoreBlockVersion(platform, caller, params.block_version_id!));

export const listEdges = api(g.listEdges, ({ platform, caller, query }) => editing.listEdges(platform, caller, query));
export const createEdge = api(g.createEdge, ({ platform, caller, body }) => editing.createEdge(platform, caller, body));
export const getEdge = api(g.getEdge, ({ platform, caller, params, query }) => editing.getEdge(platform, caller, params.edge_id!, query.workflow_id));
export const deleteEdge = api(g.deleteEdge, async ({ platform, caller, params }) => {
  await editing.deleteEdge(platform, caller, params.edge_id!);
  return undefined;
});
export const listEdgeVersions = api(g.listEdgeVersions, ({ platform, caller, query }) => versions.listEdgeVersions(platform, caller, query));
export const diffEdgeVersions = api(g.diffEdgeVersions, ({ platform, caller, query }) => versions.diffEdgeVersions(platform, caller, query));
export const getEdgeVersion = api(g.getEdgeVersion, ({ platform, caller, params }) => versions.getEdgeVersion(platform, caller, params.edge_version_id!));
export const restoreEdgeVersion = api(g.restoreEdgeVersion, ({ platform, caller, params }) => versions.restoreEdgeVersion(platform, caller, params.edge_version_id!));

export const listGraphVersions = api(g.listGraphVersions, ({ platform, caller, query }) => versions.listGraphVersions(platform, caller, query));
export const diffGraphVersions = api(g.diffGraphVersions, ({ platform, caller, query }) => versions.diffGraphVersions(platform, caller, query));
export const getGraphVersion = api(g.getGraphVersion, ({ platform, caller, params, query }) => versions.getGraphVersion(platform, caller, params.workflow_version_id!, query.workflow_id));
export const restoreGraphVersion = api(g.restoreGraphVersion, ({ platform, caller, params, query }) => versions.restoreGraphVersion(platform, caller, params.workflow_version_id!, query.workflow_id));
export const discardDraft = api(g.discardDraft, ({ platform, caller, params }) => workflows.discardDraft(platform, caller, params.workflow_id));

// ── The YAML spec ───────────────────────────────────────────────────────────────────────────────

export const exportSpec = api(g.exportSpec, ({ platform, caller, params }) => spec.exportSpec(platform, caller, params.workflow_id));
export const validateSpec = api(g.validateSpec, ({ platform, caller, body }) => spec.validateSpec(platform, caller, body));
export const planSpec = api(g.planSpec, ({ platform, caller, body }) => spec.planSpec(platform, caller, body));
export const planSpecOf = api(g.planSpecOf, ({ platform, caller, params, body }) => spec.planSpec(platform, caller, body, params.workflow_id));
export const applySpec = api(g.applySpec, ({ platform, caller, body }) => spec.applySpec(platform, caller, body));
export const applySpecOf = api(g.applySpecOf, ({ platform, caller, params, body }) => spec.applySpec(platform, caller, body, params.workflow_id));

// ── Steps, artifacts, reviews ───────────────────────────────────────────────────────────────────

export const listSteps = api(g.listSteps, ({ platform, caller, query }) => steps.listSteps(platform, caller, query));
export const getStep = api(g.getStep, ({ platform, caller, params, query }) => steps.getStep(platform, caller, params.step_id!, query.run_id));
export const listArtifacts = api(g.listArtifacts, ({ platform, caller, query }) => steps.listArtifacts(platform, caller, query));
export const getArtifact = api(g.getArtifact, ({ platform, caller, params }) => steps.getArtifact(platform, caller, params.artifact_id!));
export const listBlockExecutions = api(g.listBlockExecutions, ({ platform, caller, query }) => blockExecutions.listBlockExecutions(platform, caller, query));
export const createBlockExecution = api(g.createBlockExecution, ({ platform, caller, body }) => blockExecutions.createBlockExecution(platform, caller, body));
export const listReviews = api(g.listReviews, ({ platform, caller, query }) => reviews.listReviews(platform, caller, query));
export const getReview = api(g.getReview, ({ platform, caller, params }) => reviews.getReview(platform, caller, params.review_id!));
export const approveReview = api(g.approveReview, ({ platform, caller, params, body }) => reviews.decideReview(platform, caller, params.review_id!, { verdict: 'approved', version_id: body.version_id }));
export const rejectReview = api(g.rejectReview, ({ platform, caller, params, body }) => reviews.decideReview(platform, caller, params.review_id!, { verdict: 'rejected', version_id: body.version_id, reason: body.reason }));
export const listReviewVersions = api(g.listReviewVersions, ({ platform, caller, query }) => reviews.listReviewVersions(platform, caller, query));
export const createReviewVersion = api(g.createReviewVersion, ({ platform, caller, body }) => reviews.createReviewVersion(platform, caller, body));
export const getReviewVersion = api(g.getReviewVersion, ({ platform, caller, params }) => reviews.getReviewVersion(platform, caller, params.version_id!));

