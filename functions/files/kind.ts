import type { RunKind } from '../runs/kinds.ts';

/** An end time of the run as it answers: never before its own creation. */
function notBefore(createdAt: unknown, time: unknown): string | null {
  if (typeof time !== 'string') return null;
  // A run answered from the result cache carries the times of the run that did the work.
  return typeof createdAt === 'string' && time < createdAt ? createdAt : time;
}

/**
 * A file blueprint: a run that reads an uploaded file and says what it is and what to do with it
 * (./task.ts). Its wire form is the Retab SDK's FileBlueprint: `object: "file.blueprint"`, and when
 * it started and ended its work (set when it completes; null before and for a failed run).
 */
export const fileBlueprintKind: RunKind = {
  name: 'file_blueprint',
  type: 'file_blueprint',
  idPrefix: 'fbp',
  resource: 'File blueprint',
  emptyOutput: {},
  present: (wire) => ({ object: 'file.blueprint', ...wire, started_at: notBefore(wire.created_at, wire.started_at), completed_at: notBefore(wire.created_at, wire.completed_at) }),
};
