// The MSW door: one catch-all handler per base URL that hands every request to the
// emulator's own router (MSW walks its handler list per request; one handler keeps it cheap).
import { http, passthrough, type HttpHandler } from 'msw';
import type { Emulator } from '../emulator.js';

export interface HandlerOptions {
  /** Base URLs to answer on; the emulator's `baseUrl` by default. */
  baseUrl?: string | string[];
  /**
   * A request under a base URL to a path the emulator does not serve (anything but `/api/v4/...`,
   * the git paths, `/-/emulator/...` and the web app's few download routes): `'answer'` it with
   * GitLab's 404, or let it `'passthrough'` to the network. By default a base URL that is the
   * page's own origin (`baseUrl: location.origin` in a browser) lets them through, so the page's
   * own files still load; any other base URL answers them.
   */
  unknownPaths?: 'answer' | 'passthrough';
}

/** The page's origin, in a browser (or a worker); none in Node. */
function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return typeof location?.origin === 'string' && location.origin !== 'null' ? location.origin : undefined;
}

export function handlers(emulator: Emulator, options: HandlerOptions = {}): HttpHandler[] {
  const bases = [options.baseUrl ?? emulator.baseUrl].flat().map((b) => b.replace(/\/+$/, ''));
  const origin = pageOrigin();
  return bases.map((base) => {
    const through = options.unknownPaths ? options.unknownPaths === 'passthrough' : origin !== undefined && new URL(base).origin === origin;
    return through
      ? http.all(`${base}/*`, ({ request }) => (emulator.serves(request.method, request.url) ? emulator.handle(request) : passthrough()))
      : http.all(`${base}/*`, ({ request }) => emulator.handle(request));
  });
}
