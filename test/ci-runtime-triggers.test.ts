// Trigger tokens and pipeline schedules: CRUD as GitLab answers it, a trigger token running a
// pipeline with variables, and schedules firing on the clock in their time zone.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';
import { nextRun, parseCron } from '../src/families/ci/cron.js';

const NOW = '2024-03-01T12:00:00.000Z';
const CI = 'build:\n  script: [make]\n  rules:\n    - if: $CI_PIPELINE_SOURCE != "push"\n';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ repository: { files: { 'README.md': '# App\n', '.gitlab-ci.yml': CI } } })],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token: string | undefined = 'mai-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

describe('trigger tokens', () => {
  it('are created, listed and deleted by maintainers; others see only the start of a token', async () => {
    const made = await call('POST', `${APP}/triggers`, 'maintainer-token', { description: 'deploy hook' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ description: 'deploy hook', owner: { username: 'mai' }, last_used: null, token: expect.stringMatching(/^glptt-[0-9a-f]{40}$/) });
    expect((await call('POST', `${APP}/triggers`, 'dev-token', { description: 'x' })).status).toBe(403);
    const rootView = await call('GET', `${APP}/triggers/${made.body.id}`, 'root-token');
    expect(rootView.body.token).toBe(made.body.token.slice(6, 10));
    expect((await call('GET', `${APP}/triggers`, 'maintainer-token')).body.map((t: { id: number }) => t.id)).toEqual([made.body.id]);
    expect((await call('PUT', `${APP}/triggers/${made.body.id}`, 'root-token', { description: 'mine now?' })).status).toBe(403);
    expect((await call('PUT', `${APP}/triggers/${made.body.id}`, 'maintainer-token', { description: 'renamed' })).body.description).toBe('renamed');
    expect((await call('GET', `${APP}/triggers/999`, 'maintainer-token'))).toEqual({ status: 404, body: { message: '404 Trigger Not Found' } });
    expect((await call('DELETE', `${APP}/triggers/${made.body.id}`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${APP}/triggers`, 'maintainer-token')).body).toEqual([]);
  });

  it('run a pipeline for a ref with variables, as the trigger\'s owner (source trigger); a wrong token is 404', async () => {
    const { body: trigger } = await call('POST', `${APP}/triggers`, 'maintainer-token', { description: 't' });
    const res = await call('POST', `${APP}/trigger/pipeline`, undefined, { token: trigger.token, ref: 'main', variables: { DEPLOY: 'yes' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source: 'trigger', ref: 'main', user: { username: 'mai' }, status: 'pending' });
    expect(world().ci('acme/app').getPipeline(res.body.id).variables).toEqual([{ key: 'DEPLOY', value: 'yes', variableType: 'env_var' }]);
    expect((await call('GET', `${APP}/triggers/${trigger.id}`, 'maintainer-token')).body.last_used).toBe(NOW);
    expect((await call('POST', `${APP}/trigger/pipeline`, undefined, { token: 'glptt-wrong', ref: 'main' })).status).toBe(404);
    expect(await call('POST', `${APP}/trigger/pipeline`, undefined, { token: trigger.token, ref: 'main', variables: { A: 1 } })).toEqual({ status: 400, body: { message: 'variables needs to be a map of key-valued strings' } });
    expect(await call('POST', `${APP}/trigger/pipeline`, undefined, { token: trigger.token, ref: 'nope' })).toEqual({ status: 400, body: { message: { base: ['Reference not found'] } } });
  });
});

describe('pipeline schedules', () => {
  it('are created with their next run in their time zone, changed, owned and deleted', async () => {
    const made = await call('POST', `${APP}/pipeline_schedules`, 'dev-token', { description: 'nightly', ref: 'main', cron: '0 2 * * *', cron_timezone: 'Europe/Berlin' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ description: 'nightly', cron_timezone: 'Europe/Berlin', active: true, next_run_at: '2024-03-02T01:00:00.000Z', owner: { username: 'dev' }, last_pipeline: null, variables: [] });
    expect(await call('POST', `${APP}/pipeline_schedules`, 'dev-token', { description: 'bad', ref: 'main', cron: '61 * * * *' })).toEqual({ status: 400, body: { message: { cron: [' is invalid syntax'] } } });
    expect((await call('POST', `${APP}/pipeline_schedules`, 'reporter-token', { description: 'x', ref: 'main', cron: '* * * * *' })).status).toBe(403);
    const id = made.body.id;
    expect((await call('PUT', `${APP}/pipeline_schedules/${id}`, 'maintainer-token', { active: false })).status).toBe(403);
    const taken = await call('POST', `${APP}/pipeline_schedules/${id}/take_ownership`, 'maintainer-token');
    expect(taken.status).toBe(201);
    expect(taken.body.owner.username).toBe('mai');
    expect((await call('PUT', `${APP}/pipeline_schedules/${id}`, 'maintainer-token', { cron: '30 * * * *', cron_timezone: 'UTC' })).body.next_run_at).toBe('2024-03-01T12:30:00.000Z');
    const v = await call('POST', `${APP}/pipeline_schedules/${id}/variables`, 'maintainer-token', { key: 'NIGHTLY', value: '1' });
    expect(v).toEqual({ status: 201, body: { variable_type: 'env_var', key: 'NIGHTLY', value: '1', raw: false } });
    expect((await call('POST', `${APP}/pipeline_schedules/${id}/variables`, 'maintainer-token', { key: 'NIGHTLY', value: '2' })).body).toEqual({ message: { key: ['has already been taken'] } });
    expect((await call('GET', `${APP}/pipeline_schedules?scope=inactive`, 'dev-token')).body).toEqual([]);
    expect((await call('DELETE', `${APP}/pipeline_schedules/${id}`, 'dev-token')).status).toBe(403);
    expect((await call('DELETE', `${APP}/pipeline_schedules/${id}`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${APP}/pipeline_schedules/${id}`, 'dev-token'))).toEqual({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
  });

  it('runs its pipeline when the clock passes its time, and on play, with its variables', async () => {
    const e = world();
    const { body: s } = await call('POST', `${APP}/pipeline_schedules`, 'dev-token', { description: 'hourly', ref: 'main', cron: '0 * * * *' });
    await call('POST', `${APP}/pipeline_schedules/${s.id}/variables`, 'dev-token', { key: 'WHO', value: 'cron' });
    e.clock.advance('59m');
    await e.settled();
    expect((await call('GET', `${APP}/pipelines`, 'dev-token')).body).toEqual([]);
    e.clock.advance('1m');
    await e.settled();
    const list = (await call('GET', `${APP}/pipelines`, 'dev-token')).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ source: 'schedule', ref: 'main' });
    expect(e.ci('acme/app').getPipeline(list[0].id).variables).toEqual([{ key: 'WHO', value: 'cron', variableType: 'env_var' }]);
    const details = (await call('GET', `${APP}/pipeline_schedules/${s.id}`, 'dev-token')).body;
    expect(details).toMatchObject({ last_pipeline: { id: list[0].id }, next_run_at: '2024-03-01T14:00:00.000Z' });
    expect(await call('POST', `${APP}/pipeline_schedules/${s.id}/play`, 'dev-token')).toEqual({ status: 201, body: { message: '201 Created' } });
    expect((await call('GET', `${APP}/pipeline_schedules/${s.id}/pipelines`, 'dev-token')).body).toHaveLength(2);
  });
});

describe('cron', () => {
  it('reads GitLab\'s cron syntax and finds the next time in a zone, across a change of offset', () => {
    expect(parseCron('*/15 9-17 * * MON-FRI')).not.toBeNull();
    expect(parseCron('@daily')).not.toBeNull();
    expect(parseCron('* * *')).toBeNull();
    const weekdays = parseCron('0 9 * * 1-5')!;
    // Friday 2024-03-01 12:00 UTC is 07:00 in New York: 09:00 there is 14:00 UTC; after it, Monday's.
    expect(new Date(nextRun(weekdays, 'America/New_York', Date.parse(NOW))!).toISOString()).toBe('2024-03-01T14:00:00.000Z');
    expect(new Date(nextRun(weekdays, 'America/New_York', Date.parse('2024-03-01T14:00:00Z'))!).toISOString()).toBe('2024-03-04T14:00:00.000Z');
    // Berlin moves to summer time on 2024-03-31: 02:30 does not exist that day.
    const early = parseCron('30 2 * * *')!;
    expect(new Date(nextRun(early, 'Europe/Berlin', Date.parse('2024-03-30T02:00:00Z'))!).toISOString()).toBe('2024-04-01T00:30:00.000Z');
  });
});
