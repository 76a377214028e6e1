import { operation } from '../platform/operation.ts';
import { listEnvelope } from '../platform/schemas.ts';
import {
  CancelExperimentRunResponse,
  CreateEvalBody,
  CreateEvalRunBody,
  CreateExperimentBody,
  CreateExperimentRunBody,
  EvalIdParams,
  ExperimentIdParams,
  ExperimentMetrics,
  ExperimentResult,
  ExperimentRun,
  ListEvalRunsQuery,
  ListEvalsQuery,
  ListExperimentRunsQuery,
  ListExperimentsQuery,
  ListResultsQuery,
  MetricsQuery,
  ResultIdParams,
  RunIdParams,
  UpdateEvalBody,
  UpdateExperimentBody,
  WorkflowEval,
  WorkflowEvalResult,
  WorkflowEvalRun,
  WorkflowExperiment,
} from './schema.ts';

const tags = ['workflows'];

export const evalOperations = {
  list: operation({ summary: "List a workflow's evals", auth: 'api_key', query: ListEvalsQuery, status: 200, response: listEnvelope(WorkflowEval), tags }),
  create: operation({ summary: 'Create an eval: a target block, its inputs and an assertion on its output', auth: 'api_key', body: CreateEvalBody, keepNulls: true, status: 201, response: WorkflowEval, tags }),
  get: operation({ summary: 'Get an eval (its freshness and drift against the current draft)', auth: 'api_key', params: EvalIdParams, status: 200, response: WorkflowEval, tags }),
  update: operation({ summary: "Change an eval's name, assertion or source", auth: 'api_key', params: EvalIdParams, body: UpdateEvalBody, keepNulls: true, status: 200, response: WorkflowEval, tags }),
  delete: operation({ summary: 'Delete an eval (its past results stay with their runs)', auth: 'api_key', params: EvalIdParams, status: 204, tags }),
  listRuns: operation({ summary: 'List eval runs', auth: 'api_key', query: ListEvalRunsQuery, status: 200, response: listEnvelope(WorkflowEvalRun), tags }),
  createRun: operation({ summary: "Run a workflow's evals (all, one block's, or one) in the background", auth: 'api_key', body: CreateEvalRunBody, status: 201, response: WorkflowEvalRun, tags }),
  getRun: operation({ summary: 'Get an eval run (its progress: counts)', auth: 'api_key', params: RunIdParams, status: 200, response: WorkflowEvalRun, tags }),
  cancelRun: operation({ summary: 'Cancel an eval run (idempotent)', auth: 'api_key', params: RunIdParams, status: 200, response: WorkflowEvalRun, tags }),
  listResults: operation({ summary: "List an eval run's results", auth: 'api_key', query: ListResultsQuery, status: 200, response: listEnvelope(WorkflowEvalResult), tags }),
  getResult: operation({ summary: 'Get an eval result', auth: 'api_key', params: ResultIdParams, status: 200, response: WorkflowEvalResult, tags }),
};

export const experimentOperations = {
  list: operation({ summary: "List a workflow's experiments", auth: 'api_key', query: ListExperimentsQuery, status: 200, response: listEnvelope(WorkflowExperiment), tags }),
  create: operation({ summary: 'Create an experiment: a block, documents and a number of votes', auth: 'api_key', body: CreateExperimentBody, keepNulls: true, status: 201, response: WorkflowExperiment, tags }),
  get: operation({ summary: 'Get an experiment', auth: 'api_key', params: ExperimentIdParams, status: 200, response: WorkflowExperiment, tags }),
  update: operation({ summary: "Change an experiment's documents, votes or name", auth: 'api_key', params: ExperimentIdParams, body: UpdateExperimentBody, keepNulls: true, status: 200, response: WorkflowExperiment, tags }),
  delete: operation({ summary: 'Delete an experiment with its runs', auth: 'api_key', params: ExperimentIdParams, status: 204, tags }),
  listRuns: operation({ summary: 'List experiment runs', auth: 'api_key', query: ListExperimentRunsQuery, status: 200, response: listEnvelope(ExperimentRun), tags }),
  createRun: operation({ summary: 'Run an experiment in the background', auth: 'api_key', body: CreateExperimentRunBody, status: 201, response: ExperimentRun, tags }),
  getRun: operation({ summary: 'Get an experiment run (its progress)', auth: 'api_key', params: RunIdParams, status: 200, response: ExperimentRun, tags }),
  cancelRun: operation({ summary: 'Cancel an experiment run (idempotent)', auth: 'api_key', params: RunIdParams, status: 200, response: CancelExperimentRunResponse, tags }),
  listResults: operation({ summary: "List an experiment run's results, one per document", auth: 'api_key', query: ListResultsQuery, status: 200, response: listEnvelope(ExperimentResult), tags }),
  getResult: operation({ summary: 'Get an experiment result', auth: 'api_key', params: ResultIdParams, status: 200, response: ExperimentResult, tags }),
  metrics: operation({ summary: "An experiment run's metrics: summary, by_document, by_target or votes", auth: 'api_key', query: MetricsQuery, status: 200, response: ExperimentMetrics, tags }),
};
