// Runners created through POST /user/runners and managed through /runners (lib/api/user_runners.rb,
// lib/api/ci/runners.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'alice', tokens: [{ token: 'alice-token' }, { token: 'alice-runner', scopes: ['create_runner'] }, { token: 'alice-read', scopes: ['read_api'] }] },
    { username: 'mai', tokens: [{ token: 'mai-token' }] },
    { username: 'out', tokens: [{ token: 'out-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'alice', access_level: 'owner' }, { user: 'mai', access_level: 'maintainer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private' }],
};

const world = seededWorld(FIXTURE, '2024-03-01T12:00:00.000Z');

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const groupId = async () => (await call('GET', '/groups/acme', 'root-token')).body.id as number;

describe('POST /user/runners', () => {
  it('an owner creates a group runner with a create_runner token and gets its token once', async () => {
    const res = await call('POST', '/user/runners', 'alice-runner', { runner_type: 'group_type', group_id: await groupId(), description: 'builder', tag_list: 'linux,docker' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    const shown = await call('GET', `/runners/${res.body.id}`, 'alice-token');
    expect(shown.body).toMatchObject({ description: 'builder', runner_type: 'group_type', is_shared: false, paused: false, status: 'never_contacted', tag_list: ['linux', 'docker'], run_untagged: true, locked: false, groups: [{ name: 'acme' }] });
    expect(shown.body).not.toHaveProperty('token');
  });

  it('needs the create_runner or api scope', async () => {
    expect((await call('POST', '/user/runners', 'alice-read', { runner_type: 'group_type', group_id: await groupId() })).status).toBe(403);
  });

  it('instance runners need an administrator; project and group runners an owner', async () => {
    expect(await call('POST', '/user/runners', 'alice-token', { runner_type: 'instance_type' })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Insufficient permissions' } });
    expect((await call('POST', '/user/runners', 'root-token', { runner_type: 'instance_type' })).status).toBe(201);
    expect((await call('POST', '/user/runners', 'mai-token', { runner_type: 'group_type', group_id: await groupId() })).status).toBe(403);
    expect((await call('POST', '/user/runners', 'alice-token', { runner_type: 'project_type', project_id: 'acme/app' })).status).toBe(400);
    const project = (await call('GET', '/projects/acme%2Fapp', 'alice-token')).body.id;
    expect((await call('POST', '/user/runners', 'alice-token', { runner_type: 'project_type', project_id: project })).status).toBe(201);
    expect(await call('POST', '/user/runners', 'alice-token', { runner_type: 'project_type', project_id: 9999 })).toMatchObject({ status: 400, body: { message: '400 Bad request - Missing/invalid scope' } });
    expect(await call('POST', '/user/runners', 'alice-token', { runner_type: 'group_type' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "group_id" not given' } });
    expect((await call('POST', '/user/runners', 'alice-token', { runner_type: 'shared' })).status).toBe(400);
  });

  it('refuses owners while an administrator restricts registration', async () => {
    world().configure({ settings: { runner_registration_restricted: true } });
    expect((await call('POST', '/user/runners', 'alice-token', { runner_type: 'group_type', group_id: await groupId() })).status).toBe(403);
    expect((await call('POST', '/user/runners', 'root-token', { runner_type: 'group_type', group_id: await groupId() })).status).toBe(201);
  });

  it('limits the maintenance note to 1024 characters', async () => {
    expect((await call('POST', '/user/runners', 'alice-token', { runner_type: 'group_type', group_id: await groupId(), maintenance_note: 'x'.repeat(1025) })).body).toEqual({
      message: { maintenance_note: ['is too long (maximum is 1024 characters)'] },
    });
  });
});

describe('/runners', () => {
  it('a group\'s runners go with the group', async () => {
    const id = (await call('POST', '/user/runners', 'alice-token', { runner_type: 'group_type', group_id: await groupId() })).body.id;
    expect((await call('DELETE', '/groups/acme', 'alice-token')).status).toBe(202);
    world().runUntilIdle();
    expect((await call('GET', `/runners/${id}`, 'root-token')).status).toBe(404);
  });

  it('lists the caller\'s runners, all runners for administrators, changes and removes them', async () => {
    const group = (await call('POST', '/user/runners', 'alice-token', { runner_type: 'group_type', group_id: await groupId(), description: 'g' })).body.id;
    const shared = (await call('POST', '/user/runners', 'root-token', { runner_type: 'instance_type', description: 's' })).body.id;
    expect((await call('GET', '/runners', 'alice-token')).body.map((r: { id: number }) => r.id)).toEqual([group]);
    expect((await call('GET', '/runners', 'out-token')).body).toEqual([]);
    expect((await call('GET', '/runners/all', 'root-token')).body.map((r: { id: number }) => r.id)).toEqual([group, shared]);
    expect((await call('GET', '/runners/all?type=instance_type', 'root-token')).body.map((r: { id: number }) => r.id)).toEqual([shared]);
    expect((await call('GET', '/runners/all', 'alice-token')).status).toBe(403);
    expect(await call('GET', `/runners/${group}`, 'out-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden - No access granted' } });
    expect((await call('GET', `/runners/${shared}`, 'out-token')).status).toBe(200);
    expect((await call('PUT', `/runners/${group}`, 'alice-token', { paused: true, tag_list: ['x'] })).body).toMatchObject({ paused: true, active: false, tag_list: ['x'] });
    expect((await call('GET', '/runners?paused=true', 'alice-token')).body).toHaveLength(1);
    expect((await call('PUT', `/runners/${shared}`, 'alice-token', { paused: true })).status).toBe(403);
    expect((await call('DELETE', `/runners/${group}`, 'out-token')).status).toBe(403);
    expect((await call('DELETE', `/runners/${group}`, 'alice-token')).status).toBe(204);
    expect(await call('GET', `/runners/${group}`, 'alice-token')).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
  });
});
