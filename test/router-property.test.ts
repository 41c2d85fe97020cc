// The router builds a trie per first and third path segment, when a request first needs it; any
// path must match what one trie of every route matches (hono's, the plain model), in the same
// declared order: the same route and the same parameters, or none.
import fc from 'fast-check';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, SCIM_ROUTES, WEB_ROUTES } from '../src/families/registry.js';
import { Router } from '../src/http/router.js';
import type { RouteDef } from '../src/http/route.js';

/** The model: one trie of every route; the first match, its parameters decoded. */
function model(routes: readonly RouteDef[]) {
  const trie = new TrieRouter<RouteDef>();
  for (const r of routes) trie.add(r.method, r.path, r);
  return (method: string, raw: string) => {
    const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
    const [found] = trie.match(method === 'HEAD' ? 'GET' : method, path) as unknown as [[RouteDef, Record<string, string>][]];
    const hit = found[0];
    if (!hit) return undefined;
    try {
      return { method: hit[0].method, path: hit[0].path, params: Object.fromEntries(Object.entries(hit[1]).map(([k, v]) => [k, decodeURIComponent(v)])) };
    } catch {
      return 'bad-encoding';
    }
  };
}

const SEGMENTS = ['1', '42', 'issues', 'merge_requests', 'repository', 'files', 'a%2Fb.txt', 'main', 'x.git', 'info', 'refs', '', '-', '__proto__', 'constructor', 'projects', 'groups', 'users', 'ü', '%E0%A4%A', 'raw', 'notes'];

/** A path shaped like a route's: its parameters filled with segments (a pattern's with one to three), or mutated. */
function pathFor(route: RouteDef, fill: string[], cut: number): string {
  let n = 0;
  const take = () => fill[n++ % fill.length]!;
  const parts = route.path.split('/').slice(1).map((seg) => (seg.startsWith(':') || seg === '*' ? (seg.includes('{.+') ? `${take()}/${take()}` : take()) : seg));
  return `/${parts.slice(0, Math.max(1, parts.length - cut)).join('/')}`;
}

describe('the router', () => {
  for (const [name, routes] of [['api', API_ROUTES], ['web', WEB_ROUTES], ['scim', SCIM_ROUTES]] as const) {
    it(`matches every path as one trie of every ${name} route does`, () => {
      const expected = model(routes);
      const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
      fc.assert(
        fc.property(fc.nat(routes.length - 1), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 }), fc.nat(2), fc.constantFrom(...methods), fc.boolean(), (i, fill, cut, method, slash) => {
          const router = new Router(routes);
          const path = pathFor(routes[i]!, fill, cut) + (slash ? '/' : '');
          const got = router.match(method, path);
          const want = expected(method, path);
          expect(got === undefined || got === 'bad-encoding' ? got : { method: got.route.method, path: got.route.path, params: { ...got.params } }).toEqual(want);
        }),
        { numRuns: 3000 },
      );
    });
  }
});
