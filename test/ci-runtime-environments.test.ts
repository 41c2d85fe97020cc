// Environments and deployments: made by jobs with `environment:`, following their jobs, stopped by
// a stop job or on the clock (`auto_stop_in`); and the APIs (python-gitlab's flow among them).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const FIXTURE: Fixture = { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '# App\n' } } })] };
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token = 'maintainer-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

const env = (name: string, action: 'start' | 'stop', extra: Record<string, unknown> = {}) => ({ name, action, url: null, onStop: null, autoStopIn: null, ...extra });

describe('environments', () => {
  it('are created, listed, changed, stopped and deleted through the API', async () => {
    const made = await call('POST', `${APP}/environments`, 'maintainer-token', { name: 'env1', external_url: 'http://fake.env/whatever' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'env1', slug: 'env1', external_url: 'http://fake.env/whatever', state: 'available', tier: 'other', last_deployment: null });
    expect((await call('POST', `${APP}/environments`, 'maintainer-token', { name: 'env1' })).body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await call('POST', `${APP}/environments`, 'reporter-token', { name: 'x' })).status).toBe(403);
    const put = await call('PUT', `${APP}/environments/${made.body.id}`, 'maintainer-token', { external_url: 'http://new.env/whatever' });
    expect(put.body.external_url).toBe('http://new.env/whatever');
    expect((await call('DELETE', `${APP}/environments/${made.body.id}`, 'maintainer-token')).status).toBe(403);
    const stopped = await call('POST', `${APP}/environments/${made.body.id}/stop`, 'maintainer-token');
    expect(stopped.body.state).toBe('stopped');
    expect((await call('DELETE', `${APP}/environments/${made.body.id}`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${APP}/environments`, 'maintainer-token')).body).toEqual([]);
  });

  it('follow their jobs: a deployment per run, the stop job on stop, and auto_stop_in on the clock', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    ci.outcomes({ otherwise: { status: 'success', after: '1m' } });
    const p = ci.plan({
      jobs: [
        { name: 'deploy', stage: 'deploy', environment: env('review/feature-x', 'start', { url: 'https://x.example', onStop: 'stop-review', autoStopIn: '1 day' }) },
        { name: 'stop-review', stage: 'deploy', when: 'manual', environment: env('review/feature-x', 'stop') },
      ],
    });
    const [listed] = (await call('GET', `${APP}/environments`)).body;
    expect(listed).toMatchObject({ name: 'review/feature-x', slug: 'review-feature-x', tier: 'development', state: 'available' });
    expect((await call('GET', `${APP}/deployments`)).body.map((d: { status: string }) => d.status)).toEqual(['running']);
    e.clock.advance('1m');
    await e.settled();
    const one = (await call('GET', `${APP}/environments/${listed.id}`)).body;
    expect(one).toMatchObject({ external_url: 'https://x.example', auto_stop_at: '2024-03-02T12:01:00.000Z', last_deployment: { status: 'success', ref: 'main', deployable: { name: 'deploy' } } });
    // Stopping plays the stop job; the environment is stopped when it succeeds.
    const stopping = await call('POST', `${APP}/environments/${listed.id}/stop`);
    expect(stopping.body.state).toBe('stopping');
    expect(ci.jobs(p.id).find((j) => j.name === 'stop-review')!.status).toBe('running');
    e.clock.advance('1m');
    await e.settled();
    expect((await call('GET', `${APP}/environments/${listed.id}`)).body.state).toBe('stopped');

    // A second run makes it available again; a day later it stops by itself.
    ci.plan({ jobs: [{ name: 'deploy', environment: env('review/feature-x', 'start', { autoStopIn: '1 day' }) }] });
    e.clock.advance('1m');
    await e.settled();
    expect((await call('GET', `${APP}/environments/${listed.id}`)).body.state).toBe('available');
    e.clock.advance('1d');
    await e.settled();
    expect((await call('GET', `${APP}/environments/${listed.id}`)).body.state).toBe('stopped');
    expect((await call('GET', `${APP}/deployments?environment=review/feature-x&sort=desc`)).body.map((d: { iid: number; status: string }) => [d.iid, d.status])).toEqual([[2, 'success'], [1, 'success']]);
  });

  it('takes deployments recorded through the API', async () => {
    const sha = world().git('acme/app').refs().branches.main!;
    const d = await call('POST', `${APP}/deployments`, 'dev-token', { environment: 'production', sha, ref: 'main', tag: false, status: 'success' });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ iid: 1, status: 'success', environment: { name: 'production' }, deployable: null, user: { username: 'dev' } });
    const [prod] = (await call('GET', `${APP}/environments?name=production`)).body;
    expect(prod.tier).toBe('production');
    expect((await call('PUT', `${APP}/deployments/${d.body.id}`, 'dev-token', { status: 'failed' })).body.status).toBe('failed');
    expect((await call('GET', `${APP}/deployments/999`)).status).toBe(404);
  });
});
