import { runHandlers } from '../runs/handlers-kit.ts';
import { schemaGenerationKind } from './kind.ts';
import { schemaGenerationOperations } from './operations.ts';
import { prepareSchemaGeneration } from './service.ts';

const handlers = runHandlers(schemaGenerationKind, schemaGenerationOperations, 'schema_generation_id', ({ platform, caller, body }) => prepareSchemaGeneration(platform, caller, body));

export const createSchemaGeneration = handlers.create;
export const getSchemaGeneration = handlers.get;
export const listSchemaGenerations = handlers.list;
export const deleteSchemaGeneration = handlers.delete;
export const cancelSchemaGeneration = handlers.cancel;
