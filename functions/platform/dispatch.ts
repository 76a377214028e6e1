/**
 * On AWS each resource group (functions/<group>/) is one Lambda. API Gateway tells the Lambda which
 * route it is serving in `event.routeKey`; the dispatcher picks the handler of that route from the
 * group's module (./dispatcher.ts). Here, what the route table says of each group: its routes'
 * handler names (written into the group's generated entry) and the groups themselves.
 * The local server calls handlers by name directly, so both paths end in the same handler functions.
 */
import { routes, routeKey } from '../routes.ts';
import { dispatcherOf, type LambdaHandler } from './dispatcher.ts';

/** Route key → handler name, for the routes of one group. */
export function routeHandlersOf(group: string): Record<string, string> {
  return Object.fromEntries(routes.filter((route) => route.module === `${group}/handlers.ts`).map((route) => [routeKey(route), route.handler]));
}

/** The dispatcher of a group, from the route table (the generated entries carry its table instead). */
export function routeDispatcher(group: string, handlers: Record<string, unknown>): LambdaHandler {
  return dispatcherOf(group, handlers, routeHandlersOf(group));
}

/** The resource groups that host HTTP routes, e.g. ["auth", "docs", "files", "models"]. */
export function routeGroups(): string[] {
  return [...new Set(routes.map((r) => r.module.split('/')[0]!))].sort();
}
