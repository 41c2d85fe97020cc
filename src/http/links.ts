// Where a page's links point, and the parameters they repeat (`Link`, `X-Next-Page`'s URLs).
import type { RouteDef } from './route.js';

/** Where a page's links point: the URL as sent, and the parameters they repeat, worked out only for an answer that pages. */
export class Links {
  #params: Record<string, unknown> | undefined;

  constructor(
    readonly base: string,
    private readonly route: RouteDef,
    private readonly query: Record<string, unknown>,
    private readonly bodyParams: Record<string, unknown>,
    private readonly pathParams: Record<string, string>,
  ) {}

  get params(): Record<string, unknown> {
    return (this.#params ??= linkParams(this.route, this.query, this.bodyParams, this.pathParams));
  }
}

/** Every parameter to repeat in a pagination link: as sent, and the declared defaults. */
function linkParams(route: RouteDef, ...sources: Record<string, unknown>[]): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  for (const source of sources) out = { ...out, ...source }; // spread keeps `__proto__` a plain key
  for (const [k, p] of Object.entries(route.params ?? {})) {
    if (out[k] === undefined && p.options.default !== undefined) out[k] = p.options.default;
  }
  return out;
}
