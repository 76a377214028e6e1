import { runOperations } from '../runs/schema.ts';
import { CreateSplitBody, Split } from './schema.ts';

export const splitOperations = runOperations({ resource: 'split', plural: 'splits', idParam: 'split_id', createBody: CreateSplitBody, record: Split, tag: 'splits' });
