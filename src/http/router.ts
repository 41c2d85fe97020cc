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

export class Router {
  #trie: TrieRouter<RouteDef> = new (trieRouter().TrieRouter)<RouteDef>();
  #recent = new Map<string, Match | 'bad-encoding' | undefined>();
  readonly routes: RouteDef[] = [];

  constructor(defs: readonly RouteDef[] = []) {
    this.add(defs);
  }

  add(defs: readonly RouteDef[]): void {
    this.#recent.clear();
    for (const def of defs.map(prepare)) {
      this.#trie.add(def.method, def.path, def);
      this.routes.push(def);
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

  #match(method: string, rawPath: string): Match | 'bad-encoding' | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const [found] = this.#trie.match(method === 'HEAD' ? 'GET' : method, path) as unknown as [[RouteDef, Record<string, string>][]];
    const hit = found[0];
    if (!hit) return undefined;
    const params: Record<string, string> = {};
    try {
      for (const [k, v] of Object.entries(hit[1])) params[k] = decodeURIComponent(v);
    } catch {
      return 'bad-encoding';
    }
    return { route: hit[0], params: Object.freeze(params) };
  }
}
