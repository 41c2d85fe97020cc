// What hostile or careless clients send the pipeline itself: names outside Latin-1 in header
// values, lone surrogates in JSON, bodies over the size limit, clients that hang up mid-body.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject } from './support/world.js';

const NOW = '2026-03-01T12:00:00Z';
const world = seededWorld(
  {
    users: TEAM,
    groups: [ACME],
    projects: [teamProject({ repository: { files: { 'README.md': '# app\n', 'docs/guide.md': 'guide\n' } }, releases: [] })],
  },
  NOW,
);
const APP = '/projects/acme%2Fapp';
const TOKEN = 'maintainer-token';

describe('header values carry any name', () => {
  it('a file named outside Latin-1 is created and read: metadata, HEAD, raw and blame', async () => {
    const e = world();
    const path = encodeURIComponent('日本/🎉.txt');
    const made = await apiCall(e, `${APP}/repository/files/${path}`, { method: 'POST', token: TOKEN, json: { branch: 'main', content: 'x\n', commit_message: 'add' } });
    expect(made.status).toBe(201);
    const head = await apiCall(e, `${APP}/repository/files/${path}?ref=main`, { method: 'HEAD', token: TOKEN });
    expect(head.status).toBe(200);
    // The name goes out as its UTF-8 bytes, as GitLab's Rack sends it.
    expect(Buffer.from(head.headers.get('x-gitlab-file-name')!, 'latin1').toString('utf8')).toBe('🎉.txt');
    expect((await apiCall(e, `${APP}/repository/files/${path}?ref=main`, { token: TOKEN })).status).toBe(200);
    const raw = await apiCall(e, `${APP}/repository/files/${path}/raw?ref=main`, { token: TOKEN });
    expect([raw.status, await raw.text()]).toEqual([200, 'x\n']);
    expect((await apiCall(e, `${APP}/repository/files/${path}/blame?ref=main`, { token: TOKEN })).status).toBe(200);
    expect(e.journal.entries().slice(-5).map((j) => [j.status, j.error])).toEqual([[201, undefined], [200, undefined], [200, undefined], [200, undefined], [200, undefined]]);
  });

  it('a branch named outside Latin-1 is created, read, listed and archived', async () => {
    const e = world();
    expect((await apiCall(e, `${APP}/repository/branches`, { method: 'POST', token: TOKEN, json: { branch: '日本', ref: 'main' } })).status).toBe(201);
    expect((await apiCall(e, `${APP}/repository/branches/${encodeURIComponent('日本')}`, { token: TOKEN })).status).toBe(200);
    expect((await (await apiCall(e, `${APP}/repository/branches`, { token: TOKEN })).json()).map((b: { name: string }) => b.name)).toContain('日本');
    const archive = await apiCall(e, `${APP}/repository/archive.zip?sha=${encodeURIComponent('日本')}`, { token: TOKEN });
    expect(archive.status).toBe(200);
    expect(Buffer.from(archive.headers.get('content-disposition')!, 'latin1').toString('utf8')).toContain('日本');
  });

  it('a control character in an archive path cannot break the Content-Disposition header', async () => {
    const e = world();
    const res = await apiCall(e, `${APP}/repository/archive.tar?path=${encodeURIComponent('docs\r\nX-Injected: 1')}`, { token: TOKEN });
    expect(res.status).not.toBe(500);
    expect(res.headers.get('x-injected')).toBeNull();
    expect(e.journal.last()!.error).toBeUndefined();
  });

  it('the latest-release permalink keeps an emoji suffix in its Location, percent-encoded', async () => {
    const e = world();
    expect((await apiCall(e, `${APP}/releases`, { method: 'POST', token: TOKEN, json: { tag_name: 'v1', ref: 'main' } })).status).toBe(201);
    const res = await apiCall(e, `${APP}/releases/permalink/latest/${encodeURIComponent('🎉')}`, { token: TOKEN, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/\/releases\/v1\/%F0%9F%8E%89$/);
  });
});

describe('a JSON body with a lone surrogate', () => {
  it('is 400, changes nothing, and leaves the lists readable', async () => {
    const e = world();
    const before = e.state;
    const res = await apiCall(e, `${APP}/repository/branches`, { method: 'POST', token: TOKEN, headers: { 'Content-Type': 'application/json' }, body: '{"branch":"\\ud800x","ref":"main"}' });
    expect([res.status, await res.text()]).toEqual([400, 'Bad Request']);
    expect(e.state).toBe(before);
    expect((await apiCall(e, `${APP}/repository/branches`, { token: TOKEN })).status).toBe(200);
    const key = await apiCall(e, '/projects', { method: 'POST', token: TOKEN, headers: { 'Content-Type': 'application/json' }, body: '{"name":"ok","\\udc00":1}' });
    expect(key.status).toBe(400);
  });
});

describe('a body over the size limit', () => {
  let e: Emulator;
  beforeAll(async () => {
    e = await createEmulator({ fixture: { users: TEAM, groups: [ACME], projects: [teamProject()] }, maxBodySize: 1024 });
  });

  it('is 413 with nginx\'s page, whether its length is declared or streamed, and changes nothing', async () => {
    const before = e.state;
    const big = JSON.stringify({ description: 'x'.repeat(2048) });
    const declared = await apiCall(e, APP, { method: 'PUT', token: TOKEN, headers: { 'Content-Type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toContain('413 Request Entity Too Large');
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode('x'.repeat(400)));
        c.close();
      },
    });
    const streamed = await apiCall(e, APP, { method: 'PUT', token: TOKEN, headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(e.state).toBe(before);
    expect(e.journal.last()).toMatchObject({ status: 413, method: 'PUT' });
    expect((await apiCall(e, APP, { method: 'PUT', token: TOKEN, json: { description: 'small' } })).status).toBe(200);
  });
});

describe('over the node door', () => {
  let e: Emulator;
  let server: Server;
  beforeAll(async () => {
    e = await createEmulator({ fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ path: 'website', visibility: 'public' })] } });
    server = await e.listen({ port: 0 });
  });
  afterAll(() => server.close());

  it('a client that hangs up mid-body is journaled as aborted (499), not as a defect', async () => {
    const seq = e.journal.last()?.seq ?? 0;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`PUT /api/v4/projects/1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nPRIVATE-TOKEN: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"desc`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server notices the hang-up on its own time: wait for the entry (the test's timeout bounds it).
    while (!e.journal.entries().some((j) => j.seq > seq)) await new Promise((r) => setTimeout(r, 10));
    expect(e.journal.last()).toMatchObject({ method: 'PUT', status: 499, aborted: true });
    expect(e.journal.last()!.error).toBeUndefined();
  });

  it('ssh_url_to_repo follows GitLab\'s ssh_path_prefix: git@host:path.git, without the web port', async () => {
    const res = await fetch(`${server.url}/api/v4/projects/1`);
    const body = (await res.json()) as { ssh_url_to_repo: string; http_url_to_repo: string };
    expect(body.ssh_url_to_repo).toBe('git@127.0.0.1:acme/website.git');
    expect(body.http_url_to_repo).toBe(`${server.url}/acme/website.git`);
  });
});
