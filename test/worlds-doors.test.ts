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

describe('a world’s CI and request log carry its prefix', () => {
  it('gives a runner the repository and server URLs under the prefix', async () => {
    const made = await send('/-/emulator/worlds', {
      method: 'POST',
      body: JSON.stringify({
        name: 'ci',
        fixture: {
          users: [{ username: 'root', name: 'Root', email: 'root@example.com', admin: true, tokens: [{ token: ROOT_TOKEN, scopes: ['api'] }] }],
          projects: [{ namespace: 'root', path: 'app', creator: 'root', repository: { files: { 'README.md': '# App\n' } } }],
        },
      }),
    });
    expect(made.status).toBe(201);
    const runner = await send('/-/worlds/ci/api/v4/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type' }) });
    const { token } = (await runner.json()) as { token: string };
    emulator.worlds!.get('ci')!.ci('root/app').plan({ jobs: [{ name: 'build', stage: 'build', script: ['make'] }] } as never);
    const res = await fetch(`${BASE}/-/worlds/ci/api/v4/jobs/request`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(res.status).toBe(201);
    const job = (await res.json()) as { token: string; git_info: { repo_url: string }; variables: { key: string; value: string }[] };
    expect(job.git_info.repo_url).toBe(`https://gitlab-ci-token:${job.token}@gitlab.example.com/-/worlds/ci/root/app.git`);
    const variable = (key: string) => job.variables.find((v) => v.key === key)?.value;
    expect(variable('CI_SERVER_URL')).toBe(`${BASE}/-/worlds/ci`);
    expect(variable('CI_API_V4_URL')).toBe(`${BASE}/-/worlds/ci/api/v4`);
    expect(variable('CI_REPOSITORY_URL')).toBe('https://gitlab-ci-token:[MASKED]@gitlab.example.com/-/worlds/ci/root/app.git');
    expect(variable('CI_PROJECT_URL')).toBe(`${BASE}/-/worlds/ci/root/app`);
    await send('/-/emulator/worlds/ci', { method: 'DELETE' });
  });

  it('logs a world’s requests with their whole path', async () => {
    const lines: string[] = [];
    const logged = await createEmulator({ log: (line) => lines.push(line) });
    await logged.handle(new Request(`${BASE}/-/emulator/worlds`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"logged"}' }));
    await logged.handle(new Request(`${BASE}/-/worlds/logged/api/v4/version`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } }));
    expect(lines.some((l) => l.includes('/-/worlds/logged/api/v4/version'))).toBe(true);
  });
});
