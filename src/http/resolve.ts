// `:id` of projects and groups: a number, or the URL-encoded full path (lib/api/helpers.rb
// find_project!, find_group!). What the caller cannot see is 404, never 403.
import { canReadGroup, canReadProject } from '../policy/access.js';
import { jobTokenReaches } from '../policy/job-token.js';
import { namespaceByIdOrPath, projectByIdOrPath, projectFullPath } from '../policy/paths.js';
import type { Namespace, Project } from '../store/state.js';
import { tget } from '../store/table.js';
import type { RequestView } from './context.js';
import { forbidden, notFound } from '../core/errors.js';

/** The project the caller may read, or GitLab's 404 (and 403 for a job token from outside its allowlist). */
export function findProject(ctx: RequestView, id: string): Project {
  const project = projectByIdOrPath(ctx.state, id);
  if (!project || project.pendingDelete) throw notFound('Project');
  const { caller } = ctx;
  if (caller.method === 'job' && !jobTokenReaches(ctx.state, caller.token?.projectId, project)) {
    const source = tget(ctx.state.projects, caller.token!.projectId!);
    throw forbidden(
      `Authentication by CI/CD job token not allowed from ${source ? projectFullPath(ctx.state, source) : 'unknown'} to ${projectFullPath(ctx.state, project)}.`,
    );
  }
  if (!canReadProject(ctx.state, ctx.user, project, ctx.now())) throw notFound('Project');
  return project;
}

export function findGroup(ctx: RequestView, id: string): Namespace {
  const group = namespaceByIdOrPath(ctx.state, id);
  if (!group || group.kind !== 'group' || !canReadGroup(ctx.state, ctx.user, group, ctx.now())) throw notFound('Group');
  return group;
}
