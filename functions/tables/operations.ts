import { operation } from '../platform/operation.ts';
import {
  CreateTableForm,
  CreateTableJson,
  ListTablesQuery,
  PatchTableBody,
  ProfileQuery,
  QueryTableBody,
  TableEnvelope,
  TableIdParams,
  TableProfile,
  TableRows,
  TableSchema,
  TablesEnvelope,
  ValidateTableBody,
  ValidationReport,
} from './schema.ts';

const tags = ['tables'];

export const tableOperations = {
  create: operation({
    summary: 'Create a table from a CSV (multipart form with a file, or JSON with a document)',
    auth: 'api_key',
    body: CreateTableJson,
    multipart: CreateTableForm,
    status: 201,
    response: TablesEnvelope,
    tags,
  }),
  list: operation({ summary: 'List tables, newest first', auth: 'api_key', query: ListTablesQuery, status: 200, response: TablesEnvelope, tags }),
  get: operation({ summary: 'Get a table', auth: 'api_key', params: TableIdParams, status: 200, response: TableEnvelope, tags }),
  replace: operation({
    summary: "Replace a table's CSV snapshot",
    auth: 'api_key',
    params: TableIdParams,
    body: CreateTableJson,
    multipart: CreateTableForm,
    status: 200,
    response: TablesEnvelope,
    tags,
  }),
  patch: operation({ summary: "Rename a table or set its metadata", auth: 'api_key', params: TableIdParams, body: PatchTableBody, status: 200, response: TablesEnvelope, tags }),
  delete: operation({ summary: 'Delete a table', auth: 'api_key', params: TableIdParams, status: 204, tags }),
  download: operation({ summary: 'Download the CSV snapshot', auth: 'api_key', params: TableIdParams, status: 200, contentType: 'text/csv', tags }),
  schema: operation({ summary: "A table's columns", auth: 'api_key', params: TableIdParams, status: 200, response: TableSchema, tags }),
  validate: operation({
    summary: 'Validate a table against rules',
    auth: 'api_key',
    params: TableIdParams,
    body: ValidateTableBody,
    status: 200,
    response: ValidationReport,
    tags,
  }),
  query: operation({
    summary: 'Query the rows of a table: filters, search, sort, selection, distinct values, groups and aggregations, samples, pages',
    auth: 'api_key',
    params: TableIdParams,
    body: QueryTableBody,
    status: 200,
    response: TableRows,
    // It stores nothing a caller sees (the Parquet snapshot it may make is a cache of the CSV).
    reads: true,
    tags,
  }),
  profile: operation({ summary: 'Profile the columns of a table', auth: 'api_key', params: TableIdParams, query: ProfileQuery, status: 200, response: TableProfile, tags }),
};
