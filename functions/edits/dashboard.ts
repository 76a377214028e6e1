/** An edit on the dashboard: its run page draws every filled form field where it sits. */
import type { RunPages, SourcedValue } from '../dashboard/run-pages.ts';

/** An edit's form fields, each boxed where it sits on its page (API §8: `bbox` in fractions of the page). */
export function editFields(output: unknown): SourcedValue[] {
  const fields = ((output as { form_data?: unknown[] } | null)?.form_data ?? []) as Array<{ key: string; value: string | null; bbox?: SourcedValue['box'] }>;
  return fields.map((field) => ({ path: field.key, value: field.value, box: field.bbox ?? null, where: null }));
}

export const editPages: RunPages = {
  drawn: async (_p, _scope, run) => ({ values: editFields(run.output) }),
};
