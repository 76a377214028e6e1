import { api } from '../platform/http.ts';
import { cancelEvalRun, createEvalRun, getEvalResult, getEvalRun, listEvalResults, listEvalRuns } from './eval-runs.ts';
import { createEval, deleteEval, getEval, listEvals, updateEval } from './evals.ts';
import { cancelExperimentRun, createExperimentRun, deleteExperimentRun, getExperimentResult, getExperimentRun, listExperimentResults, listExperimentRuns } from './experiment-runs.ts';
import { createExperiment, deleteExperiment, getExperiment, listExperiments, updateExperiment } from './experiments.ts';
import { experimentMetrics } from './metrics.ts';
import { evalOperations as e, experimentOperations as x } from './operations.ts';

export const listWorkflowEvals = api(e.list, ({ platform, caller, query }) => listEvals(platform, caller, query));
export const createWorkflowEval = api(e.create, ({ platform, caller, body }) => createEval(platform, caller, body));
export const getWorkflowEval = api(e.get, ({ platform, caller, params }) => getEval(platform, caller, params.eval_id));
export const updateWorkflowEval = api(e.update, ({ platform, caller, params, body }) => updateEval(platform, caller, params.eval_id, body));
export const deleteWorkflowEval = api(e.delete, async ({ platform, caller, params }) => {
  await deleteEval(platform, caller, params.eval_id);
  return undefined;
});
export const listWorkflowEvalRuns = api(e.listRuns, ({ platform, caller, query }) => listEvalRuns(platform, caller, query));
export const createWorkflowEvalRun = api(e.createRun, ({ platform, caller, body }) => createEvalRun(platform, caller, body));
export const getWorkflowEvalRun = api(e.getRun, ({ platform, caller, params }) => getEvalRun(platform, caller, params.run_id));
export const cancelWorkflowEvalRun = api(e.cancelRun, ({ platform, caller, params }) => cancelEvalRun(platform, caller, params.run_id));
export const listWorkflowEvalResults = api(e.listResults, ({ platform, caller, query }) => listEvalResults(platform, caller, query));
export const getWorkflowEvalResult = api(e.getResult, ({ platform, caller, params }) => getEvalResult(platform, caller, params.result_id));

export const listWorkflowExperiments = api(x.list, ({ platform, caller, query }) => listExperiments(platform, caller, query));
export const createWorkflowExperiment = api(x.create, ({ platform, caller, body }) => createExperiment(platform, caller, body));
export const getWorkflowExperiment = api(x.get, ({ platform, caller, params }) => getExperiment(platform, caller, params.experiment_id));
export const updateWorkflowExperiment = api(x.update, ({ platform, caller, params, body }) => updateExperiment(platform, caller, params.experiment_id, body));
export const deleteWorkflowExperiment = api(x.delete, async ({ platform, caller, params }) => {
  await deleteExperiment(platform, caller, params.experiment_id, (run) => deleteExperimentRun(platform, caller, run));
  return undefined;
});
export const listWorkflowExperimentRuns = api(x.listRuns, ({ platform, caller, query }) => listExperimentRuns(platform, caller, query));
export const createWorkflowExperimentRun = api(x.createRun, ({ platform, caller, body }) => createExperimentRun(platform, caller, body));
export const getWorkflowExperimentRun = api(x.getRun, ({ platform, caller, params }) => getExperimentRun(platform, caller, params.run_id));
export const cancelWorkflowExperimentRun = api(x.cancelRun, ({ platform, caller, params }) => cancelExperimentRun(platform, caller, params.run_id));
export const listWorkflowExperimentResults = api(x.listResults, ({ platform, caller, query }) => listExperimentResults(platform, caller, query));
export const getWorkflowExperimentResult = api(x.getResult, ({ platform, caller, params }) => getExperimentResult(platform, caller, params.result_id));
export const getWorkflowExperimentMetrics = api(x.metrics, ({ platform, caller, query }) => experimentMetrics(platform, caller, query));
