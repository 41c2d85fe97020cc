// The instance's administration endpoints a fake answers from its world: Sidekiq metrics
// (lib/api/sidekiq_metrics.rb), the license (ee/lib/api/license.rb) and Geo (ee/lib/api/geo_nodes.rb).
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-05-04T10:00:00Z';
const world = seededWorld({ instance: { tier: 'ultimate' }, users: TEAM }, NOW);
const get = (path: string, token = 'root-token') => apiCall(world(), path, { token });

describe('sidekiq metrics', () => {
  it('are for administrators only', async () => {
    for (const p of ['queue_metrics', 'process_metrics', 'job_stats', 'compound_metrics']) {
      expect((await get(`/sidekiq/${p}`, 'dev-token')).status).toBe(403);
      expect((await apiCall(world(), `/sidekiq/${p}`)).status).toBe(401);
    }
  });

  it('report the default and mailers queues, one process on the emulator\'s host, and the jobs done', async () => {
    const queues = await (await get('/sidekiq/queue_metrics')).json();
    expect(queues).toEqual({ queues: { default: { backlog: 0, latency: 0 }, mailers: { backlog: 0, latency: 0 } } });
    const processes = await (await get('/sidekiq/process_metrics')).json();
    expect(processes.processes).toHaveLength(1);
    expect(processes.processes[0]).toMatchObject({ hostname: 'gitlab.example.com', tag: 'gitlab', queues: ['default', 'mailers'], concurrency: 20, busy: 0 });
    const before = (await (await get('/sidekiq/job_stats')).json()).jobs;
    expect(Object.keys(before)).toEqual(['processed', 'failed', 'enqueued', 'dead']);
    // A project created is work done in the background (its event handed to the subscribers).
    expect((await apiCall(world(), '/projects', { method: 'POST', token: 'dev-token', json: { name: 'p' } })).status).toBe(201);
    const after = (await (await get('/sidekiq/job_stats')).json()).jobs;
    expect(after.processed).toBeGreaterThan(before.processed);
    const compound = await (await get('/sidekiq/compound_metrics')).json();
    expect(Object.keys(compound)).toEqual(['queues', 'processes', 'jobs']);
    expect(compound.jobs).toEqual(after);
  });
});

describe('the license', () => {
  it('is the world\'s tier, issued to its first administrator for a year', async () => {
    const res = await get('/license');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      id: 1, plan: 'ultimate', starts_at: '2026-05-04', expires_at: '2027-05-04', expired: false, user_limit: 0, overage: 0,
      licensee: { Name: 'Administrator' }, active_users: TEAM.length,
    });
    expect(await (await get('/license/1')).json()).toEqual(body);
    const list = await (await get('/licenses')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('active_users');
    const missing = await get('/license/2');
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 Not Found' }]);
    world().clock.set('2027-05-04T00:00:00Z');
    expect((await (await get('/license')).json()).expired).toBe(true);
  });

  it('refuses a key it cannot verify, and a missing one', async () => {
    let res = await apiCall(world(), '/license', { method: 'POST', token: 'root-token', json: { license: 'dummy key' } });
    expect([res.status, await res.json()]).toEqual([400, { message: 'The license key is invalid.' }]);
    res = await apiCall(world(), '/license', { method: 'POST', token: 'root-token', json: {} });
    expect([res.status, await res.json()]).toEqual([400, { message: '400 Bad request - "license" not given' }]);
    expect((await apiCall(world(), '/license', { method: 'POST', token: 'dev-token', json: { license: 'x' } })).status).toBe(403);
  });

  it('is none in a Free world', async () => {
    const e = await createEmulator({ fixture: { users: TEAM } });
    const res = await apiCall(e, '/license', { token: 'root-token' });
    expect([res.status, await res.json()]).toEqual([200, null]);
    expect(await (await apiCall(e, '/licenses', { token: 'root-token' })).json()).toEqual([]);
  });
});

describe('geo', () => {
  it('has no sites: empty lists to administrators, a site by id not found', async () => {
    for (const p of ['/geo_nodes', '/geo_nodes/status', '/geo_sites', '/geo_sites/status']) {
      const res = await get(p);
      expect([p, res.status, await res.json()]).toEqual([p, 200, []]);
      expect((await get(p, 'dev-token')).status).toBe(403);
    }
    const res = await get('/geo_nodes/1');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 GeoNode Not Found' }]);
  });
});
