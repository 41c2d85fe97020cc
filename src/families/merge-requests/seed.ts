// A fixture's projects' merge requests, between branches of their repositories, after the
// issues they may close (`Closes #n`).
import { ApiError, EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { fixtureMilestoneId, fixtureTime } from '../issuables/index.js';
import { defaultBranchName, objectsOf } from '../repositories/index.js';
import { fixtureUserId } from '../users/index.js';
import { createMergeRequest } from './rules.js';
import type { mergeRequestSchema, mergeRequestsProjectSchema } from './schema.js';

/** A merge request between two branches of the project's repository. */
export type FixtureMergeRequest = Infer<typeof mergeRequestSchema>;

export type FixtureMergeRequestsPart = Infer<typeof mergeRequestsProjectSchema>;

export async function seedMergeRequests(s: SeedRun): Promise<void> {
  const projects = s.fixture.projects ?? [];
  for (const p of projects) {
    const project = tget(s.state.projects, s.handles.projects[fixtureProjectPath(p)]!.id) as Project;
    for (const [n, fm] of (p.merge_requests ?? []).entries()) {
      const where = `${projectWhere(p)}: merge request ${n + 1} '${fm.title}'`;
      const author = tget(s.state.users, fm.author ? fixtureUserId(s.state, fm.author, where) : project.creatorId);
      if (!author) throw new EmulatorError(`${where} has no author`);
      const repo = objectsOf({ db: s.git, state: s.state }, project);
      let recipe;
      try {
        recipe = await createMergeRequest(s.state, repo, project, author, {
          title: fm.title, description: fm.description, sourceBranch: fm.source_branch, targetBranch: fm.target_branch ?? defaultBranchName(project),
          assigneeIds: (fm.assignees ?? []).map((u) => fixtureUserId(s.state, u, where)), reviewerIds: (fm.reviewers ?? []).map((u) => fixtureUserId(s.state, u, where)),
          labels: fm.labels, milestoneId: fm.milestone ? fixtureMilestoneId(s.state, project, fm.milestone, where) : undefined, state: fm.state,
          createdAt: fixtureTime(fm.created_at, s.now, where),
        }, s.now, false);
      } catch (e) {
        if (e instanceof EmulatorError) throw e;
        const detail = e instanceof ApiError ? JSON.stringify(e.body) : (e as Error).message;
        throw new EmulatorError(`${where} is invalid: ${detail}`);
      }
      s.update(recipe);
    }
  }
}
