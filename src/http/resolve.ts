// `:id` of projects and groups: a number, or the URL-encoded full path (lib/api/helpers.rb
// find_project!, find_group!). What the caller cannot see is 404, never 403.
import { canReadGroup, canReadProject } from '../domain/access.js';
import { projectFullPath } from '../domain/projects.js';
import type { Namespace, Project } from '../store/state.js';
import { tget } from '../store/table.js';
import type { Context } from './context.js';
import { forbidden, notFound } from './errors.js';

export function lookupProject(ctx: Context<unknown>, id: string): Project | undefined {
  const { state } = ctx;
  if (/^-?\d+$/.test(id)) return tget(state.projects, Number(id));
  if (!id.includes('/')) return undefined;
  const entry = tget(state.paths, id.toLowerCase());
  return entry?.kind === 'project' ? tget(state.projects, entry.id) : undefined;
}

/** The project the caller may read, or GitLab's 404 (and 403 for a job token from outside its allowlist). */
export function findProject(ctx: Context<unknown>, id: string): Project {
  const project = lookupProject(ctx, id);
  if (!project || project.pendingDelete) throw notFound('Project');
  const { caller } = ctx;
  if (caller.method === 'job' && caller.token?.projectId !== project.id && !project.jobTokenAllowlist.includes(caller.token!.projectId!)) {
    const source = tget(ctx.state.projects, caller.token!.projectId!);
    throw forbidden(
      `Authentication by CI/CD job token not allowed from ${source ? projectFullPath(ctx.state, source) : 'unknown'} to ${projectFullPath(ctx.state, project)}.`,
    );
  }
  if (!canReadProject(ctx.state, ctx.user, project, ctx.now())) throw notFound('Project');
  return project;
}

export function lookupGroup(ctx: Context<unknown>, id: string): Namespace | undefined {
  const { state } = ctx;
  let ns: Namespace | undefined;
  if (/^-?\d+$/.test(id)) ns = tget(state.namespaces, Number(id));
  else {
    const entry = tget(state.paths, id.toLowerCase());
    ns = entry?.kind === 'namespace' ? tget(state.namespaces, entry.id) : undefined;
  }
  return ns?.kind === 'group' ? ns : undefined;
}

export function findGroup(ctx: Context<unknown>, id: string): Namespace {
  const group = lookupGroup(ctx, id);
  if (!group || !canReadGroup(ctx.state, ctx.user, group, ctx.now())) throw notFound('Group');
  return group;
}
