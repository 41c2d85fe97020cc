// Resource groups (Ci::ResourceGroup, AssignResourceFromResourceGroupService, lib/api/ci/resource_groups.rb):
// made with the first pipeline that names one, listed, shown and changed through the API, with
// the job holding the resource and the upcoming ones; the process mode orders who gets it next.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const CI = `
stages: [build, deploy]
build:
  stage: build
  script: [make]
deploy:
  stage: deploy
  script: [deploy]
  resource_group: production
`;
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { '.gitlab-ci.yml': CI }, branches: { other: 'main', third: 'main' } },
  }],
};
const P = '/projects/acme%2Fapp';
const RG = `${P}/resource_groups`;

describe('resource groups', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, json?: unknown, token = 'dev-token') => jsonCall(world(), path, { method, token, json });
  /** A pipeline on a ref: its jobs by name. */
  async function pipeline(ref: string): Promise<Record<string, number>> {
    const made = await call('POST', `${P}/pipeline`, { ref });
    expect(made.status).toBe(201);
    const jobs = (await call('GET', `${P}/pipelines/${made.body.id}/jobs`)).body as { id: number; name: string }[];
    return Object.fromEntries(jobs.map((j) => [j.name, j.id]));
  }
  const status = async (id: number) => (await call('GET', `${P}/jobs/${id}`)).body.status as string;
  const finish = async (id: number) => {
    world().ci('acme/app').finish(id, { status: 'success' });
    await world().settled();
  };
  const upcoming = async () => ((await call('GET', `${RG}/production/upcoming_jobs`)).body as { id: number }[]).map((j) => j.id);

  it('is made with the first pipeline that names it, and is read and changed by developers', async () => {
    expect((await call('GET', RG)).body).toEqual([]);
    await pipeline('main');
    const group = { id: expect.any(Number), key: 'production', process_mode: 'unordered', created_at: NOW, updated_at: NOW };
    expect(await call('GET', RG)).toEqual({ status: 200, body: [group] });
    expect(await call('GET', `${RG}/production`)).toEqual({ status: 200, body: group });
    expect(await call('GET', `${RG}/staging`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(await call('GET', RG, undefined, 'reporter-token')).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('GET', `${RG}/production`, undefined, 'outsider-token')).status).toBe(404);
    world().clock.advance('1m');
    const put = await call('PUT', `${RG}/production`, { process_mode: 'oldest_first' });
    expect(put).toEqual({ status: 200, body: { ...group, process_mode: 'oldest_first', updated_at: '2026-03-01T12:01:00.000Z' } });
    expect((await call('PUT', `${RG}/production`, { process_mode: 'fastest_first' })).status).toBe(400);
    expect((await call('PUT', `${RG}/production`, { process_mode: 'unordered' }, 'reporter-token')).status).toBe(403);
    expect((await call('GET', `${RG}/production`)).body.process_mode).toBe('oldest_first');
  });

  it('unordered: a job takes the free resource at once, the others wait for it in turn', async () => {
    const a = await pipeline('main');
    const b = await pipeline('other');
    await finish(b.build!);
    expect(await status(b.deploy!)).toBe('pending');
    expect((await call('GET', `${RG}/production/current_job`)).body).toMatchObject({ id: b.deploy, name: 'deploy', status: 'pending' });
    await finish(a.build!);
    expect(await status(a.deploy!)).toBe('waiting_for_resource');
    expect(await upcoming()).toEqual([a.deploy]);
    await finish(b.deploy!);
    expect(await status(a.deploy!)).toBe('pending');
    expect(await upcoming()).toEqual([]);
  });

  it('oldest_first: an older pipeline\'s job not yet ready holds the resource back from a newer one', async () => {
    const a = await pipeline('main');
    await call('PUT', `${RG}/production`, { process_mode: 'oldest_first' });
    const b = await pipeline('other');
    await finish(b.build!);
    expect(await status(b.deploy!)).toBe('waiting_for_resource');
    // Upcoming: the older pipeline's job first, though it is still created.
    expect(await upcoming()).toEqual([a.deploy, b.deploy]);
    expect((await call('GET', `${RG}/production/current_job`)).body).toBeNull();
    await finish(a.build!);
    expect(await status(a.deploy!)).toBe('pending');
    expect(await upcoming()).toEqual([b.deploy]);
    await finish(a.deploy!);
    expect(await status(b.deploy!)).toBe('pending');
  });

  it('newest_first and newest_ready_first: the newest pipeline goes first', async () => {
    const a = await pipeline('main');
    await call('PUT', `${RG}/production`, { process_mode: 'newest_first' });
    const b = await pipeline('other');
    const c = await pipeline('third');
    await finish(a.build!);
    // newest_first counts the newer pipelines' jobs not yet ready: the oldest waits.
    expect(await status(a.deploy!)).toBe('waiting_for_resource');
    expect(await upcoming()).toEqual([c.deploy, b.deploy, a.deploy]);
    // newest_ready_first counts only the waiting ones: the resource is free, so the next to ask takes it.
    await call('PUT', `${RG}/production`, { process_mode: 'newest_ready_first' });
    expect(await upcoming()).toEqual([a.deploy]);
    await finish(b.build!);
    expect(await status(b.deploy!)).toBe('pending');
    await finish(c.build!);
    expect(await status(c.deploy!)).toBe('waiting_for_resource');
    expect(await upcoming()).toEqual([c.deploy, a.deploy]);
    await finish(b.deploy!);
    expect(await status(c.deploy!)).toBe('pending');
    expect(await status(a.deploy!)).toBe('waiting_for_resource');
  });

  it('a retried job of the group takes the free resource', async () => {
    const a = await pipeline('main');
    await finish(a.build!);
    world().ci('acme/app').finish(a.deploy!, { status: 'failed' });
    await world().settled();
    const retried = await call('POST', `${P}/jobs/${a.deploy}/retry`);
    expect(retried).toMatchObject({ status: 201, body: { status: 'pending', name: 'deploy' } });
  });
});
