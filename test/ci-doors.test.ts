// CI through the network doors: @gitbeaker/rest against the node server (variables, jobs,
// artifacts, a job token), plain fetch through the MSW handler set, and the control API
// driving pipelines and jobs over HTTP as a test in another language would.
import { Gitlab } from '@gitbeaker/rest';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'mai', name: 'Mai Ntainer', email: 'mai@example.com', tokens: [{ token: 'mai-token' }] },
    { username: 'dev', name: 'Dee Veloper', email: 'dee@example.com', tokens: [{ token: 'dev-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'mai', access_level: 'owner' }, { user: 'dev', access_level: 'developer' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'mai',
      repository: { files: { 'README.md': '# App\n' }, branches: { 'release/1.x': 'main' } },
      pipelines: [{ ref: 'release/1.x', user: 'dev', jobs: [{ name: 'package', status: 'success', log: 'packed\n', artifacts: { files: { 'dist/app.txt': 'app v1', 'NOTES.md': '# Notes' }, expire_in: '1 week' } }] }],
    },
  ],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('manages variables and reads jobs, logs and artifacts; a job token downloads', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'mai-token' });
      const project = 'acme/app';

      const created = await api.ProjectVariables.create(project, 'API_KEY', 'abcdefgh12345', { masked: true, environmentScope: 'production' });
      expect(created).toMatchObject({ key: 'API_KEY', masked: true, environment_scope: 'production', hidden: false });
      await api.ProjectVariables.create(project, 'API_KEY', 'staging-key', { environmentScope: 'staging' });
      await expect(api.ProjectVariables.show(project, 'API_KEY')).rejects.toMatchObject({ cause: { response: { status: 409 } } });
      expect((await api.ProjectVariables.show(project, 'API_KEY', { filter: { environment_scope: 'staging' } })).value).toBe('staging-key');
      const edited = await api.ProjectVariables.edit(project, 'API_KEY', 'new-staging', { filter: { environment_scope: 'staging' }, protected: true });
      expect(edited).toMatchObject({ value: 'new-staging', protected: true, environment_scope: 'staging' });
      expect((await api.ProjectVariables.all(project)).map((v) => v.environment_scope)).toEqual(['production', 'staging']);
      await api.ProjectVariables.remove(project, 'API_KEY', { filter: { environment_scope: 'staging' } });
      expect(await api.ProjectVariables.all(project)).toHaveLength(1);
      await api.GroupVariables.create('acme', 'GROUP_WIDE', 'yes');
      expect((await api.GroupVariables.all('acme')).map((v) => v.key)).toEqual(['GROUP_WIDE']);

      const [job] = await api.Jobs.all(project);
      expect(job).toMatchObject({ name: 'package', status: 'success', ref: 'release/1.x', pipeline: { ref: 'release/1.x' } });
      expect(await api.Jobs.showLog(project, job!.id)).toBe('packed\n');
      const [pipeline] = await api.Pipelines.all(project);
      expect(pipeline).toMatchObject({ status: 'success', ref: 'release/1.x' });

      const archive = await api.JobArtifacts.downloadArchive(project, { jobId: job!.id });
      expect(Object.keys(unzipSync(new Uint8Array(await archive.arrayBuffer()))).sort()).toEqual(['NOTES.md', 'dist/app.txt']);
      const byRef = await api.JobArtifacts.downloadArchive(project, { ref: 'release/1.x', job: 'package' });
      expect(byRef.size).toBe(archive.size);
      const one = await api.JobArtifacts.downloadArchive(project, { ref: 'release/1.x', job: 'package', artifactPath: 'dist/app.txt' });
      // gitbeaker reads a text/plain answer as a string.
      expect(one as unknown).toBe('app v1');
      const kept = await api.JobArtifacts.keep(project, job!.id);
      expect(kept.artifacts_expire_at).toBeNull();

      // A running job's token, as CI_JOB_TOKEN: downloads for the job's user, then dies with the job.
      const ci = emulator.ci(project);
      const consumer = ci.job(ci.pipeline({ user: 'dev' }).id, { name: 'consume' });
      const asJob = new Gitlab({ host: server.url, jobToken: consumer.token });
      const viaToken = await asJob.JobArtifacts.downloadArchive(project, { jobId: job!.id });
      expect(viaToken.size).toBe(archive.size);
      ci.finish(consumer.id, { status: 'success' });
      await expect(asJob.JobArtifacts.downloadArchive(project, { jobId: job!.id })).rejects.toMatchObject({ cause: { response: { status: 401 } } });

      await api.JobArtifacts.remove(project, { jobId: job!.id });
      await expect(api.JobArtifacts.downloadArchive(project, { jobId: job!.id })).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    } finally {
      await server.close();
    }
  });

  it('gitbeaker follows the CDN redirect of a download to the signed URL', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const res = await fetch(`${server.url}/-/emulator/ci/cdn`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ enabled: true, ttl: '1m' }) });
      expect(await res.json()).toEqual({ enabled: true, ttl_seconds: 60 });
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const archive = await api.JobArtifacts.downloadArchive('acme/app', { ref: 'release/1.x', job: 'package' });
      expect(Object.keys(unzipSync(new Uint8Array(await archive.arrayBuffer()))).sort()).toEqual(['NOTES.md', 'dist/app.txt']);
      const direct = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/jobs/artifacts/release%2F1.x/download?job=package`, { headers: { 'PRIVATE-TOKEN': 'dev-token' }, redirect: 'manual' });
      expect(direct.status).toBe(302);
      expect(direct.headers.get('location')).toContain(`${server.url}/-/cdn/artifacts/`);
    } finally {
      await server.close();
    }
  });

  it('serves the control API for CI over HTTP', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const control = async (path: string, body?: unknown) => {
        const res = await fetch(`${server.url}/-/emulator${path}`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      };
      const p = await control('/ci/acme%2Fapp/pipelines', { ref: 'main', user: 'dev' });
      expect(p).toMatchObject({ status: 201, body: { ref: 'main', status: 'created', tag: false } });
      const j = await control('/ci/acme%2Fapp/jobs', { pipeline_id: p.body.id, name: 'build', stage: 'build' });
      expect(j).toMatchObject({ status: 201, body: { status: 'running', token: expect.stringMatching(/^glcbt-/) } });
      expect((await control(`/ci/acme%2Fapp/jobs/${j.body.id}/log`, { text: `using ${j.body.token}\n` })).status).toBe(204);
      const finished = await control(`/ci/acme%2Fapp/jobs/${j.body.id}/finish`, {
        status: 'success', artifacts: { files: { 'out.txt': 'out' }, files_base64: { 'bin/data': btoa('\u0000\u0001') }, expire_in: '2 days' },
      });
      expect(finished).toMatchObject({ status: 200, body: { status: 'success' } });
      const res = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/jobs/artifacts/main/raw/bin%2Fdata?job=build`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } });
      expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 1]);
      const log = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/jobs/${j.body.id}/trace`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } });
      expect(await log.text()).toBe('using [MASKED]\n');

      expect((await control('/ci/cleanup', { fail: 1, lag: '5m' })).body).toMatchObject({ failNext: 1, lagMs: 300_000 });
      expect(await control('/ci/cleanup', { fail: -1 })).toMatchObject({ status: 400, body: { message: 'ciCleanup.fail must be an integer from 0' } });
      expect(await control('/ci/acme%2Fapp/jobs', { pipeline_id: p.body.id })).toMatchObject({ status: 400, body: { message: 'ciJob.name is required' } });
      expect(await control(`/ci/acme%2Fapp/jobs/${j.body.id}/finish`, { status: 'success' })).toMatchObject({ status: 400, body: { message: expect.stringContaining('has finished already') } });
      expect(await control('/ci/acme%2Fapp/jobs/99/artifacts', { files: { a: 'a' }, expire_in: 'soon' })).toMatchObject({ status: 400 });
      expect(await control('/ci/acme%2Fapp/pipelines', { ref: 'nope' })).toMatchObject({ status: 400, body: { message: expect.stringContaining("no branch or tag 'nope'") } });
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('creates a variable, lists jobs with scope[], downloads an artifact file and deletes the project\'s artifacts', async () => {
    const emulator = await createEmulator({ fixture });
    const api = door.serve(emulator);
    const send = (path: string, method = 'GET', body?: unknown, token = 'mai-token') => api(`/projects/acme%2Fapp${path}`, token, method, body);
    const v = await send('/variables', 'POST', { key: 'HIDDEN', value: 'secret-value-1', masked_and_hidden: true });
    expect(v.status).toBe(201);
    expect(await v.json()).toMatchObject({ value: null, hidden: true });
    const jobs = (await (await send('/jobs?scope[]=success')).json()) as { id: number; name: string }[];
    expect(jobs.map((j) => j.name)).toEqual(['package']);
    const file = await send(`/jobs/${jobs[0]!.id}/artifacts/NOTES.md`);
    expect(await file.text()).toBe('# Notes');
    const tree = await (await send(`/jobs/${jobs[0]!.id}/artifacts/tree?recursive=true`)).json();
    expect(tree).toHaveLength(3);
    const del = await send('/artifacts', 'DELETE');
    expect(del.status).toBe(202);
    expect(await del.json()).toEqual({ message: '202 Accepted' });
  });
});
