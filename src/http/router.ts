// Matches a raw (still percent-encoded) path against the declared routes, so an encoded `/`
// in a parameter never splits a segment; each parameter is then decoded exactly once.
import type { TrieRouter } from 'hono/router/trie-router';
import { lazyModule } from '../core/lazy.js';
import { int, str } from './params.js';
import type { RouteDef } from './route.js';

/** hono's router, loaded with the first router built (at the first request), not at the package's import. */
const trieRouter = lazyModule('hono/router/trie-router', () => import('hono/router/trie-router'));

export interface Match {
  route: RouteDef;
  params: Record<string, string>;
}

/** A route as the pipeline runs it: a scope's parameter and the page parameters declared. */
function prepare(def: RouteDef): RouteDef {
  const params = { ...def.params };
  if (def.scope && !params[def.scope.param]) params[def.scope.param] = str().required();
  if (def.paginated) {
    params.page ??= int();
    params.per_page ??= int();
  }
  return { ...def, params };
}

/** Recent matches kept per router: clients repeat the same paths. */
const RECENT = 512;

/** A segment that is plain text: only the same text in a path matches it. */
function literal(segment: string | undefined): segment is string {
  return segment !== undefined && segment !== '' && !/[:*{}()?]/.test(segment);
}

/** A segment that matches exactly one segment of a path: plain text, or a parameter whose pattern cannot match a `/`. */
function single(segment: string): boolean {
  return literal(segment) || /^:\w+(\{[\w\-[\]{},+*?]*\})?$/.test(segment);
}

/**
 * The plain segments that decide which paths a route may match: its first, and its third when
 * its second matches exactly one segment (`projects` and `issues` of `/projects/:id/issues`).
 * Undefined where the route has a parameter, a pattern or nothing.
 */
function routeKey(path: string): [first: string | undefined, third: string | undefined] {
  const [first, second, third] = path.split('/').slice(1);
  if (!literal(first)) return [undefined, undefined];
  return [first, second !== undefined && single(second) && literal(third) ? third : undefined];
}

/**
 * The routes of a surface. A trie is built for a path's first and third segments when a request
 * first needs it: the routes that may match such a path (those whose own segments there are the
 * same or a parameter), in their declared order. So a request matches as it would against one
 * trie of every route, and a start does not build the tries of paths it is never asked (about
 * 15 µs a route; 509 of the 857 API routes start with `projects`).
 */
export class Router {
  readonly #defs: readonly RouteDef[];
  readonly #keys: (readonly [string | undefined, string | undefined])[];
  /** The plain first segments of the routes, and for each the plain third segments they spell out. */
  readonly #known = new Map<string, Set<string>>();
  /** Built tries, by first and third segment (`\n`-joined; the third empty where no route spells the path's out). */
  readonly #tries = new Map<string, TrieRouter<RouteDef>>();
  readonly #prepared = new WeakMap<RouteDef, RouteDef>();
  #recent = new Map<string, Match | 'bad-encoding' | undefined>();

  constructor(defs: readonly RouteDef[] = []) {
    this.#defs = defs;
    this.#keys = defs.map((def) => routeKey(def.path));
    for (const [first, third] of this.#keys) {
      if (first === undefined) continue;
      let thirds = this.#known.get(first);
      if (!thirds) this.#known.set(first, (thirds = new Set()));
      if (third !== undefined) thirds.add(third);
    }
  }

  /** `rawPath` is relative to the surface's prefix; HEAD matches GET routes; a trailing slash is ignored. */
  match(method: string, rawPath: string): Match | 'bad-encoding' | undefined {
    const key = `${method} ${rawPath}`;
    if (this.#recent.has(key)) return this.#recent.get(key);
    const found = this.#match(method, rawPath);
    if (this.#recent.size >= RECENT) this.#recent.clear();
    this.#recent.set(key, found);
    return found;
  }

  #trieFor(path: string): TrieRouter<RouteDef> {
    const [, first = '', , third = ''] = path.split('/', 4);
    const thirds = this.#known.get(first);
    const f = thirds === undefined ? undefined : first;
    const t = thirds !== undefined && thirds.has(third) ? third : undefined;
    const key = f === undefined ? '' : `${f}\n${t ?? ''}`;
    let trie = this.#tries.get(key);
    if (trie === undefined) {
      trie = new (trieRouter().TrieRouter)<RouteDef>();
      this.#defs.forEach((def, i) => {
        const [own, ownThird] = this.#keys[i]!;
        if (own === undefined || (own === f && (ownThird === undefined || ownThird === t))) trie!.add(def.method, def.path, def);
      });
      this.#tries.set(key, trie);
    }
    return trie;
  }

  #match(method: string, rawPath: string): Match | 'bad-encoding' | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const [found] = this.#trieFor(path).match(method === 'HEAD' ? 'GET' : method, path) as unknown as [[RouteDef, Record<string, string>][]];
    const hit = found[0];
    if (!hit) return undefined;
    const params: Record<string, string> = {};
    try {
      for (const [k, v] of Object.entries(hit[1])) params[k] = decodeURIComponent(v);
    } catch {
      return 'bad-encoding';
    }
    let route = this.#prepared.get(hit[0]);
    if (route === undefined) this.#prepared.set(hit[0], (route = prepare(hit[0])));
    return { route, params: Object.freeze(params) };
  }
}
