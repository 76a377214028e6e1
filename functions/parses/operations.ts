import { runOperations } from '../runs/schema.ts';
import { CreateParseBody, Parse } from './schema.ts';

export const parseOperations = runOperations({ resource: 'parse', plural: 'parses', idParam: 'parse_id', createBody: CreateParseBody, record: Parse, tag: 'parses' });
