// The MSW door: one catch-all handler per base URL that hands every request to the
// emulator's own router (MSW walks its handler list per request; one handler keeps it cheap).
import { http, type HttpHandler } from 'msw';
import type { Emulator } from '../emulator.js';

export interface HandlerOptions {
  /** Base URLs to answer on; the emulator's `baseUrl` by default. */
  baseUrl?: string | string[];
}

export function handlers(emulator: Emulator, options: HandlerOptions = {}): HttpHandler[] {
  const bases = [options.baseUrl ?? emulator.baseUrl].flat().map((b) => b.replace(/\/+$/, ''));
  return bases.map((base) => http.all(`${base}/*`, ({ request }) => emulator.handle(request)));
}
