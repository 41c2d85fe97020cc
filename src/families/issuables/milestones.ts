// The milestones an issue or a merge request of a project may carry: the project's, its
// group's and the group's ancestors'; and the milestone a route names.
import { recordNotFound } from '../../core/errors.js';
import { ancestry } from '../../policy/access.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';
import { findMilestone, type Milestone } from '../milestones/index.js';
import type { State } from '../world.js';

/** The owners of the milestones an issuable of the project may carry, nearest first. */
export function milestoneOwners(state: State, project: Project) {
  const ns = tget(state.namespaces, project.namespaceId);
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  if (ns && ns.kind === 'group') for (const g of ancestry(state, ns.id)) owners.push({ groupId: g.id });
  return owners;
}

export function issueMilestone(state: State, project: Project, id: number | null): Milestone | undefined {
  if (id === null) return undefined;
  for (const o of milestoneOwners(state, project)) {
    const m = findMilestone(state, o, id);
    if (m) return m;
  }
  return undefined;
}

/** The milestone of `:milestone_id` of the scope's owner, or `404 Not found`. */
export function milestoneOf(ctx: Context<{ milestone_id: number }>, owner: { projectId: number } | { groupId: number }): Milestone {
  const m = findMilestone(ctx.state, owner, ctx.params.milestone_id);
  if (!m) throw recordNotFound();
  return m;
}
