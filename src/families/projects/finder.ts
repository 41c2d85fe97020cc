// ProjectsFinder (app/finders/projects_finder.rb): the projects a caller may read among some
// candidates, filtered and ordered as GET /projects and a group's project list ask.
import { projectAccess, projectReader } from '../../policy/access.js';
import { projectFullPath } from '../../policy/paths.js';
import { ACCESS, type Project, type User, type Visibility } from '../../store/state.js';
import { pget } from '../../store/table.js';
import type { State } from '../world.js';
import { updatedAtNotPaired } from './errors.js';

/** The filters of a project list, named as the routes declare them. */
export interface ProjectFilters {
  order_by: string;
  sort: string;
  archived?: boolean;
  visibility?: Visibility;
  search?: string;
  search_namespaces?: boolean;
  owned: boolean;
  starred: boolean;
  membership: boolean;
  with_issues_enabled: boolean;
  with_merge_requests_enabled: boolean;
  min_access_level?: number;
  id_after?: number;
  id_before?: number;
  last_activity_after?: number;
  last_activity_before?: number;
  updated_after?: number;
  updated_before?: number;
  topic?: string[];
  /** Administrators only: each pair a custom attribute of the project. */
  custom_attributes?: Record<string, unknown>;
}

/** Whether any filter narrows the list (the order aside). */
function narrows(f: ProjectFilters): boolean {
  return (
    f.archived !== undefined || f.visibility !== undefined || !!f.search || f.owned || f.starred || f.membership || f.with_issues_enabled ||
    f.with_merge_requests_enabled || f.min_access_level !== undefined || f.id_after !== undefined || f.id_before !== undefined ||
    f.last_activity_after !== undefined || f.last_activity_before !== undefined || f.updated_after !== undefined || f.updated_before !== undefined ||
    (f.topic !== undefined && f.topic.length > 0) || (f.custom_attributes !== undefined && Object.keys(f.custom_attributes).length > 0)
  );
}

/**
 * The candidates `user` may read that pass every filter, in the order asked. `readable` says the
 * candidates are already the ones the caller may read (an index of them): with no filter, the
 * list is the candidates in order, not a walk that checks each.
 */
export function findProjects(state: State, user: User | null, f: ProjectFilters, candidates: Iterable<Project>, now: number, readable = false): Project[] {
  if (f.updated_after !== undefined || f.updated_before !== undefined) {
    if (f.order_by !== 'updated_at') throw updatedAtNotPaired();
  }
  if (readable && !narrows(f)) return sortProjects([...candidates], f.order_by, f.sort);
  const search = f.search?.toLowerCase();
  const byMembership = f.membership || f.min_access_level !== undefined || f.owned || f.starred;
  const out: Project[] = [];
  const canRead = projectReader(state, user, now);
  // ProjectsFinder#by_custom_attributes: for those who read every resource.
  const attrs = user?.admin && f.custom_attributes ? Object.entries(f.custom_attributes) : undefined;
  for (const project of candidates) {
    if (!canRead(project)) continue;
    if (byMembership) {
      if (!user) continue;
      if (f.starred && !pget(state.stars, project.id, user.id)) continue; // the stars family's
      const access = projectAccess(state, user, project, now);
      if (f.owned && !(access >= ACCESS.owner)) continue;
      if (f.membership && access < ACCESS.guest) continue;
      if (f.min_access_level !== undefined && access < f.min_access_level) continue;
    }
    if (f.archived !== undefined && project.archived !== f.archived) continue;
    if (f.visibility && project.visibility !== f.visibility) continue;
    if (f.id_after !== undefined && !(project.id > f.id_after)) continue;
    if (f.id_before !== undefined && !(project.id < f.id_before)) continue;
    if (f.last_activity_after !== undefined && !(project.lastActivityAt > f.last_activity_after)) continue;
    if (f.last_activity_before !== undefined && !(project.lastActivityAt < f.last_activity_before)) continue;
    if (f.updated_after !== undefined && !(project.updatedAt > f.updated_after)) continue;
    if (f.updated_before !== undefined && !(project.updatedAt < f.updated_before)) continue;
    if (f.topic && !f.topic.every((t) => project.topics.some((x) => x.toLowerCase() === t.toLowerCase()))) continue;
    if (attrs && !attrs.every(([k, v]) => pget(state.projectCustomAttributes, project.id, k) === String(v))) continue;
    if (f.with_issues_enabled && project.features.issues === 'disabled') continue;
    if (f.with_merge_requests_enabled && project.features.merge_requests === 'disabled') continue;
    if (search) {
      const hay = [project.name, project.path, project.description];
      if (f.search_namespaces) hay.push(projectFullPath(state, project));
      if (!hay.some((h) => h.toLowerCase().includes(search))) continue;
    }
    out.push(project);
  }
  return sortProjects(out, f.order_by, f.sort);
}

function sortProjects(list: Project[], orderBy: string, sort: string): Project[] {
  const dir = sort === 'asc' ? 1 : -1;
  const key: (p: Project) => string | number =
    orderBy === 'name' ? (p) => p.name.toLowerCase()
    : orderBy === 'path' ? (p) => p.path.toLowerCase()
    : orderBy === 'updated_at' ? (p) => p.updatedAt
    : orderBy === 'last_activity_at' ? (p) => p.lastActivityAt
    : orderBy === 'star_count' ? (p) => p.starCount
    : (p) => p.id; // created_at is replaced by id, the tie-breaker GitLab adds
  const order = (a: Project, b: Project) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || (a.id - b.id) * dir;
  };
  // Candidates mostly come in id order: a list already in order (or its reverse) is not sorted again.
  let ascending = true;
  let descending = true;
  for (let i = 1; i < list.length && (ascending || descending); i++) {
    const c = order(list[i - 1]!, list[i]!);
    if (c > 0) ascending = false;
    if (c < 0) descending = false;
  }
  if (ascending) return list;
  if (descending) return list.reverse();
  return list.sort(order);
}
