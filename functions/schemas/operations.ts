import { runOperations } from '../runs/schema.ts';
import { CreateSchemaGenerationBody, SchemaGeneration } from './schema.ts';

export const schemaGenerationOperations = runOperations({
  resource: 'schema generation',
  plural: 'schema generations',
  idParam: 'schema_generation_id',
  createBody: CreateSchemaGenerationBody,
  record: SchemaGeneration,
  tag: 'schemas',
});
