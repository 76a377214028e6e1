import { operation } from '../platform/operation.ts';
import { runOperations } from '../runs/schema.ts';
import { CreateSplitBody, ReconstructBody, ReconstructResponse, Split } from './schema.ts';

export const splitOperations = runOperations({ resource: 'split', plural: 'splits', idParam: 'split_id', createBody: CreateSplitBody, record: Split, tag: 'splits' });

export const reconstructOperation = operation({
  summary: "Rebuild tables from a spreadsheet's regions (a split's, or your own): header, rows and CSV of each subdocument",
  auth: 'api_key',
  body: ReconstructBody,
  status: 200,
  response: ReconstructResponse,
  tags: ['splits'],
});
