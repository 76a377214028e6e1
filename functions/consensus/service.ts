/**
 * Consensus (POST /v1/consensus): several JSON answers to one question reconciled into one, by the
 * code the engines' n_consensus uses (models/shared/consensus.ts `reconcile`). Pure computation: no
 * storage, no run, no credits.
 */
import { reconcile } from '../models/shared/consensus.ts';
import { Invalid } from '../platform/errors.ts';
import type { CreateConsensusBody, ReconciliationResult } from './schema.ts';

export function createConsensus(body: CreateConsensusBody): ReconciliationResult {
  const schema = body.json_schema ?? undefined;
  if (schema !== undefined) checkObjectSchema(schema);
  const includeAlignment = body.include_alignment === true;
  const result = reconcile(body.inputs, { schema, alignment: includeAlignment });
  const consensus = result.value !== null && typeof result.value === 'object' && !Array.isArray(result.value) ? (result.value as Record<string, unknown>) : {};
  return {
    consensus,
    likelihoods: Object.fromEntries(result.fields.map((f) => [f.path, f.likelihood])),
    fields: result.fields.map((f) => ({ path: f.path, value: f.value, likelihood: f.likelihood, supporting_input_count: f.supporting, total_input_count: f.total })),
    alignment: {
      reference_index: result.referenceIndex,
      aligned_inputs: includeAlignment ? (result.alignedInputs as Record<string, unknown>[]) : null,
      path_alignments: includeAlignment ? result.pathAlignments!.map((a) => ({ canonical_path: a.canonicalPath, source_paths: a.sourcePaths })) : null,
    },
  };
}

/** json_schema must describe an object: `type: "object"` (or no type) with `properties` an object when given. */
function checkObjectSchema(schema: Record<string, unknown>): void {
  const loc = ['body', 'json_schema'];
  const type = schema.type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    throw Invalid.at(loc, 'json_schema must describe an object (type "object"), as every input is one', 'schema_invalid', type);
  }
  const properties = schema.properties;
  if (properties !== undefined && (properties === null || typeof properties !== 'object' || Array.isArray(properties))) {
    throw Invalid.at([...loc, 'properties'], 'json_schema.properties must be an object of property schemas', 'schema_invalid');
  }
}
