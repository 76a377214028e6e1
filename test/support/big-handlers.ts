// A route defined by the tests whose answer is larger than a Lambda may return (API §0.1).
import * as z from 'zod';
import { api } from '../../functions/platform/http.ts';
import { operation } from '../../functions/platform/operation.ts';

export const bigOperation = operation({ summary: 'A 7 MB answer', auth: 'api_key', query: z.object({ mb: z.coerce.number().default(7) }), status: 200 });

export const big = api(bigOperation, async ({ query }) => ({ filler: 'x'.repeat(query.mb * 1024 * 1024) }));
