// Milestones as GitLab renders them (lib/api/entities/milestone.rb, milestone_with_stats.rb).
import { isExpired } from './rules.js';
import type { Milestone } from './records.js';
import type { State } from '../world.js';
import { tget } from '../../store/table.js';
import { projectWebUrl } from '../projects/index.js';
import { iso } from '../../render/time.js';
import type { UrlBase } from '../users/index.js';

/** Gitlab::UrlBuilder for a milestone: under its project, or under its group's `/groups/` path. */
export function milestoneWebUrl(state: State, m: Milestone, u: UrlBase): string {
  if (m.projectId !== null) {
    const project = tget(state.projects, m.projectId);
    return `${project ? projectWebUrl(state, project, u) : u.webBase}/-/milestones/${m.iid}`;
  }
  const group = m.groupId !== null ? tget(state.namespaces, m.groupId) : undefined;
  return `${u.webBase}/groups/${group?.fullPath ?? ''}/-/milestones/${m.iid}`;
}

/** Entities::Milestone: `project_id` or `group_id`, whichever owns it. */
export function milestoneEntity(state: State, m: Milestone, u: UrlBase, now: number) {
  return {
    id: m.id,
    iid: m.iid,
    ...(m.projectId !== null ? { project_id: m.projectId } : {}),
    ...(m.groupId !== null ? { group_id: m.groupId } : {}),
    title: m.title,
    description: m.description === '' ? null : m.description,
    state: m.state,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    due_date: m.dueDate,
    start_date: m.startDate,
    expired: isExpired(m, now),
    web_url: milestoneWebUrl(state, m, u),
  };
}

