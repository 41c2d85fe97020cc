// semantic-release's GitLab flow, run whole against the server (slow: it runs the real tool in a
// child process, eight times, a few seconds each). As a GitLab CI release job would: the project is
// cloned with git, semantic-release (commit-analyzer, release-notes-generator and
// @semantic-release/gitlab with its success comments) verifies the token (`GET /projects/:id`
// and its permissions) and git push access as `gitlab-ci-token:<personal access token>`, tags
// and pushes with git, creates the release through the API, then finds the merge requests of the
// released commits (`GET .../repository/commits/:sha/merge_requests`) and the issues they closed
// (`GET .../merge_requests/:iid/closes_issues`) and comments on each. A second run with no new
// commits releases nothing; later runs release a direct fix with assets, a squash-merged merge
// request (its title the one commit released) and a fix with the job token; a run that fails
// opens an issue, the next comments on it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { HAS_GIT } from './support/git-cli.js';

const TOKEN = 'glpat-release-bot-token';
const JOB_TOKEN = 'glcbt-release-job-token';

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    { username: 'relbot', name: 'Release Bot', email: 'relbot@example.com', tokens: [{ token: TOKEN, scopes: ['api'] }] },
    { username: 'alice', name: 'Alice', email: 'alice@example.com', tokens: [{ token: 'alice-token', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'private' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      default_branch: 'main',
      creator: 'root',
      members: [
        { user: 'relbot', access_level: 'maintainer' },
        { user: 'alice', access_level: 'developer' },
      ],
      repository: {
        protected_branches: { main: { push_access_level: 'maintainer', merge_access_level: 'developer' } },
        files: { 'README.md': '# app\n', 'src/index.js': 'export const greet = () => "hello";\n' },
        branches: { 'empty-input': 'main', goodbye: 'main' },
        commits: [
          { branch: 'goodbye', message: 'feat: draft goodbye', author: 'alice', date: '2026-03-01T08:00:00Z', files: { 'src/bye.js': 'export const bye = () => "bye";\n' } },
          { branch: 'goodbye', message: 'fix: goodbye typo', author: 'alice', date: '2026-03-01T08:30:00Z', files: { 'src/bye.js': 'export const bye = () => "goodbye";\n' } },
          { branch: 'main', message: 'chore: add a licence', author: 'alice', date: '2026-03-01T09:00:00Z', files: { LICENSE: 'MIT\n' } },
          {
            branch: 'empty-input',
            message: 'feat: greet by name',
            author: 'alice',
            date: '2026-03-01T10:00:00Z',
            files: { 'src/index.js': 'export const greet = (name) => `hello ${name}`;\n' },
          },
          {
            branch: 'empty-input',
            message: 'fix: greet the world on empty input\n\nAn empty name said "hello ".',
            author: 'alice',
            date: '2026-03-01T11:00:00Z',
            files: { 'src/index.js': 'export const greet = (name) => `hello ${name || "world"}`;\n' },
          },
        ],
      },
      jobs: [{ name: 'release', user: 'relbot', status: 'running', token: JOB_TOKEN }],
      issues: [{ title: 'An empty name says "hello "', author: 'alice' }],
      merge_requests: [
        { title: 'Greet by name', source_branch: 'empty-input', description: 'Closes #1', author: 'alice' },
        { title: 'feat: say goodbye', source_branch: 'goodbye', description: 'Two commits, squashed on merge.', author: 'alice' },
      ],
    },
  ],
};

const SEMREL_BIN = join(dirname(createRequire(import.meta.url).resolve('semantic-release/package.json')), 'bin', 'semantic-release.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command in a child process (never a synchronous one: the server runs in this process). */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!HAS_GIT)('semantic-release with @semantic-release/gitlab, as a CI release job (slow: runs the real tool)', () => {
  let emulator: Emulator;
  let server: Server;
  let work: string;
  let checkout: string;
  let mergeSha: string;
  let baseEnv: Record<string, string>;
  let jobEnv: Record<string, string>;

  const api = async (method: string, path: string, json?: unknown, token = 'root-token') => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
  };
  const git = async (args: string[], cwd = checkout) => {
    const r = await run('git', args, cwd, baseEnv);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
    return r.stdout.trim();
  };
  /** Runs the release job; with the requests the server journaled meanwhile. */
  const semanticRelease = async () => {
    const from = emulator.journal.last()?.seq ?? 0;
    const r = await run(process.execPath, [SEMREL_BIN], checkout, jobEnv);
    return { r, requests: emulator.journal.entries().filter((e) => e.seq > from) };
  };

  beforeAll(async () => {
    emulator = await createEmulator({ fixture });
    server = await emulator.listen({ port: 0 });
    work = mkdtempSync(join(tmpdir(), 'gitlab-emulator-semrel-'));
    baseEnv = {
      PATH: process.env.PATH ?? '',
      HOME: work,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Release Bot',
      GIT_AUTHOR_EMAIL: 'relbot@example.com',
      GIT_COMMITTER_NAME: 'Release Bot',
      GIT_COMMITTER_EMAIL: 'relbot@example.com',
    };

    // The developer merges the merge request, which closes the issue.
    const merged = await api('PUT', '/projects/acme%2Fapp/merge_requests/1/merge', {}, 'alice-token');
    if (merged.status !== 200) throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
    mergeSha = merged.body.merge_commit_sha;

    // The runner's checkout: cloned as `gitlab-ci-token:<job token>` (which may not push, so
    // semantic-release swaps in `gitlab-ci-token:$GITLAB_TOKEN`), at the pipeline's commit.
    const url = new URL(`${server.url}/acme/app.git`);
    url.username = 'gitlab-ci-token';
    url.password = JOB_TOKEN;
    await git(['clone', '--quiet', url.toString(), 'app'], work);
    checkout = join(work, 'app');
    await git(['checkout', '--quiet', '--detach', mergeSha]);
    writeFileSync(
      join(checkout, '.releaserc.json'),
      JSON.stringify({
        branches: ['main'],
        // @semantic-release/gitlab comments on the released merge requests and issues by default.
        plugins: ['@semantic-release/commit-analyzer', '@semantic-release/release-notes-generator', '@semantic-release/gitlab'],
      }),
    );
    jobEnv = {
      ...baseEnv,
      CI: 'true',
      GITLAB_CI: 'true',
      CI_SERVER_URL: server.url,
      CI_API_V4_URL: `${server.url}/api/v4`,
      CI_PROJECT_URL: `${server.url}/acme/app`,
      CI_PROJECT_PATH: 'acme/app',
      CI_PROJECT_ID: String((await api('GET', '/projects/acme%2Fapp')).body.id),
      CI_PROJECT_DIR: checkout,
      CI_COMMIT_REF_NAME: 'main',
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_SHA: mergeSha,
      CI_PIPELINE_ID: '1',
      CI_JOB_ID: '1',
      CI_JOB_TOKEN: JOB_TOKEN,
      GITLAB_TOKEN: TOKEN,
      GITLAB_URL: server.url,
      NO_COLOR: '1',
    };
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('releases 1.0.0: a tag at the released commit, a release with notes, comments on the merge request and the issue it closed', async () => {
    const { r, requests } = await semanticRelease();
    expect(r.code, `semantic-release failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Published release 1.0.0 on default channel');

    // What it asked, as the journal saw it: the token check, the release, the merge requests of
    // each released commit, the issues the merged one closed, two comments; all answered 2xx.
    const calls = requests.filter((e) => e.path.startsWith('/api/v4/'));
    expect(calls.every((e) => e.status < 300 && e.user === 'relbot'), calls.map((e) => `${e.method} ${e.path} ${e.status}`).join('\n')).toBe(true);
    expect(calls.map((e) => e.route)).toEqual([
      'GET /projects/:id',
      'POST /projects/:id/releases',
      ...Array(5).fill('GET /projects/:id/repository/commits/:sha/merge_requests'),
      'GET /projects/:id/merge_requests/:merge_request_iid/closes_issues',
      'POST /projects/:id/issues/:noteable_id/notes',
      'POST /projects/:id/merge_requests/:noteable_id/notes',
    ]);
    // git: the job token's push check is refused (403: a job token never pushes), then the
    // personal access token pushes the tag and semantic-release's note. Git's first request of
    // each exchange carries no credentials (401, nothing refused).
    const pushes = requests.filter((e) => e.path === '/acme/app.git/git-receive-pack');
    expect(pushes.map((e) => `${e.status} ${e.user}`)).toEqual(['200 relbot', '200 relbot']);
    expect(requests.some((e) => e.status === 403 && e.query.includes('git-receive-pack'))).toBe(true);
    expect(requests.filter((e) => e.status === 401).every((e) => e.user === null && !e.refused)).toBe(true);
    expect(await git(['ls-remote', 'origin', 'refs/notes/*'])).toContain('refs/notes/semantic-release-v1.0.0');

    const tag = await api('GET', '/projects/acme%2Fapp/repository/tags/v1.0.0');
    expect(tag.status).toBe(200);
    expect(tag.body.commit.id).toBe(mergeSha);
    expect(await git(['ls-remote', '--tags', 'origin', 'v1.0.0'])).toBe(`${mergeSha}\trefs/tags/v1.0.0`);

    const release = await api('GET', '/projects/acme%2Fapp/releases/v1.0.0');
    expect(release.status).toBe(200);
    expect(release.body.tag_name).toBe('v1.0.0');
    expect(release.body.commit.id).toBe(mergeSha);
    expect(release.body.author.username).toBe('relbot');
    // A release that is not a patch is a level-one heading in conventional-changelog's notes.
    expect(release.body.description).toMatch(/^# 1\.0\.0 \(\d{4}-\d{2}-\d{2}\)/);
    expect(release.body.description).toContain(`(${server.url}/acme/app/commit/`);
    expect(release.body.description).toContain('### Features');
    expect(release.body.description).toContain('greet by name');
    expect(release.body.description).toContain('### Bug Fixes');
    expect(release.body.description).toContain('greet the world on empty input');
    expect(release.body.description).not.toContain('add a licence');

    const issue = await api('GET', '/projects/acme%2Fapp/issues/1');
    expect(issue.body.state).toBe('closed');
    const issueNotes = (await api('GET', '/projects/acme%2Fapp/issues/1/notes?sort=asc')).body as any[];
    const issueComments = issueNotes.filter((n) => !n.system);
    expect(issueComments).toHaveLength(1);
    expect(issueComments[0].author.username).toBe('relbot');
    expect(issueComments[0].body).toContain(':tada: This issue has been resolved in version 1.0.0 :tada:');
    expect(issueComments[0].body).toContain(`[GitLab release](${server.url}/acme/app/-/releases/v1.0.0)`);

    const mrNotes = (await api('GET', '/projects/acme%2Fapp/merge_requests/1/notes?sort=asc')).body as any[];
    const mrComments = mrNotes.filter((n) => !n.system);
    expect(mrComments).toHaveLength(1);
    expect(mrComments[0].author.username).toBe('relbot');
    expect(mrComments[0].body).toContain(':tada: This MR is included in version 1.0.0 :tada:');
  }, 120_000);

  it('releases nothing on a second run without new commits', async () => {
    const { r } = await semanticRelease();
    expect(r.code, `semantic-release failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('There are no relevant changes, so no new version is released.');
    expect((await api('GET', '/projects/acme%2Fapp/releases')).body).toHaveLength(1);
    expect((await api('GET', '/projects/acme%2Fapp/repository/tags')).body.map((t: any) => t.name)).toEqual(['v1.0.0']);
    const comments = async (kind: string) => ((await api('GET', `/projects/acme%2Fapp/${kind}/1/notes`)).body as any[]).filter((n) => !n.system);
    expect(await comments('issues')).toHaveLength(1);
    expect(await comments('merge_requests')).toHaveLength(1);
  }, 120_000);

  it('releases 1.0.1 for a later fix, found after v1.0.0 through the pushed tag, with assets (an upload, a generic package), and comments on nothing new', async () => {
    const commit = await api(
      'POST',
      '/projects/acme%2Fapp/repository/commits',
      { branch: 'main', commit_message: 'fix: trim the name', actions: [{ action: 'update', file_path: 'src/index.js', content: 'export const greet = (name) => `hello ${name?.trim() || "world"}`;\n' }] },
      TOKEN,
    );
    expect(commit.status).toBe(201);
    // The next pipeline's checkout.
    await git(['fetch', '--quiet', 'origin']);
    await git(['checkout', '--quiet', '--detach', commit.body.id]);
    jobEnv = { ...jobEnv, CI_COMMIT_SHA: commit.body.id, CI_PIPELINE_ID: '2', CI_JOB_ID: '2' };
    // This job also attaches what it built: one file as a project upload, one as a generic package.
    mkdirSync(join(checkout, 'dist'));
    writeFileSync(join(checkout, 'dist', 'greet.js'), 'built\n');
    writeFileSync(join(checkout, 'dist', 'greet.tgz'), 'packed\n');
    writeFileSync(
      join(checkout, '.releaserc.json'),
      JSON.stringify({
        branches: ['main'],
        plugins: [
          '@semantic-release/commit-analyzer',
          '@semantic-release/release-notes-generator',
          ['@semantic-release/gitlab', { assets: [{ path: 'dist/greet.js', label: 'Script' }, { path: 'dist/greet.tgz', label: 'greet.tgz', target: 'generic_package' }] }],
        ],
      }),
    );

    const { r, requests } = await semanticRelease();
    expect(r.code, `semantic-release failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Found git tag v1.0.0 associated with version 1.0.0 on branch main');
    expect(r.stdout).toContain('Found 1 commits since last release');
    expect(r.stdout).toContain('Published release 1.0.1 on default channel');

    expect((await api('GET', '/projects/acme%2Fapp/repository/tags/v1.0.1')).body.commit.id).toBe(commit.body.id);
    const release = await api('GET', '/projects/acme%2Fapp/releases/v1.0.1');
    expect(release.body.description).toContain(`## [1.0.1](${server.url}/acme/app/compare/v1.0.0...v1.0.1)`);
    expect(release.body.description).toContain('trim the name');
    expect(release.body.description).not.toContain('greet by name');
    const links = release.body.assets.links as any[];
    expect(links.map((l) => l.name).sort()).toEqual(['Script', 'greet.tgz']);
    for (const link of links) {
      const res = await fetch(link.url, { headers: { 'PRIVATE-TOKEN': TOKEN } });
      expect(res.status, link.url).toBe(200);
      expect(await res.text()).toBe(link.name === 'Script' ? 'built\n' : 'packed\n');
    }
    expect((await api('GET', '/projects/acme%2Fapp/releases')).body.map((x: any) => x.tag_name)).toEqual(['v1.0.1', 'v1.0.0']);
    // The commit belongs to no merge request: nothing to comment on.
    expect(requests.filter((e) => e.route?.endsWith('/notes') || e.route?.endsWith('/closes_issues'))).toEqual([]);
    const comments = async (kind: string) => ((await api('GET', `/projects/acme%2Fapp/${kind}/1/notes`)).body as any[]).filter((n) => !n.system);
    expect(await comments('issues')).toHaveLength(1);
    expect(await comments('merge_requests')).toHaveLength(1);
  }, 120_000);

  it('releases 1.1.0 for a squash-merged merge request: its title is the one commit released, and it gets the comment', async () => {
    const merged = await api('PUT', '/projects/acme%2Fapp/merge_requests/2/merge', { squash: true }, 'alice-token');
    expect(merged.status).toBe(200);
    const head = merged.body.merge_commit_sha as string;
    await git(['fetch', '--quiet', 'origin']);
    await git(['checkout', '--quiet', '--detach', head]);
    jobEnv = { ...jobEnv, CI_COMMIT_SHA: head, CI_PIPELINE_ID: '3', CI_JOB_ID: '3' };

    const { r } = await semanticRelease();
    expect(r.code, `semantic-release failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Found 2 commits since last release');
    expect(r.stdout).toContain('Published release 1.1.0 on default channel');
    expect((await api('GET', '/projects/acme%2Fapp/repository/tags/v1.1.0')).body.commit.id).toBe(head);
    const notes = (await api('GET', '/projects/acme%2Fapp/releases/v1.1.0')).body.description as string;
    expect(notes).toContain('### Features');
    expect(notes).toContain(`* say goodbye ([${merged.body.squash_commit_sha.slice(0, 7)}]`);
    expect(notes).not.toContain('draft goodbye');
    expect(notes).not.toContain('goodbye typo');
    const comments = async (iid: number) => ((await api('GET', `/projects/acme%2Fapp/merge_requests/${iid}/notes`)).body as any[]).filter((n) => !n.system);
    const [comment, ...more] = await comments(2);
    expect(more).toEqual([]);
    expect(comment.body).toContain(':tada: This MR is included in version 1.1.0 :tada:');
    expect(await comments(1)).toHaveLength(1);
  }, 120_000);

  it('releases with the job token (useJobToken): the release made as the job\'s user, no comments', async () => {
    const commit = await api(
      'POST',
      '/projects/acme%2Fapp/repository/commits',
      { branch: 'main', commit_message: 'fix: say bye politely', actions: [{ action: 'update', file_path: 'src/bye.js', content: 'export const bye = () => "goodbye!";\n' }] },
      TOKEN,
    );
    expect(commit.status).toBe(201);
    await git(['fetch', '--quiet', 'origin']);
    await git(['checkout', '--quiet', '--detach', commit.body.id]);
    jobEnv = { ...jobEnv, CI_COMMIT_SHA: commit.body.id, CI_PIPELINE_ID: '4', CI_JOB_ID: '4' };
    writeFileSync(
      join(checkout, '.releaserc.json'),
      JSON.stringify({
        branches: ['main'],
        plugins: ['@semantic-release/commit-analyzer', '@semantic-release/release-notes-generator', ['@semantic-release/gitlab', { useJobToken: true }]],
      }),
    );
    const { r, requests } = await semanticRelease();
    expect(r.code, `semantic-release failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Published release 1.1.1 on default channel');
    const calls = requests.filter((e) => e.path.startsWith('/api/v4/'));
    expect(calls.map((e) => `${e.route} ${e.status} ${e.user}`)).toEqual(['GET /projects/:id/releases 200 relbot', 'POST /projects/:id/releases 201 relbot']);
    const release = (await api('GET', '/projects/acme%2Fapp/releases/v1.1.1')).body;
    expect(release.author.username).toBe('relbot');
    expect(release.description).toContain('say bye politely');
  }, 120_000);

  it('reports a failing release in an issue (the fail step), then comments on that issue on the next failure', async () => {
    // A job that also publishes to npm, in a repository without package.json: @semantic-release/npm
    // refuses (ENOPKG) after @semantic-release/gitlab verified the token, so the fail step runs.
    writeFileSync(
      join(checkout, '.releaserc.json'),
      JSON.stringify({
        branches: ['main'],
        plugins: ['@semantic-release/commit-analyzer', '@semantic-release/release-notes-generator', '@semantic-release/gitlab', '@semantic-release/npm'],
      }),
    );
    const first = await semanticRelease();
    expect(first.r.code).not.toBe(0);
    expect(first.r.stdout + first.r.stderr).toContain('ENOPKG');
    const title = 'The automated release is failing 🚨';
    expect(first.requests.filter((e) => e.path.startsWith('/api/v4/')).map((e) => `${e.route} ${e.status}`)).toEqual([
      'GET /projects/:id 200',
      'GET /projects/:id/issues 200',
      'POST /projects/:id/issues 201',
    ]);
    const open = async () => (await api('GET', '/projects/acme%2Fapp/issues?state=opened&labels=semantic-release')).body as any[];
    const [issue, ...others] = await open();
    expect(others).toEqual([]);
    expect(issue.title).toBe(title);
    expect(issue.author.username).toBe('relbot');
    expect(issue.description).toContain('## :rotating_light: The automated release from the `main` branch failed. :rotating_light:');
    expect(issue.description).toContain('### Missing `package.json` file.');

    // The next failure finds the open issue by its title and comments on it.
    const second = await semanticRelease();
    expect(second.r.code).not.toBe(0);
    expect(second.requests.filter((e) => e.path.startsWith('/api/v4/')).map((e) => `${e.route} ${e.status}`)).toEqual([
      'GET /projects/:id 200',
      'GET /projects/:id/issues 200',
      'POST /projects/:id/issues/:noteable_id/notes 201',
    ]);
    expect((await open()).map((i) => i.iid)).toEqual([issue.iid]);
    const notes = ((await api('GET', `/projects/acme%2Fapp/issues/${issue.iid}/notes`)).body as any[]).filter((n) => !n.system);
    expect(notes).toHaveLength(1);
    expect(notes[0].author.username).toBe('relbot');
    expect(notes[0].body).toContain('### Missing `package.json` file.');
    expect((await api('GET', '/projects/acme%2Fapp/releases')).body).toHaveLength(4);
  }, 120_000);
});
