/**
 * The built-in run tasks, each loaded lazily so the task Lambda loads only the kind it runs. Apart
 * from ./kinds.ts (pure data) because following these imports pulls in every document engine: only
 * the task Lambdas (./task.ts, workflow blocks) import this module.
 */
import { registeredRunTask, type RunTask } from './kinds.ts';

/** Later issues add theirs. */
const builtIn: Record<string, () => Promise<RunTask>> = {
  parse: async () => (await import('../parses/task.ts')).parseTask,
  classification: async () => (await import('../classifications/task.ts')).classificationTask,
  split: async () => (await import('../splits/task.ts')).splitTask,
  partition: async () => (await import('../partitions/task.ts')).partitionTask,
  extraction: async () => (await import('../extractions/task.ts')).extractionTask,
  schema_generation: async () => (await import('../schemas/task.ts')).schemaGenerationTask,
  edit: async () => (await import('../edits/task.ts')).editTask,
  edit_field_detection: async () => (await import('../edits/task.ts')).fieldDetectionTask,
  table_summary: async () => (await import('../tables/task.ts')).tableSummaryTask,
};

/** The names of the built-in kinds (each is also its record type). */
export const BUILT_IN_KIND_NAMES: readonly string[] = Object.keys(builtIn);

export async function loadRunTask(name: string): Promise<RunTask> {
  const task = registeredRunTask(name) ?? (await builtIn[name]?.());
  if (!task) throw new Error(`Unknown run kind ${name}`);
  return task;
}
