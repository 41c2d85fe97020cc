// Epics and iterations of groups, at the higher tiers (ee/app/models/epic.rb, iteration.rb,
// EpicPolicy): group data that issues point at (`epic`, `iteration` on the Issue entity and in
// the list filters).
import type { Draft } from 'immer';
import { ancestry, canReadGroup, hasGroupRole, isWithin, today } from '../../policy/access.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { pget, pset, tget, tset } from '../../store/table.js';
import { createLabel, DEFAULT_LABEL_COLOR, labelByTitle, type Label } from '../labels/index.js';
import type { State } from '../world.js';
import type { Epic, Iteration } from './records.js';
import { ids } from './store.js';

export const DEFAULT_EPIC_COLOR = '#1068bf';

export function epicByIid(state: State, groupId: number, iid: number): Epic | undefined {
  return pget(state.epics, groupId, iid);
}

export function epicById(state: State, id: number): Epic | undefined {
  const at = tget(state.epicLocations, id);
  return at ? pget(state.epics, at.groupId, at.iid) : undefined;
}

export function iterationById(state: State, id: number): Iteration | undefined {
  const g = tget(state.iterationGroups, id);
  return g === undefined ? undefined : pget(state.iterations, g, id);
}

/** `read_confidential_epic`: Planners and above of the group (and admins); others see only their own. */
export function epicVisible(state: State, user: User | null, epic: Epic, now: number): boolean {
  if (!epic.confidential) return true;
  if (!user) return false;
  const g = tget(state.namespaces, epic.groupId);
  return epic.authorId === user.id || (!!g && hasGroupRole(state, user, g, ACCESS.planner, now));
}

/** The group's epic with this id (not iid, as the notes routes address it), when the caller may read it. */
export function readableEpic(state: State, user: User | null, group: Namespace, id: number, now: number): Epic | undefined {
  const epic = epicById(state, id);
  return epic && epic.groupId === group.id && canReadGroup(state, user, group, now) && epicVisible(state, user, epic, now) ? epic : undefined;
}

/** The epic an issue of the project may point at: one of its group's or the group's ancestors'. */
export function epicForProject(state: State, project: Project, id: number): Epic | undefined {
  const epic = epicById(state, id);
  if (!epic) return undefined;
  const ns = tget(state.namespaces, project.namespaceId);
  return ns && ns.kind === 'group' && isWithin(state, ns.id, epic.groupId) ? epic : undefined;
}

/** Iteration#state: upcoming (1), current (2) or closed (3), from its dates and today. */
export function iterationState(it: Iteration, now: number): 1 | 2 | 3 {
  const t = today(now);
  if (it.startDate > t) return 1;
  if (it.dueDate < t) return 3;
  return 2;
}

/** Group labels an epic may carry: its group's and the ancestors'; unknown titles become labels of the group. */
export function epicLabelIds(draft: Draft<State>, g: Namespace, titles: string[], now: number): number[] {
  const out: number[] = [];
  for (const t of [...new Set(titles.map((x) => x.trim()).filter((x) => x !== ''))]) {
    let found: Label | undefined;
    for (const a of ancestry(draft as State, g.id)) if ((found = labelByTitle(draft as State, { groupId: a.id }, t))) break;
    out.push((found ?? createLabel(draft, { groupId: g.id }, { title: t, color: DEFAULT_LABEL_COLOR }, now)).id);
  }
  return out;
}

export interface EpicInput {
  title: string;
  description?: string;
  labels?: string[];
  confidential?: boolean;
  color?: string;
  startDate?: string | null;
  dueDate?: string | null;
  parentId?: number | null;
  state?: 'opened' | 'closed';
  createdAt?: number;
}

export function createEpic(draft: Draft<State>, g: Namespace, author: User, input: EpicInput, now: number): Epic {
  const epic: Epic = {
    id: ids.next(draft as State, 'epic'),
    iid: ids.next(draft as State, 'epic_iid', `g${g.id}`),
    groupId: g.id,
    parentId: input.parentId ?? null,
    title: input.title,
    description: input.description ?? '',
    state: input.state ?? 'opened',
    confidential: input.confidential ?? false,
    authorId: author.id,
    color: input.color ?? DEFAULT_EPIC_COLOR,
    labelIds: epicLabelIds(draft, g, input.labels ?? [], now),
    startDate: input.startDate ?? null,
    dueDate: input.dueDate ?? null,
    createdAt: input.createdAt ?? now,
    updatedAt: input.createdAt ?? now,
    closedAt: input.state === 'closed' ? now : null,
  };
  pset(draft.epics, g.id, epic.iid, epic);
  tset(draft.epicLocations, epic.id, { groupId: g.id, iid: epic.iid });
  return epic;
}

export function createIteration(draft: Draft<State>, g: Namespace, input: { title?: string | null; description?: string; startDate: string; dueDate: string }, now: number): Iteration {
  const seq = ids.peek(draft as State, 'iteration_iid', `g${g.id}`);
  const it: Iteration = {
    id: ids.next(draft as State, 'iteration'),
    iid: ids.next(draft as State, 'iteration_iid', `g${g.id}`),
    sequence: seq,
    groupId: g.id,
    title: input.title ?? null,
    description: input.description ?? '',
    startDate: input.startDate,
    dueDate: input.dueDate,
    createdAt: now,
    updatedAt: now,
  };
  pset(draft.iterations, g.id, it.id, it);
  tset(draft.iterationGroups, it.id, g.id);
  return it;
}
