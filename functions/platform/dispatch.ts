/**
 * On AWS each resource group (functions/<group>/) is one Lambda. API Gateway tells the Lambda which
 * route it is serving in `event.routeKey`; this picks the handler of that route from the group's module.
 * The local server calls handlers by name directly, so both paths end in the same handler functions.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { routes, routeKey } from '../routes.ts';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export function routeDispatcher(group: string, handlers: Record<string, unknown>): LambdaHandler {
  const byKey = new Map<string, LambdaHandler>();
  for (const route of routes) {
    if (route.module !== `${group}/handlers.ts`) continue;
    const fn = handlers[route.handler];
    if (typeof fn !== 'function') throw new Error(`Route ${routeKey(route)}: ${group}/handlers.ts exports no ${route.handler}`);
    byKey.set(routeKey(route), fn as LambdaHandler);
  }
  if (byKey.size === 0) throw new Error(`No route of the route table is hosted by ${group}/handlers.ts`);
  return async (event, context) => {
    const fn = byKey.get(event.routeKey);
    if (!fn) return { statusCode: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: 'Not Found' }) };
    return fn(event, context);
  };
}

/** The resource groups that host HTTP routes, e.g. ["auth", "docs", "files", "models"]. */
export function routeGroups(): string[] {
  return [...new Set(routes.map((r) => r.module.split('/')[0]!))].sort();
}
