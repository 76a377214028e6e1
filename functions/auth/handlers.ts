import { api } from '../platform/http.ts';
import { authOperations as ops } from './operations.ts';
import { authStatusOf } from './service.ts';

export const authStatus = api(ops.authStatus, async ({ caller }) => authStatusOf(caller));
