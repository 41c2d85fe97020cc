// Job artifacts (lib/api/ci/job_artifacts.rb, spec/requests/api/ci/job_artifacts_spec.rb),
// following the job artifacts checklist of the reference; expiry and cleanup on the clock.
import { gunzipSync, strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, apiCall, projectJob, seededWorld, TEAM, teamProject, updateProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const DAY = 86_400_000;

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: { files: { 'README.md': '# App\n' }, branches: { 'feature/x': 'main' } },
      pipelines: [
        {
          ref: 'main',
          user: 'dev',
          jobs: [{ name: 'build', status: 'success', artifacts: { files: { 'dist/app.js': 'console.log(1);\n', 'dist/css/site.css': 'body{}', 'notes.txt': 'hello' }, expire_in: '1 week' } }],
          children: [{ jobs: [{ name: 'child-only', status: 'success', artifacts: { files: { 'child.txt': 'from the child' } } }, { name: 'build', status: 'success', artifacts: { files: { 'which.txt': 'child' } } }] }],
        },
      ],
    }),
    {
      namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', members: [{ user: 'gus', access_level: 'guest' }, { user: 'dev', access_level: 'developer' }],
      repository: { files: { 'index.html': '<p>hi</p>' } },
      pipelines: [{ ref: 'main', jobs: [{ name: 'pages', status: 'success', artifacts: { files: { 'public/index.html': '<p>hi</p>' }, public: false } }] }],
    },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const SITE = '/projects/acme%2Fsite';

async function call(method: string, path: string, init: { token?: string; headers?: Record<string, string> } = {}) {
  const res = await apiCall(world(), path, { method, token: init.token, headers: init.headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, bytes, res };
}

const jobId = (name: string, project = 'acme/app') => projectJob(world(), project, name).id;

describe('download a job\'s archive', () => {
  it('answers the zip with GitLab\'s attachment headers', async () => {
    const r = await call('GET', `${APP}/jobs/${jobId('build')}/artifacts`, { token: 'reporter-token' });
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.res.headers.get('content-disposition')).toBe(`attachment; filename="artifacts.zip"; filename*=UTF-8''artifacts.zip`);
    expect(r.res.headers.get('content-transfer-encoding')).toBe('binary');
    expect(Object.keys(unzipSync(r.bytes)).sort()).toEqual(['dist/app.js', 'dist/css/site.css', 'notes.txt']);
  });

  it('is 404 for an unknown job, a job without artifacts, and an anonymous caller of a private project', async () => {
    expect((await call('GET', `${APP}/jobs/9999/artifacts`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not found' });
    const ci = world().ci('acme/app');
    const bare = ci.job(ci.pipeline({}).id, { name: 'bare' });
    expect((await call('GET', `${APP}/jobs/${bare.id}/artifacts`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not Found' });
    expect((await call('GET', `${APP}/jobs/${jobId('build')}/artifacts`)).body).toEqual({ message: '404 Project Not Found' });
  });

  it('takes the job token of a running job of the project', async () => {
    const ci = world().ci('acme/app');
    const job = ci.job(ci.pipeline({ user: 'rep' }).id, { name: 'consumer' });
    expect((await call('GET', `${APP}/jobs/${jobId('build')}/artifacts?job_token=${job.token}`)).status).toBe(200);
    expect((await call('GET', `${APP}/jobs/${jobId('build')}/artifacts`, { headers: { 'JOB-TOKEN': job.token } })).status).toBe(200);
  });

  it('non-public artifacts are 403 for a guest of a public project, 200 for a developer', async () => {
    const pages = jobId('pages', 'acme/site');
    expect((await call('GET', `${SITE}/jobs/${pages}/artifacts`, { token: 'guest-token' })).body).toEqual({ message: '403 Forbidden' });
    expect((await call('GET', `${SITE}/jobs/${pages}/artifacts`, { token: 'dev-token' })).status).toBe(200);
  });
});

describe('download by ref', () => {
  it('picks the named job of the latest successful pipeline, parent before child, for a reporter', async () => {
    const r = await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { token: 'reporter-token' });
    expect(r.status).toBe(200);
    expect(Object.keys(unzipSync(r.bytes))).toContain('notes.txt');
    const child = await call('GET', `${APP}/jobs/artifacts/main/download?job=child-only`, { token: 'reporter-token' });
    expect(Object.keys(unzipSync(child.bytes))).toEqual(['child.txt']);
  });

  it('follows the newest successful pipeline, takes a branch with a slash, and is 404 for an unknown ref or job', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'feature/x', user: 'dev' });
    const j = ci.job(p.id, { name: 'build' });
    ci.finish(j.id, { status: 'success', artifacts: { files: { 'feature.txt': 'x' } } });
    const r = await call('GET', `${APP}/jobs/artifacts/feature/x/download?job=build`, { token: 'reporter-token' });
    expect(Object.keys(unzipSync(r.bytes))).toEqual(['feature.txt']);
    expect((await call('GET', `${APP}/jobs/artifacts/nope/download?job=build`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not found' });
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=nope`, { token: 'reporter-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=nope&search_recent_successful_pipelines=true`, { token: 'reporter-token' })).body).toEqual({ message: '404 Job Not Found' });
    expect((await call('GET', `${APP}/jobs/artifacts/main/download`, { token: 'reporter-token' })).status).toBe(400);
  });

  it('a failed newer pipeline leaves the older successful one in place; search_recent_successful_pipelines looks further back', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'main', user: 'dev' });
    const j = ci.job(p.id, { name: 'build' });
    ci.finish(j.id, { status: 'failed', artifacts: { files: { 'broken.txt': 'x' } } });
    expect(Object.keys(unzipSync((await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { token: 'reporter-token' })).bytes))).toContain('notes.txt');
    const ok = ci.pipeline({ ref: 'main', user: 'dev' });
    ci.finish(ci.job(ok.id, { name: 'other' }).id, { status: 'success', artifacts: { files: { 'o.txt': 'o' } } });
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { token: 'reporter-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=build&search_recent_successful_pipelines=true`, { token: 'reporter-token' })).status).toBe(200);
  });

  it('is 404 anonymous on a private project and 403 for a guest when jobs are not public', async () => {
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=build`)).status).toBe(404);
    updateProject(world(), 'acme/app', (p) => void (p.settings.public_jobs = false));
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { token: 'guest-token' })).status).toBe(403);
  });
});

describe('one file', () => {
  it('by job id: the file, typed by extension, as an attachment; 400 for a bad path; 404 for a missing file', async () => {
    const id = jobId('build');
    const r = await call('GET', `${APP}/jobs/${id}/artifacts/dist/app.js`, { token: 'reporter-token' });
    expect(r.status).toBe(200);
    expect(r.body).toBe('console.log(1);\n');
    expect(r.res.headers.get('content-disposition')).toContain('filename="app.js"');
    expect((await call('GET', `${APP}/jobs/${id}/artifacts/dist%2F..%2Fnotes.txt`, { token: 'reporter-token' })).body).toEqual({ message: '400 Bad request' });
    expect((await call('GET', `${APP}/jobs/${id}/artifacts/missing.txt`, { token: 'reporter-token' })).status).toBe(404);
  });

  it('is 404 for a job without artifacts', async () => {
    const ci = world().ci('acme/app');
    const bare = ci.job(ci.pipeline({}).id, { name: 'bare' });
    expect((await call('GET', `${APP}/jobs/${bare.id}/artifacts/notes.txt`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not Found' });
    expect((await call('GET', `${APP}/jobs/${bare.id}/artifacts/tree`, { token: 'reporter-token' })).body).toEqual({ message: '404 Artifacts Not Found' });
  });

  it('by ref (raw): text as text/plain; 404 for an unknown job', async () => {
    const r = await call('GET', `${APP}/jobs/artifacts/main/raw/notes.txt?job=build`, { token: 'reporter-token' });
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.body).toBe('hello');
    expect((await call('GET', `${APP}/jobs/artifacts/main/raw/dist/css/site.css?job=build`, { token: 'reporter-token' })).body).toBe('body{}');
    expect((await call('GET', `${APP}/jobs/artifacts/main/raw/notes.txt?job=nope`, { token: 'reporter-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/artifacts/main/raw/notes.txt?job=build`)).body).toEqual({ message: '404 Project Not Found' });
  });

  it('locked artifacts past their expiry are still served', async () => {
    const e = world();
    e.clock.advance(8 * DAY);
    expect((await call('GET', `${APP}/jobs/${jobId('build')}/artifacts/notes.txt`, { token: 'reporter-token' })).status).toBe(200);
  });
});

describe('names and caching', () => {
  it('files named like object properties, and empty files, are files like any other', async () => {
    const ci = world().ci('acme/app');
    const j = ci.job(ci.pipeline({}).id, { name: 'odd' });
    ci.finish(j.id, { status: 'success', artifacts: { files: JSON.parse('{"__proto__":"p","constructor":"c","empty.txt":""}') } });
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts/__proto__`, { token: 'dev-token' })).body).toBe('p');
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts/constructor`, { token: 'dev-token' })).body).toBe('c');
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts/toString`, { token: 'dev-token' })).status).toBe(404);
    const empty = await call('GET', `${APP}/jobs/${j.id}/artifacts/empty.txt`, { token: 'dev-token' });
    expect(empty.status).toBe(200);
    expect(empty.bytes.length).toBe(0);
    const tree = await call('GET', `${APP}/jobs/${j.id}/artifacts/tree`, { token: 'dev-token' });
    expect(tree.body.map((e: { path: string }) => e.path)).toEqual(['__proto__', 'constructor', 'empty.txt']);
  });

  it('answers 304 to If-None-Match with the archive\'s ETag, and a new upload changes it', async () => {
    const ci = world().ci('acme/app');
    const j = ci.job(ci.pipeline({}).id, { name: 'etag' });
    ci.artifacts(j.id, { files: { 'a.txt': 'one' } });
    const first = await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' });
    const etag = first.res.headers.get('etag')!;
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token', headers: { 'If-None-Match': etag } })).status).toBe(304);
    ci.artifacts(j.id, { files: { 'a.txt': 'two' } });
    const again = await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token', headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(200);
    expect(strFromU8(unzipSync(again.bytes)['a.txt']!)).toBe('two');
  });
});

describe('through a CDN', () => {
  it('answers 302 to a signed URL the emulator serves, until it expires', async () => {
    const e = world();
    e.ciConfigureCdn({ enabled: true, ttl: '5m' });
    const id = jobId('build');
    const r = await call('GET', `${APP}/jobs/${id}/artifacts`, { token: 'reporter-token' });
    expect(r.status).toBe(302);
    const location = r.res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^https://gitlab.example.com/-/cdn/artifacts/\\d+/${id}/\\d+/archive\\?expires=\\d+&signature=[0-9a-f]+$`));
    const served = await e.handle(new Request(location));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toContain('artifacts.zip');
    expect(Object.keys(unzipSync(new Uint8Array(await served.arrayBuffer())))).toContain('notes.txt');
    const raw = await call('GET', `${APP}/jobs/artifacts/main/raw/dist/app.js?job=build`, { token: 'reporter-token' });
    const file = await e.handle(new Request(raw.res.headers.get('location')!));
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await file.text()).toBe('console.log(1);\n');
    // Checks come before the redirect: a bad path is still 400, a missing job 404.
    expect((await call('GET', `${APP}/jobs/${id}/artifacts/missing.txt`, { token: 'reporter-token' })).status).toBe(404);
    const forged = await e.handle(new Request(location.replace(/signature=[0-9a-f]+/, 'signature=00')));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('SignatureDoesNotMatch');
    e.clock.advance(5 * 60_000 + 1000);
    const late = await e.handle(new Request(location));
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('Request has expired');
  });

  it('a signed URL of a deleted archive is 404', async () => {
    const e = world();
    e.ciConfigureCdn({ enabled: true });
    const id = jobId('build');
    const location = (await call('GET', `${APP}/jobs/${id}/artifacts`, { token: 'reporter-token' })).res.headers.get('location')!;
    expect((await call('DELETE', `${APP}/jobs/${id}/artifacts`, { token: 'maintainer-token' })).status).toBe(204);
    expect((await e.handle(new Request(location))).status).toBe(404);
  });
});

describe('access', () => {
  it('anonymous callers read a public project\'s public artifacts; not with its jobs private, nor with builds disabled', async () => {
    const ci = world().ci('acme/site');
    const j = ci.job(ci.pipeline({}).id, { name: 'docs' });
    ci.finish(j.id, { status: 'success', artifacts: { files: { 'index.html': 'hi' } } });
    expect((await call('GET', `${SITE}/jobs/${j.id}/artifacts/index.html`)).status).toBe(200);
    updateProject(world(), 'acme/site', (p) => void (p.settings.public_jobs = false));
    expect((await call('GET', `${SITE}/jobs/${j.id}/artifacts/index.html`)).body).toEqual({ message: '403 Forbidden' });
    updateProject(world(), 'acme/site', (p) => void ((p.settings.public_jobs = true), (p.features.builds = 'disabled')));
    expect((await call('GET', `${SITE}/jobs/artifacts/main/raw/index.html?job=docs`, { token: 'dev-token' })).status).toBe(403);
  });
});

describe('artifacts/tree', () => {
  it('lists one level, or all with recursive, with GitLab\'s metadata; 404 for a path not there', async () => {
    const id = jobId('build');
    const root = await call('GET', `${APP}/jobs/${id}/artifacts/tree`, { token: 'reporter-token' });
    expect(root.body).toEqual([
      { name: 'dist', path: 'dist/', type: 'directory', mode: '040755' },
      { name: 'notes.txt', path: 'notes.txt', type: 'file', size: 5, mode: '100644' },
    ]);
    const dist = await call('GET', `${APP}/jobs/${id}/artifacts/tree?path=dist`, { token: 'reporter-token' });
    expect(dist.body.map((e: { path: string }) => e.path)).toEqual(['dist/app.js', 'dist/css/']);
    const all = await call('GET', `${APP}/jobs/${id}/artifacts/tree?recursive=true`, { token: 'reporter-token' });
    expect(all.body.map((e: { path: string }) => e.path)).toEqual(['dist/', 'dist/app.js', 'dist/css/', 'dist/css/site.css', 'notes.txt']);
    expect((await call('GET', `${APP}/jobs/${id}/artifacts/tree?path=nope`, { token: 'reporter-token' })).body).toEqual({ message: '404 Path Not Found' });
  });

  it('the metadata file is GitLab\'s format: the version, the errors, then each entry', async () => {
    const a = world().ci('acme/app').getArtifacts(jobId('build'))!;
    const raw = gunzipSync(a.metadata);
    const strings: string[] = [];
    for (let at = 0; at < raw.length; ) {
      const n = new DataView(raw.buffer, raw.byteOffset + at, 4).getUint32(0);
      strings.push(strFromU8(raw.subarray(at + 4, at + 4 + n)));
      at += 4 + n;
    }
    expect(strings[0]).toBe('GitLab Build Artifacts Metadata 0.0.2\n');
    expect(strings[1]).toBe('{}');
    expect(strings[2]).toBe('dist/');
    expect(JSON.parse(strings[5]!)).toMatchObject({ size: 16, mode: '100644' });
  });
});

describe('keep and delete', () => {
  it('keep answers the Job with no expiry (200); 404 without artifacts; 403 for a reporter', async () => {
    const id = jobId('build');
    expect((await call('GET', `${APP}/jobs/${id}`, { token: 'reporter-token' })).body.artifacts_expire_at).toBe('2024-03-08T12:00:00.000Z');
    expect((await call('POST', `${APP}/jobs/${id}/artifacts/keep`, { token: 'reporter-token' })).status).toBe(403);
    const r = await call('POST', `${APP}/jobs/${id}/artifacts/keep`, { token: 'dev-token' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, artifacts_expire_at: null, artifacts_file: { filename: 'artifacts.zip' }, download_url: null });
    const ci = world().ci('acme/app');
    const bare = ci.job(ci.pipeline({}).id, { name: 'bare' });
    expect((await call('POST', `${APP}/jobs/${bare.id}/artifacts/keep`, { token: 'dev-token' })).status).toBe(404);
  });

  it('deletes a job\'s artifacts: 401 anonymous, 403 developer, 204 maintainer; the log stays', async () => {
    const ci = world().ci('acme/app');
    const j = ci.job(ci.pipeline({}).id, { name: 'logged' });
    ci.finish(j.id, { status: 'success', log: 'done\n', artifacts: { files: { 'a.txt': 'a' } } });
    expect((await call('DELETE', `${APP}/jobs/${j.id}/artifacts`)).status).toBe(401);
    expect((await call('DELETE', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' })).status).toBe(403);
    expect((await call('DELETE', `${APP}/jobs/${j.id}/artifacts`, { token: 'maintainer-token' })).status).toBe(204);
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'maintainer-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/${j.id}/trace`, { token: 'maintainer-token' })).body).toBe('done\n');
  });

  it('deletes a project\'s artifacts: 401, 403, then 202; the files go when the cleanup runs; locked and kept ones stay', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const old = ci.pipeline({ ref: 'feature/x' });
    const oldJob = ci.job(old.id, { name: 'b' });
    ci.finish(oldJob.id, { status: 'success', artifacts: { files: { 'old.txt': 'o' } } });
    const kept = ci.job(old.id, { name: 'k' });
    ci.finish(kept.id, { status: 'success', artifacts: { files: { 'k.txt': 'k' } } });
    const newer = ci.pipeline({ ref: 'feature/x' });
    const newJob = ci.job(newer.id, { name: 'b' });
    ci.finish(newJob.id, { status: 'success', artifacts: { files: { 'new.txt': 'n' } } });
    expect((await call('POST', `${APP}/jobs/${kept.id}/artifacts/keep`, { token: 'dev-token' })).status).toBe(200);

    expect((await call('DELETE', `${APP}/artifacts`)).status).toBe(401);
    expect((await call('DELETE', `${APP}/artifacts`, { token: 'dev-token' })).status).toBe(403);
    ci.planCleanup({ lag: '10m' });
    const r = await call('DELETE', `${APP}/artifacts`, { token: 'maintainer-token' });
    expect(r).toMatchObject({ status: 202, body: { message: '202 Accepted' } });
    // Expired at once, still there until the cleanup runs.
    expect((await call('GET', `${APP}/jobs/${oldJob.id}`, { token: 'dev-token' })).body.artifacts_expire_at).toBe(NOW);
    expect((await call('GET', `${APP}/jobs/${oldJob.id}/artifacts`, { token: 'dev-token' })).status).toBe(200);
    e.clock.advance(10 * 60_000);
    expect((await call('GET', `${APP}/jobs/${oldJob.id}/artifacts`, { token: 'dev-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/${kept.id}/artifacts`, { token: 'dev-token' })).status).toBe(200);
    expect((await call('GET', `${APP}/jobs/${newJob.id}/artifacts`, { token: 'dev-token' })).status).toBe(200);
    expect((await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { token: 'dev-token' })).status).toBe(200);
  });
});

describe('expiry on the clock', () => {
  it('unlocked artifacts vanish when the clock passes their expiry and the cleanup runs, not before', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const p = ci.pipeline({ ref: 'main' });
    const j = ci.job(p.id, { name: 'short' });
    ci.finish(j.id, { status: 'failed', artifacts: { files: { 'x.txt': 'x' } , expireIn: '2 hrs 30 mins' } });
    expect(ci.getArtifacts(j.id)!.expireAt).toBe(Date.parse(NOW) + 2.5 * 3_600_000);
    e.clock.advance(2.5 * 3_600_000 - 1);
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' })).status).toBe(200);
    e.clock.advance(1);
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' })).status).toBe(404);
  });

  it('locked artifacts outlive their expiry until a newer pipeline unlocks them', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const build = jobId('build');
    e.clock.advance(8 * DAY);
    expect(ci.getArtifacts(build)).toBeDefined();
    const next = ci.pipeline({ ref: 'main' });
    ci.finish(ci.job(next.id, { name: 'x' }).id, { status: 'success' });
    expect((await call('GET', `${APP}/jobs/${build}/artifacts`, { token: 'dev-token' })).status).toBe(404);
  });

  it('a cleanup planned to fail leaves the files and runs again later; a lag delays it', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    ci.planCleanup({ fail: 1, retry: '1h' });
    const j = ci.job(ci.pipeline({}).id, { name: 'temp' });
    ci.finish(j.id, { status: 'failed', artifacts: { files: { 't.txt': 't' }, expireIn: '1 day' } });
    e.clock.advance(DAY);
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' })).status).toBe(200);
    e.clock.advance(3_600_000);
    expect((await call('GET', `${APP}/jobs/${j.id}/artifacts`, { token: 'dev-token' })).status).toBe(404);
    expect(e.state.artifactCleanup.failNext).toBe(0);
  });

  it('refuses duration words it cannot read', () => {
    const ci = world().ci('acme/app');
    const j = ci.job(ci.pipeline({}).id, { name: 'bad' });
    expect(() => ci.artifacts(j.id, { files: { a: 'a' }, expireIn: 'soonish' })).toThrow(/expire_in/);
    expect(ci.artifacts(j.id, { files: { a: 'a' }, expireIn: 'never' }).expireAt).toBeNull();
    expect(ci.artifacts(j.id, { files: { a: 'a' }, expireIn: '1 week and 2 days' }).expireAt).toBe(Date.parse(NOW) + 9 * DAY);
  });
});
