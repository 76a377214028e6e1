/**
 * The dashboard's handlers, the module its routes name in the route table (./feature.ts):
 * thin handlers that read the form or query, call the services (members, sessions, keys, runs — the
 * auth and run services underneath) and render a view. They are written one file per page under
 * ./handlers/ and exported here together, so the Lambda of the group finds them all in one module.
 */
import { setErrorPage } from './http.ts';
import { errorView } from './views/layout.ts';

setErrorPage(errorView);

export * from './handlers/sign-in.ts';
export * from './handlers/keys.ts';
export * from './handlers/runs.ts';
export * from './handlers/members.ts';
export * from './handlers/settings.ts';
export * from './handlers/webhooks.ts';
export * from './handlers/workspace.ts';
export * from './handlers/reviews.ts';
