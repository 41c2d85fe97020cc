// One small contract (who am I, create a project, list it page by page) through each of the
// three doors: `emulator.handle`, the MSW handler set with plain fetch, and the node server
// driven by a real client (@gitbeaker/rest). Both network doors serve one world at once.
import { Gitlab } from '@gitbeaker/rest';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handlers } from '../src/msw.js';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';

const ORIGIN = 'https://gitlab.example.com';
const TOKEN = 'alice-token';

const fixture: Fixture = {
  users: [{ username: 'alice', name: 'Alice', tokens: [{ token: TOKEN }] }],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [
    { namespace: 'acme', path: 'one', visibility: 'public' },
    { namespace: 'acme', path: 'two', visibility: 'public' },
  ],
};

type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** The contract every door must keep. */
async function contract(send: Send, origin: string) {
  const auth = { 'PRIVATE-TOKEN': TOKEN };
  const me = await send('/api/v4/user', { headers: auth });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ username: 'alice', name: 'Alice' });

  const created = await send('/api/v4/projects', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Through the door', namespace_id: await acmeId(send) }),
  });
  expect(created.status).toBe(201);
  const project = (await created.json()) as { id: number; path_with_namespace: string; web_url: string };
  expect(project.path_with_namespace).toBe('acme/through-the-door');
  expect(project.web_url).toBe(`${origin}/acme/through-the-door`);

  const names: string[] = [];
  let next: string | null = `${origin}/api/v4/projects?per_page=1&order_by=id&sort=asc`;
  while (next) {
    const page = await send(next.slice(origin.length), { headers: auth });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total')).toBe('3');
    names.push(...((await page.json()) as { path: string }[]).map((p) => p.path));
    const link = /<([^>]*)>; rel="next"/.exec(page.headers.get('link') ?? '');
    if (link) expect(link[1]!.startsWith(`${origin}/api/v4/projects?`)).toBe(true);
    next = link ? link[1]! : null;
  }
  expect(names).toEqual(['one', 'two', 'through-the-door']);
}

async function acmeId(send: Send): Promise<number> {
  const res = await send('/api/v4/groups/acme');
  return ((await res.json()) as { id: number }).id;
}

describe('the handle door', () => {
  it('keeps the contract', async () => {
    const gitlab = await createEmulator({ fixture });
    await contract((path, init) => gitlab.handle(new Request(`${ORIGIN}${path}`, init)), ORIGIN);
  });
});

describe('the MSW door', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => msw.close());

  it('keeps the contract with plain fetch', async () => {
    const gitlab = await createEmulator({ fixture });
    msw.resetHandlers(...handlers(gitlab));
    await contract((path, init) => fetch(`${ORIGIN}${path}`, init), ORIGIN);
  });

  it('answers on every base URL it is given', async () => {
    const gitlab = await createEmulator({ fixture });
    msw.resetHandlers(...handlers(gitlab, { baseUrl: ['https://a.example', 'https://b.example/'] }));
    expect((await fetch('https://a.example/api/v4/projects')).status).toBe(200);
    const res = await fetch('https://b.example/api/v4/projects?per_page=1');
    expect(res.headers.get('link')).toContain('<https://b.example/api/v4/projects?');
  });
});

describe('the node server door', () => {
  let gitlab: Emulator;
  let server: Server;
  beforeEach(async () => {
    gitlab = await createEmulator({ fixture });
    server = await gitlab.listen({ port: 0 });
    return () => server.close();
  });

  it('keeps the contract with plain fetch', async () => {
    await contract((path, init) => fetch(`${server.url}${path}`, init), server.url);
  });

  it('serves @gitbeaker/rest: users, projects and groups', async () => {
    const api = new Gitlab({ host: server.url, token: TOKEN });
    const me = await api.Users.showCurrentUser();
    expect(me.username).toBe('alice');

    const group = await api.Groups.create('Beakers', 'beakers', { visibility: 'public' });
    expect(group.full_path).toBe('beakers');
    const project = await api.Projects.create({ name: 'Made by gitbeaker', namespaceId: group.id as number, description: 'hi' });
    expect(project.path_with_namespace).toBe('beakers/made-by-gitbeaker');

    const shown = await api.Projects.show(project.id);
    expect(shown).toMatchObject({ id: project.id, description: 'hi', permissions: { group_access: { access_level: 50 } } });

    const all = await api.Projects.all({ perPage: 1, orderBy: 'id', sort: 'asc' });
    expect(all.map((p) => p.path)).toEqual(['one', 'two', 'made-by-gitbeaker']);

    const keyset = await api.Projects.all({ pagination: 'keyset', perPage: 2, orderBy: 'id', sort: 'asc' });
    expect(keyset.map((p) => p.path)).toEqual(['one', 'two', 'made-by-gitbeaker']);

    const groups = await api.Groups.all({ perPage: 1 });
    expect(groups.map((g) => g.full_path).sort()).toEqual(['acme', 'beakers']);
  });

  it('surfaces GitLab\'s errors to the client', async () => {
    const api = new Gitlab({ host: server.url, token: TOKEN });
    await expect(api.Projects.show('acme/nope')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    const anonymous = new Gitlab({ host: server.url, token: 'wrong' });
    await expect(anonymous.Users.showCurrentUser()).rejects.toMatchObject({ cause: { response: { status: 401 } } });
  });
});

describe('both network doors at once', () => {
  const msw = setupServer();
  let gitlab: Emulator;
  let server: Server;
  beforeAll(async () => {
    gitlab = await createEmulator({ fixture });
    server = await gitlab.listen({ port: 0 });
    msw.listen({ onUnhandledRequest: 'bypass' });
    msw.use(...handlers(gitlab));
  });
  afterAll(async () => {
    msw.close();
    await server.close();
  });

  it('serve one world: what one door writes, the other reads', async () => {
    const api = new Gitlab({ host: server.url, token: TOKEN });
    const viaServer = await api.Projects.create({ name: 'Written by the server door' });
    const readViaMsw = await fetch(`${ORIGIN}/api/v4/projects/${viaServer.id}`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(((await readViaMsw.json()) as { name: string }).name).toBe('Written by the server door');

    const viaMsw = await fetch(`${ORIGIN}/api/v4/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Written by the MSW door' }),
    });
    const { id } = (await viaMsw.json()) as { id: number };
    const readViaServer = await api.Projects.show(id);
    expect(readViaServer.name).toBe('Written by the MSW door');
    // Each door renders URLs at the origin its client used.
    expect(readViaServer.web_url.startsWith(server.url)).toBe(true);
  });
});
