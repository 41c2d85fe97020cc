// `useGitlabEmulator({ world })`: a world per worker on one shared server, made before all tests
// from the file's fixture, reset before each, removed after all; and the global setup that
// starts the shared server and provides its URL.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, gitlabEmulatorGlobalSetup, useGitlabEmulator, SHARED_SERVER_KEY } from '../src/vitest.js';

// The shared server, as a global setup would start it for the whole run.
const provided: Record<string, unknown> = {};
const stop = await gitlabEmulatorGlobalSetup({ clock: { now: '2026-03-01T12:00:00Z', frozen: true } })({ provide: (k, v) => (provided[k] = v) });
const serverUrl = provided[SHARED_SERVER_KEY] as string;
afterAll(() => stop());

// A world of the worker's name left behind (by an earlier file of this worker, or a run that
// stopped): the helper makes it anew from this file's fixture.
const leftName = `vitest-${process.env.VITEST_POOL_ID}`;
const left = await fetch(`${serverUrl}/-/emulator/worlds`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: leftName }) });
if (left.status !== 201) throw new Error(`could not leave a world behind: ${left.status}`);

const TOKEN = 'world-token';
const gitlab = useGitlabEmulator({
  world: { server: serverUrl },
  fixture: fixture()
    .user('wendy', { admin: true, token: TOKEN })
    .project('wendy/notes'),
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${gitlab.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': TOKEN, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

describe('a world per worker on a shared server', () => {
  it('provides the shared server and names the world after the worker', () => {
    expect(serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.GITLAB_EMULATOR_URL).toBe(serverUrl);
    expect(gitlab.world).toBe(`vitest-${process.env.VITEST_POOL_ID}`);
    expect(gitlab.baseUrl).toBe(`${serverUrl}/-/worlds/${gitlab.world}`);
    expect(gitlab.apiUrl).toBe(`${gitlab.baseUrl}/api/v4`);
  });

  it('serves the file fixture in the world, with URLs under its prefix', async () => {
    const { json } = await api('GET', '/projects');
    expect(json.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['wendy/notes']);
    expect(json[0].web_url).toBe(`${gitlab.baseUrl}/wendy/notes`);
  });

  it('writes (1/2): a project made in this test', async () => {
    expect((await api('POST', '/projects', { name: 'scratch' })).status).toBe(201);
    expect((await api('GET', '/projects')).json).toHaveLength(2);
  });

  it('writes (2/2): is gone in the next test (the world was reset)', async () => {
    expect((await api('GET', '/projects')).json).toHaveLength(1);
  });

  it('leaves the server’s own world alone', async () => {
    const res = await fetch(`${serverUrl}/api/v4/projects`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(res.status).toBe(401); // the server's world has no such token
  });

  it('has no in-process emulator to hand out', () => {
    expect(() => gitlab.emulator).toThrow(/shared server/);
  });
});
