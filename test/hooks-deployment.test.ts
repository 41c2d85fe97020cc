// Deployment Hook (Gitlab::DataBuilder::Deployment): a job with `environment:` that starts and
// finishes reaches the hooks with deployment events as `running`, then `success`, with the keys
// of GitLab's documented sample (doc/user/project/integrations/webhook_events.md).
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const SAMPLE_KEYS = [
  'object_kind', 'status', 'status_changed_at', 'deployment_id', 'deployable_id', 'deployable_url', 'environment', 'environment_tier', 'environment_slug',
  'environment_external_url', 'project', 'short_sha', 'user', 'user_url', 'commit_url', 'commit_title',
];
const env = (name: string, extra: Record<string, unknown> = {}) => ({ name, action: 'start' as const, url: null, onStop: null, autoStopIn: null, ...extra });

describe('Deployment Hook', () => {
  it('a deployment that starts and succeeds is two deliveries, only to hooks with deployment events', async () => {
    const e = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '# App\n' } } })] } });
    const add = async (flags: Record<string, boolean>) => (await (await apiCall(e, '/projects/acme%2Fapp/hooks', { method: 'POST', token: 'maintainer-token', json: { url: 'https://r.example.com/', push_events: false, ...flags } })).json()).id as number;
    const hook = await add({ deployment_events: true });
    await add({ job_events: true });
    e.hooks.pause();
    const ci = e.ci('acme/app');
    ci.outcomes({ otherwise: { status: 'success', after: '1m' } });
    ci.plan({ jobs: [{ name: 'deploy', stage: 'deploy', environment: env('production', { url: 'https://prod.example.com' }) }] });
    e.clock.advance('1m');
    await e.settled();
    e.hooks.resume();
    await e.hooks.settled();
    const sent = e.hooks.deliveries({ event: 'Deployment Hook' });
    expect(sent.map((d) => d.hookId)).toEqual([hook, hook]);
    const [running, success] = sent.map((d) => d.payload as any);
    expect(running.status).toBe('running');
    expect(success.status).toBe('success');
    for (const p of [running, success]) expect(Object.keys(p)).toEqual(expect.arrayContaining(SAMPLE_KEYS));
    expect(success).toMatchObject({
      object_kind: 'deployment', environment: 'production', environment_tier: 'production', environment_slug: 'production', environment_external_url: 'https://prod.example.com',
      status_changed_at: '2026-05-04 10:01:00 +0000', ref: 'main', user: { username: 'root' }, commit_title: expect.any(String),
    });
    expect(success.deployable_url).toBe(`${success.project.web_url}/-/jobs/${success.deployable_id}`);
    expect(success.commit_url).toBe(`${success.project.web_url}/-/commit/${(await (await apiCall(e, '/projects/acme%2Fapp/deployments', { token: 'maintainer-token' })).json())[0].sha}`);
    expect(success.short_sha).toHaveLength(8);
  });
});
