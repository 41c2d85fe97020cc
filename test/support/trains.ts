// The world the merge train tests start from: Premium, the team, and acme/app with a CI file that
// runs one job in merge request pipelines, given branches' commits and merge requests by dev.
import type { Fixture } from '../../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS } from './world.js';

/** One job, in merge request pipelines only (train pipelines among them). */
export const MR_PIPELINE_CI = 'test:\n  script: echo ok\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n';

type Project = NonNullable<Fixture['projects']>[number];
type Commits = NonNullable<NonNullable<Project['repository']>['commits']>;

/** The fixture, with a merge request (by dev) from each named source branch, titled as given. */
export function trainFixture(commits: Commits, mergeRequests: { title: string; source_branch: string }[]): Fixture {
  return {
    instance: { tier: 'premium' },
    users: TEAM,
    groups: [ACME],
    projects: [{
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# app\n', '.gitlab-ci.yml': MR_PIPELINE_CI }, commits },
      merge_requests: mergeRequests.map((m) => ({ ...m, author: 'dev' })),
    }],
  };
}
