// Tags (lib/api/tags.rb, spec/requests/api/tags_spec.rb).
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../src/families/tags/rules.js';
import type { Fixture } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject, type CallInit } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      jobs: [{ name: 'build', user: 'dev', token: 'job-token-1' }],
      repository: {
        files: { 'README.md': '# App\n' },
        commits: [
          { message: 'Second', files: { 'a.txt': 'a\n' }, date: '2024-01-02T00:00:00Z' },
          { message: 'Third', files: { 'b.txt': 'b\n' }, date: '2024-01-03T00:00:00Z' },
        ],
        tags: {
          'v1.10.0': 'main',
          'v1.2.0': 'main~1',
          'v1.1.0': 'main~2',
          'release-candidate': { ref: 'main~1', message: 'RC\n' },
          'signed-v1': { ref: 'main', message: 'Signed release', signature: { certificate: { subject: 'CN=Dee,O=Acme', email: 'dee@example.com', serial_number: 278969561018901340 } } },
        },
        protected_tags: { 'v*': { create_access_level: 'maintainer' } },
      },
    }),
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository: { files: { 'index.html': 'hi\n' }, tags: { 'v0.1': 'main' } } },
  ],
};

const world = seededWorld(FIXTURE, '2024-01-05T00:00:00Z');
const api = (path: string, init?: CallInit) => apiCall(world(), path, init);

const TAGS = '/projects/acme%2Fapp/repository/tags';
const names = (list: { name: string }[]) => list.map((t) => t.name);
const list = async (q = '', token = 'dev-token') => (await (await api(`${TAGS}?${q}`, { token })).json()) as { name: string }[];

describe('GET /projects/:id/repository/tags', () => {
  it('renders the Tag entity: lightweight and annotated', async () => {
    const res = await api(TAGS, { token: 'dev-token' });
    expect(res.status).toBe(200);
    const tags = (await res.json()) as Record<string, unknown>[];
    const refs = world().git('acme/app').refs();
    const light = tags.find((t) => t.name === 'v1.10.0')!;
    expect(Object.keys(light)).toEqual(['name', 'message', 'target', 'commit', 'release', 'protected', 'created_at']);
    expect(light).toMatchObject({ message: null, target: refs.branches.main, release: null, protected: true, created_at: null });
    expect(light.commit).toMatchObject({ id: refs.branches.main, title: 'Third' });
    const annotated = tags.find((t) => t.name === 'release-candidate')!;
    expect(annotated).toMatchObject({ message: 'RC', target: refs.tags['release-candidate']!.target, protected: false, created_at: '2024-01-05T00:00:00.000+00:00' });
    expect(annotated.target).not.toBe(refs.tags['release-candidate']!.commit);
    expect((annotated.commit as { title: string }).title).toBe('Second');
  });

  it('orders by creator date (default desc), name and version, in both directions', async () => {
    // creatordate: the annotated tags were made "now" (2024-01-05), lightweight ones take their
    // commit's date (the initial commit is also "now"); equal dates keep refname order.
    expect(names(await list())).toEqual(['release-candidate', 'signed-v1', 'v1.1.0', 'v1.10.0', 'v1.2.0']);
    expect(names(await list('sort=asc'))).toEqual(['v1.2.0', 'v1.10.0', 'release-candidate', 'signed-v1', 'v1.1.0']);
    expect(names(await list('order_by=name&sort=asc'))).toEqual(['release-candidate', 'signed-v1', 'v1.1.0', 'v1.10.0', 'v1.2.0']);
    expect(names(await list('order_by=name'))).toEqual(['v1.2.0', 'v1.10.0', 'v1.1.0', 'signed-v1', 'release-candidate']);
    expect(names(await list('order_by=version&sort=asc'))).toEqual(['release-candidate', 'signed-v1', 'v1.1.0', 'v1.2.0', 'v1.10.0']);
    expect(names(await list('order_by=version'))).toEqual(['v1.10.0', 'v1.2.0', 'v1.1.0', 'signed-v1', 'release-candidate']);
  });

  it('refuses unknown orders with Grape errors', async () => {
    const res = await api(`${TAGS}?order_by=date`, { token: 'dev-token' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'order_by does not have a valid value' });
    expect((await api(`${TAGS}?sort=up`, { token: 'dev-token' })).status).toBe(400);
  });

  it('searches: substring in any case, ^ begins, $ ends, exact match first', async () => {
    const res = await api(`${TAGS}?search=v1.1.0`, { token: 'dev-token' });
    expect(names(await res.json())).toEqual(['v1.1.0']);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-page')).toBe('1');
    expect(names(await list('search=V1'))).toEqual(['signed-v1', 'v1.1.0', 'v1.10.0', 'v1.2.0']);
    expect(names(await list('search=%5Ev1'))).toEqual(['v1.1.0', 'v1.10.0', 'v1.2.0']);
    expect(names(await list('search=.0%24&order_by=name&sort=asc'))).toEqual(['v1.1.0', 'v1.10.0', 'v1.2.0']);
    expect(names(await list('search=v1.1&order_by=name&sort=asc'))).toEqual(['v1.1.0', 'v1.10.0']);
    expect(names(await list('search=%5Esigned-v1%24'))).toEqual(['signed-v1']);
    expect(await list('search=*')).toEqual([]);
  });

  it('gives the first page offset headers from the tag count, later pages plain offset pages', async () => {
    const first = await api(`${TAGS}?per_page=2&order_by=name&sort=asc`, { token: 'dev-token' });
    expect(names(await first.json())).toEqual(['release-candidate', 'signed-v1']);
    expect(first.headers.get('x-total')).toBe('5');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await api(`${TAGS}?per_page=2&page=2&order_by=name&sort=asc`, { token: 'dev-token' });
    expect(names(await second.json())).toEqual(['v1.1.0', 'v1.10.0']);
    expect(second.headers.get('x-prev-page')).toBe('1');
    const one = await api(`${TAGS}?per_page=100`, { token: 'dev-token' });
    expect(one.headers.get('x-next-page')).toBe('');
    expect(one.headers.get('x-total-pages')).toBe('1');
  });

  it('pages by keyset with page_token; an unknown token is 422', async () => {
    const res = await api(`${TAGS}?pagination=keyset&per_page=2&order_by=name&sort=asc`, { token: 'dev-token' });
    expect(names(await res.json())).toEqual(['release-candidate', 'signed-v1']);
    const link = res.headers.get('link')!;
    expect(link).toMatch(/page_token=signed-v1/);
    expect(link).toMatch(/rel="next"$/);
    const next = await api(`${TAGS}?pagination=keyset&per_page=2&order_by=name&sort=asc&page_token=signed-v1`, { token: 'dev-token' });
    expect(names(await next.json())).toEqual(['v1.1.0', 'v1.10.0']);
    const all = await api(`${TAGS}?pagination=keyset&per_page=100`, { token: 'dev-token' });
    expect(all.headers.get('link')).toBeNull();
    const bad = await api(`${TAGS}?pagination=keyset&page_token=unknown`, { token: 'dev-token' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: 'Invalid page token: refs/tags/unknown' });
  });

  it('follows read_code: anonymous public 200, anonymous private 404, guest 403, job token, disabled repository 403', async () => {
    expect((await api('/projects/acme%2Fsite/repository/tags')).status).toBe(200);
    const anon = await api(TAGS);
    expect(anon.status).toBe(404);
    expect(await anon.json()).toEqual({ message: '404 Project Not Found' });
    expect((await api(TAGS, { token: 'guest-token' })).status).toBe(403);
    expect((await api(TAGS, { headers: { 'JOB-TOKEN': 'job-token-1' } })).status).toBe(200);
    // A single tag does not take job tokens: the token is ignored, and the project stays hidden.
    expect((await api(`${TAGS}/v1.1.0`, { headers: { 'JOB-TOKEN': 'job-token-1' } })).status).toBe(404);
    await api('/projects/acme%2Fsite', { method: 'PUT', token: 'root-token', json: { repository_access_level: 'disabled' } });
    expect((await api('/projects/acme%2Fsite/repository/tags', { token: 'root-token' })).status).toBe(403);
  });

  it('embeds the release made from a tag; deleting the tag deletes the release', async () => {
    const made = await api('/projects/acme%2Fapp/releases', { method: 'POST', token: 'dev-token', json: { tag_name: 'release-candidate', description: 'RC notes' } });
    expect(made.status).toBe(201);
    const tag = await (await api(`${TAGS}/release-candidate`, { token: 'dev-token' })).json();
    expect(tag.release).toEqual({ tag_name: 'release-candidate', description: 'RC notes' });
    expect((await api(`${TAGS}/release-candidate`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
    expect((await api('/projects/acme%2Fapp/releases/release-candidate', { token: 'dev-token' })).status).toBe(404);
  });

  it('hides the release key from callers who may not read releases', async () => {
    await api('/projects/acme%2Fsite', { method: 'PUT', token: 'root-token', json: { releases_access_level: 'private' } });
    const [tag] = (await (await api('/projects/acme%2Fsite/repository/tags')).json()) as Record<string, unknown>[];
    expect(tag).not.toHaveProperty('release');
    const [own] = (await (await api('/projects/acme%2Fsite/repository/tags', { token: 'root-token' })).json()) as Record<string, unknown>[];
    expect(own).toHaveProperty('release', null);
  });
});

describe('GET /projects/:id/repository/tags/:tag_name', () => {
  it('gets one tag, escaped names and project paths included; unknown is 404 Tag Not Found', async () => {
    const res = await api(`${TAGS}/v1.2.0`, { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'v1.2.0', message: null, protected: true });
    const missing = await api(`${TAGS}/v9`, { token: 'dev-token' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Tag Not Found' });
    const { id } = await (await api('/projects/acme%2Fapp', { token: 'dev-token' })).json();
    expect((await api(`/projects/${id}/repository/tags/v1.2.0`, { token: 'dev-token' })).status).toBe(200);
    await api(TAGS, { method: 'POST', token: 'dev-token', json: { tag_name: 'feature/x', ref: 'main' } });
    expect(await (await api(`${TAGS}/feature%2Fx`, { token: 'dev-token' })).json()).toMatchObject({ name: 'feature/x' });
    expect((await api(`${TAGS}/feature/x`, { token: 'dev-token' })).status).toBe(404);
  });
});

describe('POST /projects/:id/repository/tags', () => {
  it('creates a lightweight tag: message null, target the commit', async () => {
    const res = await api(TAGS, { method: 'POST', token: 'dev-token', json: { tag_name: 'nightly.2024.01.05', ref: 'main' } });
    expect(res.status).toBe(201);
    const main = world().git('acme/app').refs().branches.main;
    expect(await res.json()).toMatchObject({ name: 'nightly.2024.01.05', message: null, target: main, commit: { id: main }, release: null, protected: false });
    expect(world().git('acme/app').refs().tags['nightly.2024.01.05']).toEqual({ target: main, commit: main, message: null });
  });

  it('creates an annotated tag: the message stripped, target the tag object, tagger the caller', async () => {
    const res = await api(TAGS, { method: 'POST', token: 'dev-token', json: { tag_name: 'rc2', ref: 'main~1', message: '  Second RC \n' } });
    expect(res.status).toBe(201);
    const body = await res.json();
    const refs = world().git('acme/app').refs();
    expect(body).toMatchObject({ name: 'rc2', message: 'Second RC', target: refs.tags.rc2!.target, created_at: '2024-01-05T00:00:00.000+00:00' });
    expect(body.commit.title).toBe('Second');
    const dir = mkdtempSync(join(tmpdir(), 'tags-'));
    try {
      await world().git('acme/app').export(dir);
      const object = execFileSync('git', ['cat-file', '-p', 'rc2'], { cwd: dir, encoding: 'utf8' });
      expect(object).toContain(`object ${refs.tags.rc2!.commit}\ntype commit\ntag rc2\ntagger Dee Veloper <dev@example.com> 1704412800 +0000\n\nSecond RC\n`);
      expect(execFileSync('git', ['rev-parse', 'rc2'], { cwd: dir, encoding: 'utf8' }).trim()).toBe(body.target);
      execFileSync('git', ['fsck', '--strict'], { cwd: dir, stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a blank message makes a lightweight tag; a tag as ref is peeled to its commit', async () => {
    const res = await api(TAGS, { method: 'POST', token: 'dev-token', json: { tag_name: 'again', ref: 'release-candidate', message: '   ' } });
    expect(res.status).toBe(201);
    const refs = world().git('acme/app').refs();
    expect(await res.json()).toMatchObject({ message: null, target: refs.tags['release-candidate']!.commit });
  });

  it('answers the service failures with 405 and its message, and changes nothing', async () => {
    const before = world().git('acme/app').refs().tags;
    const cases: [Record<string, unknown>, string][] = [
      [{ tag_name: 'new design', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: 'HEAD', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: 'release-candidate', ref: 'main' }, 'Tag release-candidate already exists'],
      [{ tag_name: 'new_design1', ref: 'foo' }, 'Target foo is invalid'],
      [{ tag_name: 'new_design1', ref: ' ' }, 'Target is empty'],
      [{ tag_name: 'v2.0', ref: 'main' }, 'You are not allowed to create this tag as it is protected.'],
    ];
    for (const [json, message] of cases) {
      const res = await api(TAGS, { method: 'POST', token: 'dev-token', json });
      expect(res.status, message).toBe(405);
      expect(await res.json()).toEqual({ message });
    }
    expect(world().git('acme/app').refs().tags).toEqual(before);
  });

  it('lets maintainers create protected tags; missing parameters and roles are refused first', async () => {
    expect((await api(TAGS, { method: 'POST', token: 'maintainer-token', json: { tag_name: 'v2.0', ref: 'main' } })).status).toBe(201);
    const missing = await api(TAGS, { method: 'POST', token: 'dev-token', json: { ref: 'main' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: '400 Bad request - "tag_name" not given' });
    expect((await api(TAGS, { method: 'POST', token: 'reporter-token', json: { tag_name: 'x', ref: 'main' } })).status).toBe(403);
    expect((await api(TAGS, { method: 'POST', token: 'guest-token', json: { tag_name: 'x', ref: 'main' } })).status).toBe(403);
    expect((await api(TAGS, { method: 'POST', json: { tag_name: 'x', ref: 'main' } })).status).toBe(404);
  });
});

describe('DELETE /projects/:id/repository/tags/:tag_name', () => {
  it('deletes (204); unknown is 404; protected tags need a maintainer', async () => {
    expect((await api(`${TAGS}/release-candidate`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
    expect(world().git('acme/app').refs().tags).not.toHaveProperty('release-candidate');
    const missing = await api(`${TAGS}/release-candidate`, { method: 'DELETE', token: 'dev-token' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Tag Not Found' });
    expect((await api(`${TAGS}/v1.1.0`, { method: 'DELETE', token: 'dev-token' })).status).toBe(403);
    expect((await api(`${TAGS}/v1.1.0`, { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
  });

  it('honours If-Unmodified-Since against the tagged commit authored date', async () => {
    const stale = await api(`${TAGS}/v1.10.0`, { method: 'DELETE', token: 'maintainer-token', headers: { 'If-Unmodified-Since': 'Tue, 02 Jan 2024 00:00:00 GMT' } });
    expect(stale.status).toBe(412);
    expect(world().git('acme/app').refs().tags).toHaveProperty('v1.10.0');
    const fresh = await api(`${TAGS}/v1.10.0`, { method: 'DELETE', token: 'maintainer-token', headers: { 'If-Unmodified-Since': 'Wed, 03 Jan 2024 00:00:00 GMT' } });
    expect(fresh.status).toBe(204);
  });
});

describe('GET /projects/:id/repository/tags/:tag_name/signature', () => {
  it('returns the X.509 record of a signed tag', async () => {
    const res = await api(`${TAGS}/signed-v1/signature`, { token: 'dev-token' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      signature_type: 'X509',
      verification_status: 'verified',
      x509_certificate: {
        subject: 'CN=Dee,O=Acme',
        email: 'dee@example.com',
        serial_number: 278969561018901340,
        certificate_status: 'good',
        x509_issuer: { subject: 'CN=Example Issuing CA,O=Example', crl_url: 'http://crl.example.com/issuing-ca.crl' },
      },
    });
    expect(body.x509_certificate.subject_key_identifier).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(Object.keys(body.x509_certificate)).toEqual(['id', 'subject', 'subject_key_identifier', 'email', 'serial_number', 'certificate_status', 'x509_issuer']);
  });

  it('404 Signature Not Found for an unsigned tag, 404 Tag Not Found for an unknown one', async () => {
    const unsigned = await api(`${TAGS}/release-candidate/signature`, { token: 'dev-token' });
    expect(unsigned.status).toBe(404);
    expect(await unsigned.json()).toEqual({ message: '404 Signature Not Found' });
    const unknown = await api(`${TAGS}/nope/signature`, { token: 'dev-token' });
    expect(await unknown.json()).toEqual({ message: '404 Tag Not Found' });
  });
});

describe('version order', () => {
  it('agrees with git tag --sort=version:refname', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vsort-'));
    try {
      const tag = fc.stringMatching(/^[a-z]{0,2}(\d{1,3}[.-]){0,3}\d{1,3}[a-z]{0,2}$/);
      const sample = fc.sample(fc.uniqueArray(tag, { minLength: 2, maxLength: 12 }), { numRuns: 15, seed: 7 });
      execFileSync('git', ['init', '-q', dir]);
      execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: dir });
      for (const names of sample) {
        const existing = execFileSync('git', ['tag'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);
        if (existing.length) execFileSync('git', ['tag', '-d', ...existing], { cwd: dir, stdio: 'pipe' });
        for (const n of names) execFileSync('git', ['tag', n], { cwd: dir });
        const git = execFileSync('git', ['-c', 'versionsort.suffix=', 'tag', '--sort=version:refname'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);
        expect([...names].sort((a, b) => compareVersions(a, b) || (a < b ? -1 : 1))).toEqual(git);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
