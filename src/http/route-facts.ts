// What the pipeline needs of a route beyond its declaration, worked out once per route: the name
// the journal and the rate limits give it, what it asks of its caller, the parameters its answer
// may read, and whether the instance has it.
import type { Tier, CoreState } from '../store/state.js';
import type { AuthRequirements } from './auth.js';
import type { RouteDef } from './route.js';

const NAMES_READ = new WeakMap<RouteDef, ReadonlySet<string>>();

/** The parameters a route's answer may read besides the rest of its request: its declared ones, its constraints' and the surface's credentials. */
export function namesRead(route: RouteDef, credentials: readonly string[]): ReadonlySet<string> {
  let names = NAMES_READ.get(route);
  if (names === undefined) {
    names = new Set([...Object.keys(route.params ?? {}), ...(route.constraints ?? []).flatMap((c) => c.names), ...credentials]);
    NAMES_READ.set(route, names);
  }
  return names;
}

const REQUIREMENTS = new WeakMap<RouteDef, AuthRequirements>();
const ROUTE_NAMES = new WeakMap<RouteDef, string>();

/** `GET /projects/:id`: the route as the journal and the rate limits name it. */
export function routeName(route: RouteDef): string {
  let name = ROUTE_NAMES.get(route);
  if (name === undefined) ROUTE_NAMES.set(route, (name = `${route.method} ${route.path}`));
  return name;
}

/** What a route asks of its caller, worked out once per route. */
export function requirementsOf(route: RouteDef): AuthRequirements {
  let req = REQUIREMENTS.get(route);
  if (!req) {
    req = Object.freeze({ auth: route.auth ?? 'public', scopes: route.scopes ?? [], anyMethodScopes: route.anyMethodScopes ?? [], jobToken: route.jobToken ?? false });
    REQUIREMENTS.set(route, req);
  }
  return req;
}

const TIERS: Tier[] = ['free', 'premium', 'ultimate'];

/** Whether the instance has the route: its tier at least the route's, its offering the route's when it names one. */
export function routeAvailable(route: RouteDef, instance: CoreState['instance']): boolean {
  if (route.tier && TIERS.indexOf(instance.tier) < TIERS.indexOf(route.tier)) return false;
  return !route.offering || route.offering === instance.offering;
}
