import * as z from 'zod';
import { operation } from '../platform/operation.ts';
import { listEnvelope } from '../platform/schemas.ts';
import { runOperations } from '../runs/schema.ts';
import { CreateEditBody, CreateTemplateBody, Edit, EditTemplate, ListEditsQuery, ListTemplatesQuery, PatchTemplateBody } from './schema.ts';

const templateParams = z.object({ template_id: z.string() });

export const editOperations = {
  ...runOperations({
    resource: 'edit',
    plural: 'edits',
    idParam: 'edit_id',
    createBody: CreateEditBody,
    record: Edit,
    tag: 'edits',
    listQuery: ListEditsQuery,
  }),
  createTemplate: operation({
    summary: 'Create an edit template (its form fields are detected when not given)',
    auth: 'api_key',
    body: CreateTemplateBody,
    status: 201,
    response: EditTemplate,
    tags: ['edits'],
  }),
  listTemplates: operation({ summary: 'List edit templates', auth: 'api_key', query: ListTemplatesQuery, status: 200, response: listEnvelope(EditTemplate), tags: ['edits'] }),
  getTemplate: operation({ summary: 'Get an edit template', auth: 'api_key', params: templateParams, status: 200, response: EditTemplate, tags: ['edits'] }),
  updateTemplate: operation({
    summary: 'Rename an edit template or replace its form fields',
    auth: 'api_key',
    params: templateParams,
    body: PatchTemplateBody,
    status: 200,
    response: EditTemplate,
    tags: ['edits'],
  }),
  deleteTemplate: operation({ summary: 'Delete an edit template', auth: 'api_key', params: templateParams, status: 204, tags: ['edits'] }),
};
