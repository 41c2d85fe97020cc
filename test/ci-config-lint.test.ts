// CI Lint through the API (lib/api/lint.rb, spec/requests/api/lint_spec.rb): POST checks given
// content, GET the project's own file at a commit; permissions as GitLab's.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { mswDoor } from './support/msw.js';
import { ACME, seededWorld, TEAM, TEAM_MEMBERS, jsonCall } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const CI = 'include:\n  local: another-gitlab-ci.yml\ntest:\n  stage: test\n  script: echo 1\n';
const INCLUDED = 'another_test:\n  stage: test\n  script: echo 1\n';
const INVALID = 'image: image:1.0\nservices:\n- postgres\n';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: {
        files: { '.gitlab-ci.yml': CI, 'another-gitlab-ci.yml': INCLUDED },
        commits: [{ branch: 'invalid-content', start_branch: 'main', message: 'Break it', files: { '.gitlab-ci.yml': INVALID } }],
      },
    },
    { namespace: 'acme', path: 'open', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, repository: { files: { '.gitlab-ci.yml': 'test:\n  script: echo 1\n' } } },
    { namespace: 'acme', path: 'empty', visibility: 'private', creator: 'root', members: TEAM_MEMBERS },
  ],
};

const world = seededWorld(FIXTURE, NOW);

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });

const post = (project: string, body: Record<string, unknown>, token = 'dev-token') => call('POST', `/projects/acme%2F${project}/ci/lint`, token, body);
const get = (project: string, query = '', token: string | null = 'dev-token') => call('GET', `/projects/acme%2F${project}/ci/lint${query}`, token ?? undefined);

async function headSha(project: string): Promise<string> {
  return (await call('GET', `/projects/acme%2F${project}/repository/branches/main`, 'root-token')).body.commit.id;
}

describe('POST /projects/:id/ci/lint', () => {
  it('answers a valid file with its includes merged and listed, as GitLab does', async () => {
    const sha = await headSha('app');
    const { status, body } = await post('app', { content: CI });
    expect(status).toBe(200);
    expect(body).toEqual({
      valid: true, errors: [], warnings: [],
      merged_yaml: '---\nanother_test:\n  stage: test\n  script: echo 1\ntest:\n  stage: test\n  script: echo 1\n',
      includes: [{
        type: 'local', location: 'another-gitlab-ci.yml',
        blob: `https://gitlab.example.com/acme/app/-/blob/${sha}/another-gitlab-ci.yml`,
        raw: `https://gitlab.example.com/acme/app/-/raw/${sha}/another-gitlab-ci.yml`,
        extra: {}, context_project: 'acme/app', context_sha: sha,
      }],
    });
  });

  it('answers an invalid file with GitLab\'s error, its merged YAML and no includes', async () => {
    const { status, body } = await post('app', { content: INVALID, include_jobs: true });
    expect(status).toBe(200);
    expect(body).toEqual({ valid: false, errors: ['jobs config should contain at least one visible job'], warnings: [], merged_yaml: '---\nimage: image:1.0\nservices:\n- postgres\n', includes: [], jobs: [] });
  });

  it('answers merged_yaml and includes null when an include fails', async () => {
    const { body } = await post('app', { content: 'include:\n  remote: https://example.com/ci.yml\ntest:\n  script: x\n' });
    expect(body).toEqual({ valid: false, errors: ['Remote file `https://example.com/ci.yml` could not be fetched: remote includes are not emulated'], warnings: [], merged_yaml: null, includes: null });
  });

  it('lists the jobs only with include_jobs', async () => {
    const content = 'stages: [build, test]\nbuild:\n  stage: build\n  script: make\n  tags: [docker]\ntest:\n  script: make test\n  needs: [build]\n  environment: review\n  when: manual\n';
    const { body } = await post('app', { content, include_jobs: true });
    expect(body.jobs).toEqual([
      { name: 'build', stage: 'build', before_script: [], script: ['make'], after_script: [], tag_list: ['docker'], only: { refs: ['branches', 'tags'] }, except: null, environment: null, when: 'on_success', allow_failure: false, needs: null },
      { name: 'test', stage: 'test', before_script: [], script: ['make test'], after_script: [], tag_list: [], only: { refs: ['branches', 'tags'] }, except: null, environment: 'review', when: 'manual', allow_failure: true, needs: [{ name: 'build', artifacts: true, optional: false }] },
    ]);
    expect('jobs' in (await post('app', { content, include_jobs: false })).body).toBe(false);
  });

  it('warns about a bare rules:when without workflow:rules', async () => {
    const { body } = await post('app', { content: 'job:\n  script: ls\n  rules:\n    - when: always\n' });
    expect([body.valid, body.warnings.length]).toEqual([true, 1]);
  });

  it('simulates a push pipeline on dry_run: the jobs of the ref, workflow\'s refusal as an error', async () => {
    const content = 'workflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\na:\n  script: x\nb:\n  script: x\n  rules:\n    - if: $CI_COMMIT_BRANCH != "main"\n';
    const main = (await post('app', { content, dry_run: true, include_jobs: true })).body;
    expect([main.valid, main.jobs.map((j: { name: string }) => j.name)]).toEqual([true, ['a']]);
    expect(main.jobs[0]).toEqual({ name: 'a', stage: 'test', before_script: [], script: ['x'], after_script: [], tag_list: [], environment: null, when: 'on_success', allow_failure: false });
    const other = (await post('app', { content, dry_run: true, ref: 'invalid-content' })).body;
    expect([other.valid, other.errors]).toEqual([false, ['Pipeline filtered out by workflow rules.']]);
  });

  it('refuses a dry run on a ref that does not exist', async () => {
    expect((await post('app', { content: CI, dry_run: true, ref: 'nope' })).body).toEqual({ valid: false, errors: ['Reference not found'], warnings: [], merged_yaml: null, includes: null });
  });

  it('answers "Please provide content" for empty content, and 400 without content (the spec envelope for a missing attribute)', async () => {
    expect((await post('app', { content: '' })).body.errors).toEqual(['Please provide content of .gitlab-ci.yml']);
    expect(await post('app', {})).toEqual({ status: 400, body: { message: '400 Bad request - "content" not given' } });
  });

  it('passes in a project with an empty repository', async () => {
    expect((await post('empty', { content: 'test:\n  script: x\n' })).body.valid).toBe(true);
  });

  it.each([
    ['a guest', 'guest-token', 403],
    ['a reporter', 'reporter-token', 403],
    ['a non-member of a private project', 'outsider-token', 404],
    ['an anonymous caller of a private project', undefined, 404],
  ])('is refused to %s', async (_who, token, status) => {
    expect((await call('POST', '/projects/acme%2Fapp/ci/lint', token, { content: CI })).status).toBe(status);
  });

  it('is 403 to a non-member and to an anonymous caller of a public project', async () => {
    expect((await call('POST', '/projects/acme%2Fopen/ci/lint', 'outsider-token', { content: CI })).status).toBe(403);
    expect((await call('POST', '/projects/acme%2Fopen/ci/lint', undefined, { content: CI })).status).toBe(403);
  });
});

describe('GET /projects/:id/ci/lint', () => {
  it('checks the file of the default branch\'s head', async () => {
    const { status, body } = await get('app');
    expect(status).toBe(200);
    expect([body.valid, body.errors, body.includes.length]).toEqual([true, [], 1]);
  });

  it('reads the file at content_ref (or the deprecated sha)', async () => {
    const { body } = await get('app', '?content_ref=invalid-content');
    expect(body).toEqual({ valid: false, errors: ['jobs config should contain at least one visible job'], warnings: [], merged_yaml: `---\n${INVALID}`, includes: [] });
    expect((await get('app', '?sha=invalid-content')).body.valid).toBe(false);
  });

  it('is 404 for an unknown ref, an empty repository, and 400 for both sha and content_ref', async () => {
    expect(await get('app', '?content_ref=unknown')).toEqual({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await get('empty')).toEqual({ status: 404, body: { message: '404 Repository Not Found' } });
    expect(await get('app', '?sha=main&content_ref=main')).toEqual({ status: 400, body: { error: 'sha, content_ref are mutually exclusive' } });
    expect(await get('app', '?ref=main&dry_run_ref=main')).toEqual({ status: 400, body: { error: 'ref, dry_run_ref are mutually exclusive' } });
  });

  it('is 403 to a guest of a private project, 404 to an outsider, open to anyone on a public one', async () => {
    expect((await get('app', '', 'guest-token')).status).toBe(403);
    expect((await get('app', '', 'outsider-token')).status).toBe(404);
    expect((await get('app', '', null)).status).toBe(404);
    expect((await get('open', '', null)).body).toMatchObject({ valid: true, errors: [] });
  });

  it('answers a dry run by someone who may not create pipelines with GitLab\'s refusal', async () => {
    expect((await get('open', '?dry_run=true', 'outsider-token')).body).toEqual({
      valid: false, errors: ['Insufficient permissions to create a new pipeline'], warnings: [], merged_yaml: null, includes: null,
    });
    expect((await get('open', '?dry_run=true&include_jobs=true', 'dev-token')).body.jobs.map((j: { name: string }) => j.name)).toEqual(['test']);
  });
});

describe('through the MSW door', () => {
  const door = mswDoor();

  it('lints by fetch as a unit test would, a form body as python-gitlab\'s CLI sends it too', async () => {
    const send = door.serve(world());
    const res = await send('/projects/acme%2Fapp/ci/lint', 'dev-token', 'POST', { content: '---\n:test_job:\n  :script: echo 1\n' });
    expect(await res.json()).toEqual({ valid: true, errors: [], warnings: [], merged_yaml: '---\ntest_job:\n  script: echo 1\n', includes: [] });
    const form = await fetch('https://gitlab.example.com/api/v4/projects/acme%2Fapp/ci/lint', {
      method: 'POST', headers: { 'PRIVATE-TOKEN': 'dev-token' }, body: new URLSearchParams({ content: 'invalid' }),
    });
    expect(await form.json()).toMatchObject({ valid: false, errors: ['Invalid configuration format'] });
  });
});
