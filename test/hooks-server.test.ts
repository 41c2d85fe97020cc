// Deliveries through the server door: a real HTTP receiver on node:http gets GitLab's requests;
// a failing receiver backs its hook off on the emulator's clock (WebHooks::AutoDisabling), and
// advancing the clock brings it back; test triggers and a system hook's test send samples.
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { ACME, TEAM, teamProject } from './support/world.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const NOW = '2026-05-04T10:00:00Z';

interface Got {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

let emulator: Emulator;
let server: Server;
let receiver: HttpServer;
let receiverUrl: string;
let got: Got[] = [];
let status = 200;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(body) });
      res.writeHead(status, { 'Content-Type': 'application/json', 'X-Receiver': 'yes' });
      res.end(JSON.stringify({ status }));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  emulator = await createEmulator({ clock: { now: NOW, frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject()] } });
  server = await emulator.listen({ port: 0 });
});
afterAll(async () => {
  await server.close();
  await new Promise((r) => receiver.close(r));
});
afterEach(() => {
  got = [];
  status = 200;
});

const api = async (path: string, method = 'GET', body?: unknown, token = 'maintainer-token') => {
  const res = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};

const P = '/projects/acme%2Fapp';

describe('the server door', () => {
  it('a real receiver gets the issue hook; the log keeps its answer', async () => {
    const hook = (await api(`${P}/hooks`, 'POST', { url: `${receiverUrl}/in`, issues_events: true, custom_headers: [{ key: 'X-Team', value: 'ops' }] })).body;
    expect((await api(`${P}/issues`, 'POST', { title: 'Over HTTP' })).status).toBe(201);
    await emulator.hooks.settled();
    expect(got).toHaveLength(1);
    expect(got[0]!.path).toBe('/in');
    expect(got[0]!.headers).toMatchObject({ 'x-gitlab-event': 'Issue Hook', 'x-team': 'ops', 'content-type': 'application/json' });
    expect(got[0]!.body).toMatchObject({ object_kind: 'issue', object_attributes: { title: 'Over HTTP', action: 'open' } });
    const [log] = (await api(`${P}/hooks/${hook.id}/events`)).body;
    expect(log).toMatchObject({ response_status: '200', response_body: '{"status":200}', response_headers: { 'X-Receiver': 'yes' }, execution_duration: 0 });
    await api(`${P}/hooks/${hook.id}`, 'DELETE');
  });

  it('four failures in a row back the hook off for a minute; the clock brings it back', async () => {
    const hook = (await api(`${P}/hooks`, 'POST', { url: `${receiverUrl}/fail`, issues_events: true, push_events: false })).body;
    status = 500;
    for (let i = 1; i <= 4; i++) {
      await api(`${P}/issues`, 'POST', { title: `fail ${i}` });
      await emulator.hooks.settled();
    }
    expect(got).toHaveLength(4);
    expect((await api(`${P}/hooks/${hook.id}`)).body).toMatchObject({ alert_status: 'temporarily_disabled', disabled_until: '2026-05-04T10:01:00.000Z' });
    await api(`${P}/issues`, 'POST', { title: 'while disabled' });
    await emulator.hooks.settled();
    expect(got).toHaveLength(4);
    emulator.clock.advance('61s');
    expect((await api(`${P}/hooks/${hook.id}`)).body).toMatchObject({ alert_status: 'executable', disabled_until: null });
    await api(`${P}/issues`, 'POST', { title: 'fails again' });
    await emulator.hooks.settled();
    // The fifth failure doubles the backoff.
    expect((await api(`${P}/hooks/${hook.id}`)).body).toMatchObject({ alert_status: 'temporarily_disabled', disabled_until: '2026-05-04T10:03:01.000Z' });
    emulator.clock.advance('3m');
    status = 200;
    await api(`${P}/issues`, 'POST', { title: 'works' });
    await emulator.hooks.settled();
    expect(got.map((g) => g.body.object_attributes.title)).toEqual(['fail 1', 'fail 2', 'fail 3', 'fail 4', 'fails again', 'works']);
    expect((await api(`${P}/hooks/${hook.id}`)).body).toMatchObject({ alert_status: 'executable' });
    await api(`${P}/hooks/${hook.id}`, 'DELETE');
  });

  it('a receiver that refuses the connection is logged as an internal error', async () => {
    const hook = (await api(`${P}/hooks`, 'POST', { url: 'http://127.0.0.1:1/none', issues_events: true })).body;
    await api(`${P}/issues`, 'POST', { title: 'nobody' });
    await emulator.hooks.settled();
    const [log] = (await api(`${P}/hooks/${hook.id}/events`)).body;
    expect(log.response_status).toBe('internal error');
    expect(log.response_body).not.toBe('');
    await api(`${P}/hooks/${hook.id}`, 'DELETE');
  });

  it('test triggers: GitLab\'s message without data, the project\'s own sample with it', async () => {
    const fresh = (await api('/projects', 'POST', { name: 'fresh' }, 'root-token')).body;
    const F = `/projects/${fresh.id}`;
    const root = (path: string, method = 'GET', body?: unknown) => api(path, method, body, 'root-token');
    const hook = (await root(`${F}/hooks`, 'POST', { url: `${receiverUrl}/test` })).body;
    const none = await root(`${F}/hooks/${hook.id}/test/issues_events`, 'POST');
    expect(none).toEqual({ status: 422, body: { message: 'Ensure the project has issues.' } });
    const empty = await root(`${F}/hooks/${hook.id}/test/push_events`, 'POST');
    expect(empty).toEqual({ status: 422, body: { message: 'Ensure the project has at least one commit.' } });
    expect((await root(`${F}/hooks/${hook.id}/test/bogus`, 'POST')).status).toBe(400);
    await root(`${F}/issues`, 'POST', { title: 'Sampled' });
    expect(await root(`${F}/hooks/${hook.id}/test/issues_events`, 'POST')).toEqual({ status: 201, body: { message: '201 Created' } });
    await emulator.hooks.settled();
    expect(got.map((g) => [g.headers['x-gitlab-event'], g.body.object_attributes.title])).toEqual([['Issue Hook', 'Sampled']]);
    await root(`${F}/hooks/${hook.id}`, 'DELETE');
  });

  it.skipIf(!HAS_GIT)('a push with git over HTTP delivers the same Push Hook as a commit through the API', async () => {
    const hook = (await api(`${P}/hooks`, 'POST', { url: `${receiverUrl}/push`, push_events: true })).body;
    const git = new GitScratch();
    try {
      await git.ok(['clone', '-q', withCredentials(`${server.url}/acme/app.git`, 'mai', 'maintainer-token'), 'a']);
      await git.ok(['-c', 'user.name=Mai', '-c', 'user.email=mai@example.com', 'commit', '-q', '--allow-empty', '-m', 'Over git\n\nBody'], 'a');
      const pushed = await git.run(['push', '-q', 'origin', 'HEAD:main'], 'a');
      expect(pushed.code).toBe(0);
      const sha = (await git.ok(['rev-parse', 'HEAD'], 'a')).trim();
      await api(`${P}/repository/commits`, 'POST', { branch: 'main', commit_message: 'Over the API', actions: [{ action: 'create', file_path: 'api.txt', content: 'x' }] });
      await emulator.hooks.settled();
      const [byGit, byApi] = got.filter((g) => g.path === '/push').map((g) => g.body);
      expect(byGit).toMatchObject({ object_kind: 'push', after: sha, ref: 'refs/heads/main', user_username: 'mai', total_commits_count: 1, commits: [{ id: sha, title: 'Over git', added: [], modified: [], removed: [] }] });
      expect(byApi).toMatchObject({ object_kind: 'push', before: sha, ref: 'refs/heads/main', user_username: 'mai', total_commits_count: 1, commits: [{ title: 'Over the API', added: ['api.txt'] }] });
      expect(Object.keys(byGit).sort()).toEqual(Object.keys(byApi).sort());
    } finally {
      git.remove();
      await api(`${P}/hooks/${hook.id}`, 'DELETE');
    }
  });

  it.skipIf(!HAS_GIT)('a push with git tells the system hooks with repository update events, once a push, every ref', async () => {
    const hook = (await api('/hooks', 'POST', { url: `${receiverUrl}/repo` }, 'root-token')).body;
    const off = (await api('/hooks', 'POST', { url: `${receiverUrl}/off`, repository_update_events: false }, 'root-token')).body;
    expect(hook.repository_update_events).toBe(true);
    const git = new GitScratch();
    try {
      await git.ok(['clone', '-q', withCredentials(`${server.url}/acme/app.git`, 'mai', 'maintainer-token'), 'a']);
      const before = (await git.ok(['rev-parse', 'HEAD'], 'a')).trim();
      await git.ok(['-c', 'user.name=Mai', '-c', 'user.email=mai@example.com', 'commit', '-q', '--allow-empty', '-m', 'Two refs'], 'a');
      await git.ok(['tag', 'v9'], 'a');
      const after = (await git.ok(['rev-parse', 'HEAD'], 'a')).trim();
      expect((await git.run(['push', '-q', 'origin', 'HEAD:main', 'HEAD:refs/heads/side', 'v9'], 'a')).code).toBe(0);
      // A commit through the API is no push over git: no repository update.
      await api(`${P}/repository/commits`, 'POST', { branch: 'main', commit_message: 'Over the API', actions: [{ action: 'create', file_path: 'r.txt', content: 'x' }] });
      await emulator.hooks.settled();
      const sent = got.filter((g) => g.path === '/repo');
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers['x-gitlab-event']).toBe('System Hook');
      const blank = '0'.repeat(40);
      expect(sent[0]!.body).toMatchObject({
        event_name: 'repository_update', user_name: 'Mai Ntainer', project_id: expect.any(Number),
        project: { path_with_namespace: 'acme/app' },
        changes: expect.arrayContaining([{ before, after, ref: 'refs/heads/main' }, { before: blank, after, ref: 'refs/heads/side' }, { before: blank, after: expect.any(String), ref: 'refs/tags/v9' }]),
        refs: expect.arrayContaining(['refs/heads/main', 'refs/heads/side', 'refs/tags/v9']),
      });
      expect(sent[0]!.body.user_avatar).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\//);
      expect(got.filter((g) => g.path === '/off')).toEqual([]);
    } finally {
      git.remove();
      await api(`/hooks/${hook.id}`, 'DELETE', undefined, 'root-token');
      await api(`/hooks/${off.id}`, 'DELETE', undefined, 'root-token');
    }
  });

  it('a system hook\'s test sends GitLab\'s sample as a System Hook', async () => {
    const hook = (await api('/hooks', 'POST', { url: `${receiverUrl}/system` }, 'root-token')).body;
    const res = await api(`/hooks/${hook.id}`, 'POST', undefined, 'root-token');
    expect(res).toEqual({ status: 201, body: { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' } });
    await emulator.hooks.settled();
    expect(got.map((g) => [g.path, g.headers['x-gitlab-event'], g.body.event_name])).toEqual([['/system', 'System Hook', 'project_create']]);
    await api(`/hooks/${hook.id}`, 'DELETE', undefined, 'root-token');
  });
});
