import type { RunKind } from '../runs/kinds.ts';

/**
 * A block execution (POST /v1/workflows/blocks/executions): one block of a workflow run run again on
 * the inputs its step received in that run, as a run of its own on the run machinery (queued →
 * in_progress → completed | failed | cancelled; the sweeper ends a lost one). Its output holds the
 * block's handle outputs; the run's own steps are never touched. Read through the block executions
 * list only, so it has no collection route of its own.
 */
export const blockExecutionKind: RunKind = {
  name: 'workflow_block_execution',
  type: 'workflow_block_execution',
  idPrefix: 'bexe',
  resource: 'Block execution',
  emptyOutput: { handle_outputs: null },
};
