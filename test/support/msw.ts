// The MSW door in a test file: one MSW server for the file, and for each test an emulator served
// through the handler set, with a `send` that calls the REST API by fetch as a unit test would.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { handlers } from '../../src/msw.js';
import type { Emulator } from '../../src/index.js';
import { ORIGIN } from './world.js';

export type Send = (path: string, token: string, method?: string, body?: unknown) => Promise<Response>;

export function mswDoor(): { serve(emulator: Emulator): Send } {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => msw.close());
  return {
    serve(emulator) {
      msw.resetHandlers(...handlers(emulator));
      return (path, token, method = 'GET', body) =>
        fetch(`${ORIGIN}/api/v4${path}`, {
          method,
          headers: { 'PRIVATE-TOKEN': token, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
    },
  };
}
