// The milestones an issue or a merge request of a project may carry: the project's, its
// group's and the group's ancestors'.
import { ancestry } from '../../policy/access.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
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
