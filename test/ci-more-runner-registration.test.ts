// Runner registration tokens (lib/api/ci/runner.rb POST /runners, Ci::Runners::RegisterRunnerService,
// reset_registration_token of the instance, a project and a group): off by default as since
// GitLab 17.0 (410 `runner registration disallowed`), and when the instance allows them, the
// instance's token registers an instance runner and a project's or group's `runners_token` one of
// theirs, whose `glrt-` token then takes jobs; a reset token replaces the old one.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const project = { namespace: 'acme', path: 'app', visibility: 'private' as const, creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'README.md': '# app\n' } } };
const ALLOWED: Fixture = { users: TEAM, groups: [{ ...ACME, members: [{ user: 'mai', access_level: 'owner' }] }], projects: [project], runner_registration: { allowed: true, token: 'GR1348941instance-secret' } };
const OFF: Fixture = { users: TEAM, groups: [ACME], projects: [project] };

async function call(e: ReturnType<ReturnType<typeof seededWorld>>, method: string, path: string, json?: unknown, token?: string) {
  const res = await apiCall(e, path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('runner registration tokens, off (GitLab 17.0 and later)', () => {
  const world = seededWorld(OFF, NOW);
  it('refuses every registration with 410 and every reset with 403', async () => {
    // Project#runners_token: none while registration tokens are off.
    const project = (await call(world(), 'GET', '/projects/acme%2Fapp', undefined, 'maintainer-token')).body;
    expect(project.runners_token).toBeNull();
    const token = `GR1348941${String(project.id).padStart(20, '0')}`;
    expect(await call(world(), 'POST', '/runners', { token })).toEqual({ status: 410, body: { message: '410 Gone', reason: 'runner registration disallowed' } });
    expect(await call(world(), 'POST', '/runners', { token: 'anything' })).toEqual({ status: 410, body: { message: '410 Gone', reason: 'runner registration disallowed' } });
    expect((await call(world(), 'POST', '/runners/reset_registration_token', undefined, 'root-token')).status).toBe(403);
    expect((await call(world(), 'POST', '/projects/acme%2Fapp/runners/reset_registration_token', undefined, 'maintainer-token')).status).toBe(403);
  });
});

describe('runner registration tokens, allowed', () => {
  const world = seededWorld(ALLOWED, NOW);

  it('registers an instance runner with the instance token, which then verifies and asks for jobs', async () => {
    const made = await call(world(), 'POST', '/runners', { token: 'GR1348941instance-secret', description: 'shared', tag_list: 'docker,linux', paused: false });
    expect(made).toEqual({ status: 201, body: { id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null } });
    const runner = (await call(world(), 'GET', `/runners/${made.body.id}`, undefined, 'root-token')).body;
    expect(runner).toMatchObject({ runner_type: 'instance_type', description: 'shared', tag_list: ['docker', 'linux'], paused: false, status: 'never_contacted' });
    expect((await call(world(), 'POST', '/runners/verify', { token: made.body.token })).status).toBe(200);
    expect((await call(world(), 'POST', '/jobs/request', { token: made.body.token })).status).toBe(204);
  });

  it('registers a project runner with the project\'s runners_token, and a group runner with the group\'s', async () => {
    const token = (await call(world(), 'GET', '/projects/acme%2Fapp', undefined, 'maintainer-token')).body.runners_token;
    const made = await call(world(), 'POST', '/runners', { token, maintainer_note: 'old note', active: false });
    expect(made.status).toBe(201);
    expect((await call(world(), 'GET', `/runners/${made.body.id}`, undefined, 'root-token')).body).toMatchObject({ runner_type: 'project_type', paused: true, maintenance_note: 'old note' });
    const reset = await call(world(), 'POST', '/groups/acme/runners/reset_registration_token', undefined, 'maintainer-token');
    expect(reset).toEqual({ status: 201, body: { token: expect.stringMatching(/^GR1348941/), token_expires_at: null } });
    const groupRunner = await call(world(), 'POST', '/runners', { token: reset.body.token });
    expect((await call(world(), 'GET', `/runners/${groupRunner.body.id}`, undefined, 'root-token')).body).toMatchObject({ runner_type: 'group_type' });
  });

  it('refuses an unknown token as invalid, and checks the runner\'s values', async () => {
    expect(await call(world(), 'POST', '/runners', { token: 'nope' })).toEqual({ status: 403, body: { message: '403 Forbidden - invalid token supplied' } });
    expect((await call(world(), 'POST', '/runners', { token: 'GR1348941instance-secret', active: true, paused: false })).status).toBe(400);
    expect(await call(world(), 'POST', '/runners', { token: 'GR1348941instance-secret', maximum_timeout: 60 })).toEqual({ status: 400, body: { message: { maximum_timeout: ['needs to be at least 10 minutes'] } } });
    expect((await call(world(), 'POST', '/runners', { token: 'GR1348941instance-secret', access_level: 'everyone' })).status).toBe(400);
  });

  it('a reset replaces the token: the old one no longer registers', async () => {
    const old = (await call(world(), 'GET', '/projects/acme%2Fapp', undefined, 'maintainer-token')).body.runners_token;
    expect((await call(world(), 'POST', '/projects/acme%2Fapp/runners/reset_registration_token', undefined, 'dev-token')).status).toBe(403);
    const fresh = await call(world(), 'POST', '/projects/acme%2Fapp/runners/reset_registration_token', undefined, 'maintainer-token');
    expect(fresh.status).toBe(201);
    expect((await call(world(), 'POST', '/runners', { token: old })).status).toBe(403);
    expect((await call(world(), 'POST', '/runners', { token: fresh.body.token })).status).toBe(201);
    // The project shows its token as it is now.
    expect((await call(world(), 'GET', '/projects/acme%2Fapp', undefined, 'maintainer-token')).body.runners_token).toBe(fresh.body.token);
    // The instance's: administrators only.
    expect((await call(world(), 'POST', '/runners/reset_registration_token', undefined, 'maintainer-token')).status).toBe(403);
    const instance = await call(world(), 'POST', '/runners/reset_registration_token', undefined, 'root-token');
    expect(instance.status).toBe(201);
    expect((await call(world(), 'POST', '/runners', { token: 'GR1348941instance-secret' })).status).toBe(403);
    expect((await call(world(), 'POST', '/runners', { token: instance.body.token })).status).toBe(201);
  });
});
