// Epics and iterations as GitLab renders them (ee/lib/ee/api/entities/epic.rb,
// entities/iteration.rb, and the `epic` of an issue, EpicBaseEntity).
import { iso } from '../../render/time.js';
import type { User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { labelBasic, labelById, textColor, type Label } from '../labels/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { Epic, Iteration } from './records.js';
import { epicById, iterationState } from './rules.js';

/** The issue's `epic`: id, iid, title, url, group_id (EpicBaseEntity). */
export function issueEpic(state: State, epic: Epic, u: UrlBase) {
  const g = tget(state.namespaces, epic.groupId);
  return { id: epic.id, iid: epic.iid, title: epic.title, url: `${u.webBase}/groups/${g?.fullPath ?? ''}/-/epics/${epic.iid}`, group_id: epic.groupId };
}

export function iterationEntity(state: State, it: Iteration, u: UrlBase, now: number) {
  const g = tget(state.namespaces, it.groupId);
  return {
    id: it.id,
    iid: it.iid,
    sequence: it.sequence,
    group_id: it.groupId,
    title: it.title,
    description: it.description === '' ? null : it.description,
    state: iterationState(it, now),
    created_at: iso(it.createdAt),
    updated_at: iso(it.updatedAt),
    start_date: it.startDate,
    due_date: it.dueDate,
    web_url: `${u.webBase}/groups/${g?.fullPath ?? ''}/-/iterations/${it.id}`,
  };
}

function epicLabels(state: State, epic: Epic): Label[] {
  return epic.labelIds.map((id) => labelById(state, id)).filter((l): l is Label => !!l).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

/** EE::API::Entities::Epic. */
export function epicEntity(state: State, epic: Epic, u: UrlBase, viewer: User | null, opts: { withLabelsDetails?: boolean; contextGroupId?: number } = {}) {
  const g = tget(state.namespaces, epic.groupId)!;
  const parent = epic.parentId === null ? undefined : epicById(state, epic.parentId);
  const author = tget(state.users, epic.authorId);
  const labels = epicLabels(state, epic);
  const api = `${u.webBase}/api/v4/groups/${epic.groupId}`;
  const short = `&${epic.iid}`;
  void viewer;
  return {
    id: epic.id,
    iid: epic.iid,
    color: epic.color,
    text_color: textColor(epic.color),
    group_id: epic.groupId,
    parent_id: epic.parentId,
    parent_iid: parent?.iid ?? null,
    title: epic.title,
    description: epic.description === '' ? null : epic.description,
    confidential: epic.confidential,
    author: author ? userBasic(author, u) : null,
    start_date: epic.startDate,
    start_date_is_fixed: epic.startDate !== null,
    start_date_fixed: epic.startDate,
    start_date_from_inherited_source: null,
    start_date_from_milestones: null,
    end_date: epic.dueDate,
    due_date: epic.dueDate,
    due_date_is_fixed: epic.dueDate !== null,
    due_date_fixed: epic.dueDate,
    due_date_from_inherited_source: null,
    due_date_from_milestones: null,
    state: epic.state,
    web_edit_url: `/groups/${g.fullPath}/-/epics/${epic.iid}`,
    web_url: `${u.webBase}/groups/${g.fullPath}/-/epics/${epic.iid}`,
    references: { short, relative: opts.contextGroupId === undefined || opts.contextGroupId === epic.groupId ? short : `${g.fullPath}${short}`, full: `${g.fullPath}${short}` },
    created_at: iso(epic.createdAt),
    updated_at: iso(epic.updatedAt),
    closed_at: iso(epic.closedAt),
    labels: opts.withLabelsDetails ? labels.map(labelBasic) : labels.map((l) => l.title),
    upvotes: 0,
    downvotes: 0,
    _links: {
      self: `${api}/epics/${epic.iid}`,
      epic_issues: `${api}/epics/${epic.iid}/issues`,
      group: api,
      parent: parent ? `${u.webBase}/api/v4/groups/${parent.groupId}/epics/${parent.iid}` : null,
    },
  };
}
