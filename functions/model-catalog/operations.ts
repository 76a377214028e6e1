import { operation } from '../platform/operation.ts';
import { ModelList } from './schema.ts';

export const modelOperations = {
  listModels: operation({ summary: 'List the models of this deployment', auth: 'api_key', status: 200, response: ModelList, tags: ['models'] }),
};
