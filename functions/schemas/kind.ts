import type { RunKind } from '../runs/kinds.ts';

/**
 * API §7 answers with the generated schema's keys at the top level, next to the run's keys, plus
 * `json_schema` (the schema alone) and `strict: true`; until completed only `json_schema: {}`.
 */
export const schemaGenerationKind: RunKind = {
  name: 'schema_generation',
  type: 'schema_generation',
  idPrefix: 'sch',
  resource: 'Schema generation',
  emptyOutput: {},
  present(wire) {
    const { output, ...run } = wire;
    const schema = (output ?? {}) as Record<string, unknown>;
    return { object: 'schema', ...run, ...schema, json_schema: schema, strict: true };
  },
};
