// GitLab's health endpoints, as HealthController and doc/administration/monitoring/health_check.md
// give them: `/-/health` is `GitLab OK` as text, `/-/readiness` the master check (every check
// with `all`), `/-/liveness` `{"status":"ok"}`; at the server's root and under a world's prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';

let emulator: Emulator;
let server: Server;

beforeAll(async () => {
  emulator = await createEmulator();
  server = await emulator.listen({ port: 0 });
  const made = await fetch(`${server.url}/-/emulator/worlds`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'health' }) });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await server.close();
});

const ALL_CHECKS = ['master_check', 'db_check', 'db_load_balancing_check', 'redis_check', 'cache_check', 'queues_check', 'rate_limiting_check', 'sessions_check', 'shared_state_check', 'trace_chunks_check', 'gitaly_check'];

describe.each([
  ['at the root', ''],
  ['under a world prefix', '/-/worlds/health'],
])('health endpoints %s', (_, prefix) => {
  it('GET /-/health answers GitLab OK as text', async () => {
    const res = await fetch(`${server.url}${prefix}/-/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('GitLab OK');
  });

  it('GET /-/readiness answers the master check, and every check with all=1', async () => {
    const res = await fetch(`${server.url}${prefix}/-/readiness`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'ok', master_check: [{ status: 'ok' }] });
    const all = (await (await fetch(`${server.url}${prefix}/-/readiness?all=1`)).json()) as Record<string, unknown>;
    expect(Object.keys(all)).toEqual(['status', ...ALL_CHECKS]);
    expect(all.status).toBe('ok');
    expect(all.db_check).toEqual([{ status: 'ok' }]);
    expect(all.gitaly_check).toEqual([{ status: 'ok', labels: { shard: 'default' } }]);
  });

  it('GET /-/liveness answers {"status":"ok"}', async () => {
    const res = await fetch(`${server.url}${prefix}/-/liveness`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"status":"ok"}');
  });

  it('HEAD answers too, with no body; nothing is journaled', async () => {
    const res = await fetch(`${server.url}${prefix}/-/health`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    const journal = (await (await fetch(`${server.url}${prefix}/-/emulator/journal`)).json()) as { path: string }[];
    expect(journal.filter((j) => j.path.startsWith('/-/'))).toEqual([]);
  });

  it('other paths under /-/ stay GitLab 404s', async () => {
    expect((await fetch(`${server.url}${prefix}/-/healthz`)).status).toBe(404);
  });
});

describe('health endpoints through emulator.handle (the MSW door)', () => {
  it('answers at the base URL', async () => {
    const res = await emulator.handle(new Request('https://gitlab.example.com/-/health'));
    expect(await res.text()).toBe('GitLab OK');
    const live = await emulator.handle(new Request('https://gitlab.example.com/-/liveness'));
    expect(await live.json()).toEqual({ status: 'ok' });
  });
});
