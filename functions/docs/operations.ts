import * as z from 'zod';
import { operation } from '../platform/operation.ts';

export const docsOperations = {
  openapiDocument: operation({ summary: 'The OpenAPI 3.1 document of every route', auth: 'public', status: 200, tags: ['docs'] }),
  docsPage: operation({ summary: 'The API reference page', auth: 'public', status: 200, contentType: 'text/html', tags: ['docs'] }),
  docsAsset: operation({
    summary: 'Static assets of the reference page',
    auth: 'public',
    params: z.object({ asset: z.string() }),
    status: 200,
    contentType: 'application/octet-stream',
    tags: ['docs'],
  }),
};
