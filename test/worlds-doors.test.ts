// Worlds through the in-process doors: `emulator.handle` and the MSW handler set route
// `/-/worlds/NAME/...` to the world as the server does, under the emulator's base URL; with no
// world made, nothing changes for them. And a world's inspector page under its prefix.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { handlers } from '../src/msw.js';

const BASE = 'https://gitlab.example.com';
const ROOT_TOKEN = 'glpat-emulator-root-token';

let emulator: Emulator;
const msw = setupServer();

beforeAll(async () => {
  emulator = await createEmulator({ clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
  msw.resetHandlers(...handlers(emulator));
  msw.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => msw.close());

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${BASE}${path}`, { ...init, headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers } });

describe('worlds through the MSW door and emulator.handle', () => {
  it('makes, serves and removes a world under the base URL', async () => {
    expect((await send('/-/worlds/m1/api/v4/projects')).status).toBe(404);
    const made = await send('/-/emulator/worlds', { method: 'POST', body: JSON.stringify({ name: 'm1' }) });
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ name: 'm1', url: `${BASE}/-/worlds/m1` });
    const created = await send('/-/worlds/m1/api/v4/projects', { method: 'POST', body: JSON.stringify({ name: 'msw-only' }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { web_url: string }).web_url).toBe(`${BASE}/-/worlds/m1/root/msw-only`);
    // The same world through emulator.handle.
    const viaHandle = await emulator.handle(new Request(`${BASE}/-/worlds/m1/api/v4/projects?search=msw-only`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } }));
    expect(((await viaHandle.json()) as unknown[]).length).toBe(1);
    const atRoot = (await (await send('/api/v4/projects?search=msw-only')).json()) as unknown[];
    expect(atRoot).toEqual([]);
    expect((await send('/-/worlds/m1/-/liveness')).status).toBe(200);
    expect((await send('/-/emulator/worlds/m1', { method: 'DELETE' })).status).toBe(204);
    expect((await send('/-/worlds/m1/api/v4/projects')).status).toBe(404);
  });

  it('shows a world’s inspector under its prefix', async () => {
    await send('/-/emulator/worlds', { method: 'POST', body: JSON.stringify({ name: 'm2' }) });
    const page = await send('/-/worlds/m2/-/emulator', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The page calls the control API at its own path: the world's.
    const world = (await (await send('/-/worlds/m2/-/emulator/world')).json()) as { projects: unknown[] };
    expect(world.projects.length).toBe(emulator.state.projects.size);
    await send('/-/emulator/worlds/m2', { method: 'DELETE' });
  });
});
