import { api, RawResponse } from '../platform/http.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import { workflowOperations as ops } from './operations.ts';
import { promote } from './promotions.ts';
import { missingSecrets } from './secrets.ts';
import * as workflows from './service.ts';
import { cancelWorkflowRun, createWorkflowRun, getWorkflowRun, toWireRun, type WorkflowRunData } from './runs.ts';
import { WORKFLOW_RUN_TYPE } from './schema.ts';

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

export const listRuns = api(ops.listRuns, async ({ platform, caller, query }) => {
  workflows.requireCapability(caller, 'workflow:view');
  const page = await platform.store.listRecords<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, { ...toListQuery(query, { workflow_id: query.workflow_id }), status: query.status });
  // List items carry no outputs (they live in storage): GET one run for them.
  return { data: await Promise.all(page.items.map((r) => toWireRun(platform, r.data, false))), list_metadata: { before: page.before, after: page.after } };
});

export const getRun = api(ops.getRun, ({ platform, caller, params }) => getWorkflowRun(platform, caller, params.run_id));

export const cancelRun = api(ops.cancelRun, ({ platform, caller, params }) => cancelWorkflowRun(platform, caller, params.run_id));
