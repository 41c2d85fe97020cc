// `rules:changes:paths` with `compare_to` (Rules::Rule::Clause::Changes, Ci::Pipeline#modified_paths_since):
// the changes are counted from the merge base of the named ref (a branch, tag or commit id, with
// variables expanded) to the pipeline's commit, whatever the pipeline's source; a ref that names
// no commit fails the pipeline with GitLab's message, and filters it out when a workflow rule asks.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: {
      files: { 'README.md': '# app\n', 'src/app.ts': 'x\n' },
      commits: [{ branch: 'feature', message: 'Docs', files: { 'docs/a.md': 'a\n' } }],
      tags: { v1: 'main' },
    },
  }],
};
const P = '/projects/acme%2Fapp';

describe('rules:changes:compare_to', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, json?: unknown, token = 'maintainer-token') => jsonCall(world(), path, { method, token, json });
  /** Writes the CI file on `feature` and asks for a pipeline there: the job names, or the refusal. */
  async function run(ci: string, variables: { key: string; value: string }[] = []) {
    const put = await call('POST', `${P}/repository/commits`, {
      branch: 'feature', commit_message: 'CI [ci skip]', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }],
    });
    expect(put.status).toBe(201);
    const made = await call('POST', `${P}/pipeline`, { ref: 'feature', variables });
    if (made.status !== 201) return made;
    const jobs = (await call('GET', `${P}/pipelines/${made.body.id}/jobs`)).body as { name: string }[];
    return { status: 201, body: jobs.map((j) => j.name).sort() };
  }
  const job = (name: string, paths: string[], compareTo: string) =>
    `${name}:\n  script: [make]\n  rules:\n    - changes:\n        paths: ${JSON.stringify(paths)}\n        compare_to: ${JSON.stringify(compareTo)}\n`;

  it('counts the changes from the merge base of a branch, tag or commit id', async () => {
    const main = (await call('GET', `${P}/repository/branches/main`)).body.commit.id;
    const ci = [job('docs', ['docs/**'], 'main'), job('src', ['src/**'], 'refs/heads/main'), job('by_tag', ['docs/*.md'], 'v1'), job('by_sha', ['.gitlab-ci.yml'], main.slice(0, 8)), 'always:\n  script: [make]\n'].join('');
    expect(await run(ci)).toEqual({ status: 201, body: ['always', 'by_sha', 'by_tag', 'docs'] });
  });

  it('expands variables in compare_to, and in the paths', async () => {
    const ci = [job('default', ['$DIR/**'], '$CI_DEFAULT_BRANCH'), job('other', ['src/**'], '$CI_DEFAULT_BRANCH'), 'always:\n  script: [make]\n'].join('');
    expect(await run(ci, [{ key: 'DIR', value: 'docs' }])).toEqual({ status: 201, body: ['always', 'default'] });
  });

  it('compared with the branch itself, nothing changed', async () => {
    const ci = [job('docs', ['**/*'], 'feature'), 'always:\n  script: [make]\n'].join('');
    expect(await run(ci)).toEqual({ status: 201, body: ['always'] });
  });

  it('a ref that names no commit fails the pipeline with GitLab\'s message', async () => {
    const ci = [job('docs', ['docs/**'], 'nowhere'), 'always:\n  script: [make]\n'].join('');
    expect(await run(ci)).toEqual({ status: 400, body: { message: { base: ['Failed to parse rule for docs: rules:changes:compare_to is not a valid ref'] } } });
    // A later rule is never read once an earlier one matched.
    const first = 'first:\n  script: [make]\n  rules:\n    - if: $CI_COMMIT_BRANCH\n    - changes:\n        paths: [x]\n        compare_to: nowhere\n';
    const second = await call('POST', `${P}/repository/commits`, { branch: 'feature', commit_message: 'CI [ci skip]', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: first }] });
    expect(second.status).toBe(201);
    expect((await call('POST', `${P}/pipeline`, { ref: 'feature' })).status).toBe(201);
  });

  it('in workflow:rules, a ref that names no commit filters the pipeline out', async () => {
    const ci = 'workflow:\n  rules:\n    - changes:\n        paths: [docs/**]\n        compare_to: nowhere\nalways:\n  script: [make]\n';
    expect(await run(ci)).toEqual({ status: 400, body: { message: { base: ['Pipeline filtered out by workflow rules.'] } } });
  });

  it('a push pipeline compares with the ref too, not with the push', async () => {
    // The push changes only the CI file; compared with main, docs/ changed as well.
    const ci = [job('docs', ['docs/**'], 'main'), job('pushed', ['docs/**'], 'feature~1')].join('');
    await call('POST', `${P}/repository/commits`, { branch: 'feature', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }] });
    await world().settled();
    const [pipeline] = (await call('GET', `${P}/pipelines?ref=feature`)).body;
    const jobs = (await call('GET', `${P}/pipelines/${pipeline.id}/jobs`)).body.map((j: { name: string }) => j.name);
    expect(jobs).toEqual(['docs']);
  });

  it('lint names a compare_to that is not a string', async () => {
    const content = 'test:\n  script: [make]\n  rules:\n    - changes:\n        paths: [a]\n        compare_to: [main]\n';
    const lint = (await call('POST', `${P}/ci/lint`, { content })).body;
    expect(lint).toMatchObject({ valid: false, errors: ['jobs:test:rules:rule:changes compare to should be a string'] });
  });
});
