// Epics and iterations of groups, at the higher tiers (ee/lib/api/epics.rb,
// ee/lib/ee/api/entities/epic.rb, ee/lib/api/iterations.rb, entities/iteration.rb): group data
// that issues point at (`epic`, `iteration` on the Issue entity and in the list filters).
import type { Draft } from 'immer';
import { recordNotFound, forbidden } from '../../core/errors.js';
import { ancestry, canReadGroup, canUseFeature, hasGroupRole, isWithin, today } from '../../policy/access.js';
import { arr, bool, datetime, int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { pget, pset, tget, tset, tvalues } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import { group, project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { validationFailed } from '../../core/errors.js';
import { createLabel, DEFAULT_LABEL_COLOR, labelBasic, labelById, labelByTitle, normalizeColor, textColor, type Label } from '../labels/index.js';
import type { Epic, Iteration } from './records.js';
import { ids } from './store.js';
import { castDateLike, recordLabelChange } from '../issuables/index.js';

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

/** The issue's `epic`: id, iid, title, url, group_id (EpicBaseEntity). */
export function issueEpic(state: State, epic: Epic, u: UrlBase) {
  const g = tget(state.namespaces, epic.groupId);
  return { id: epic.id, iid: epic.iid, title: epic.title, url: `${u.webBase}/groups/${g?.fullPath ?? ''}/-/epics/${epic.iid}`, group_id: epic.groupId };
}

/** Iteration#state: upcoming (1), current (2) or closed (3), from its dates and today. */
export function iterationState(it: Iteration, now: number): 1 | 2 | 3 {
  const t = today(now);
  if (it.startDate > t) return 1;
  if (it.dueDate < t) return 3;
  return 2;
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

/** Group labels an epic may carry: its group's and the ancestors'; unknown titles become labels of the group. */
function epicLabelIds(draft: Draft<State>, g: Namespace, titles: string[], now: number): number[] {
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

/** The groups a list covers: the group, with descendants and ancestors when asked, that the caller can read. */
function groupsOf(state: State, user: User | null, g: Namespace, now: number, opts: { ancestors: boolean; descendants: boolean }): Namespace[] {
  const out = new Map<number, Namespace>([[g.id, g]]);
  if (opts.ancestors) for (const a of ancestry(state, g.id)) out.set(a.id, a);
  if (opts.descendants) for (const ns of tvalues(state.namespaces)) if (ns.kind === 'group' && !ns.pendingDelete && isWithin(state, ns.id, g.id)) out.set(ns.id, ns);
  return [...out.values()].filter((x) => x.id === g.id || canReadGroup(state, user, x, now));
}

const EPIC_LIST = {
  author_id: int(), author_username: str(), labels: arr(str(), { commaSeparated: true }), with_labels_details: bool().default(false),
  order_by: str().values(['created_at', 'updated_at', 'title'] as const).default('created_at'), sort: str().values(['asc', 'desc'] as const).default('desc'),
  search: str(), state: str().values(['opened', 'closed', 'all'] as const).default('all'), created_after: datetime(), created_before: datetime(),
  updated_after: datetime(), updated_before: datetime(), include_ancestor_groups: bool().default(false), include_descendant_groups: bool().default(true),
  confidential: bool(),
};

/** `read_iteration` in a project: readers of its issues. */
const canReadProjectIterations = (state: State, user: User | null, p: Project, now: number) => canUseFeature(state, user, p, 'issues', now);

const canCreateEpic = (state: State, user: User | null, g: Namespace, now: number) => hasGroupRole(state, user, g, ACCESS.planner, now);

const ITERATION_LIST = {
  state: str().values(['opened', 'upcoming', 'current', 'started', 'closed', 'all'] as const).default('all'),
  search: str(), include_ancestors: bool().default(true), include_descendants: bool().default(false), updated_before: datetime(), updated_after: datetime(),
};

function listIterations(ctx: Context<unknown>, groups: Namespace[], p: { state: string; search?: string; updated_before?: number; updated_after?: number }): Reply {
  const now = ctx.now();
  const want = p.state === 'opened' ? [1, 2] : p.state === 'upcoming' ? [1] : p.state === 'current' || p.state === 'started' ? [2] : p.state === 'closed' ? [3] : [1, 2, 3];
  const list: Iteration[] = [];
  for (const g of groups) for (const it of tvalues(tget(ctx.state.iterations, g.id) ?? { size: 0, chunks: {} })) list.push(it);
  const found = list
    .filter((it) => want.includes(iterationState(it, now)))
    .filter((it) => !p.search || (it.title ?? '').toLowerCase().includes(p.search.toLowerCase()))
    .filter((it) => (p.updated_before === undefined || it.updatedAt <= p.updated_before) && (p.updated_after === undefined || it.updatedAt >= p.updated_after))
    .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id));
  return json(ctx.paginate(found).map((it) => iterationEntity(ctx.state, it, ctx, now)));
}

export const epicRoutes = [
  route({
    method: 'GET', path: '/groups/:id/epics', tier: 'premium', cacheable: true, scope: group(), paginated: true, params: EPIC_LIST,
    constraints: [{ kind: 'mutually_exclusive', names: ['author_id', 'author_username'] }],
    handler: (ctx): Reply => {
      const p = ctx.params;
      const now = ctx.now();
      const groups = groupsOf(ctx.state, ctx.user, ctx.group, now, { ancestors: p.include_ancestor_groups, descendants: p.include_descendant_groups });
      const authorId = p.author_username !== undefined ? tget(ctx.state.usernames, p.author_username.toLowerCase()) ?? -1 : p.author_id;
      const names = (p.labels ?? []).map((l) => l.trim()).filter(Boolean);
      const found: Epic[] = [];
      for (const g of groups) {
        for (const e of tvalues(tget(ctx.state.epics, g.id) ?? { size: 0, chunks: {} })) {
          if (!epicVisible(ctx.state, ctx.user, e, now)) continue;
          if (p.state !== 'all' && e.state !== p.state) continue;
          if (authorId !== undefined && e.authorId !== authorId) continue;
          if (p.confidential !== undefined && e.confidential !== p.confidential) continue;
          if (names.length) {
            const titles = new Set(e.labelIds.map((id) => labelById(ctx.state, id)?.title));
            if (names.some((n) => n.toLowerCase() === 'none') ? titles.size > 0 : names.some((n) => n.toLowerCase() === 'any') ? titles.size === 0 : !names.every((n) => titles.has(n))) continue;
          }
          if (p.search && !`${e.title}\n${e.description}`.toLowerCase().includes(p.search.toLowerCase())) continue;
          if (p.created_after !== undefined && e.createdAt < p.created_after) continue;
          if (p.created_before !== undefined && e.createdAt > p.created_before) continue;
          if (p.updated_after !== undefined && e.updatedAt < p.updated_after) continue;
          if (p.updated_before !== undefined && e.updatedAt > p.updated_before) continue;
          found.push(e);
        }
      }
      const dir = p.sort === 'asc' ? 1 : -1;
      const key = (e: Epic) => (p.order_by === 'title' ? e.title.toLowerCase() : p.order_by === 'updated_at' ? e.updatedAt : e.createdAt);
      found.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : b.id - a.id));
      return json(ctx.paginate(found).map((e) => epicEntity(ctx.state, e, ctx, ctx.user, { withLabelsDetails: p.with_labels_details, contextGroupId: ctx.group.id })));
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/epics/:epic_iid', tier: 'premium', cacheable: true, scope: group(), params: { epic_iid: int().required() },
    handler: (ctx): Reply => {
      const e = epicByIid(ctx.state, ctx.group.id, ctx.params.epic_iid);
      if (!e || !epicVisible(ctx.state, ctx.user, e, ctx.now())) throw recordNotFound();
      return json(epicEntity(ctx.state, e, ctx, ctx.user, { contextGroupId: ctx.group.id }));
    },
  }),
  route({
    method: 'POST', path: '/groups/:id/epics', tier: 'premium', auth: 'user', scope: group(canCreateEpic),
    params: {
      title: str().required(), description: str(), labels: arr(str(), { commaSeparated: true }), confidential: bool(), color: str(), created_at: datetime(),
      start_date_is_fixed: bool(), start_date_fixed: str(), due_date_is_fixed: bool(), due_date_fixed: str(), parent_id: int(),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      if (p.title.trim() === '') throw validationFailed({ title: ["can't be blank"] });
      const color = p.color === undefined ? DEFAULT_EPIC_COLOR : normalizeColor(p.color);
      if (color === null) throw validationFailed({ color: ['must be a valid color code'] });
      let parentId: number | null = null;
      if (p.parent_id !== undefined) {
        const parent = epicById(ctx.state, p.parent_id);
        if (!parent || !isWithin(ctx.state, ctx.group.id, parent.groupId) || !epicVisible(ctx.state, ctx.user, parent, ctx.now())) throw forbidden();
        parentId = parent.id;
      }
      const owner = hasGroupRole(ctx.state, ctx.user, ctx.group, ACCESS.owner, ctx.now());
      const g = ctx.group;
      const user = ctx.user!;
      const now = ctx.now();
      const epic = ctx.update((draft) => {
        const made = createEpic(draft, g, user, {
          title: p.title, description: p.description, labels: p.labels, confidential: p.confidential, color, parentId,
          startDate: p.start_date_is_fixed === false ? null : castDateLike(p.start_date_fixed), dueDate: p.due_date_is_fixed === false ? null : castDateLike(p.due_date_fixed),
          createdAt: owner ? p.created_at : undefined,
        }, now);
        // A new epic's labels are label events, as on issues.
        recordLabelChange(draft, { type: 'Epic', id: made.id }, user.id, [], made.labelIds, now);
        return made;
      });
      return created(epicEntity(ctx.state, epic, ctx, ctx.user, { contextGroupId: g.id }));
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/iterations', tier: 'premium', cacheable: true, scope: group(), paginated: true, params: ITERATION_LIST,
    handler: (ctx): Reply => listIterations(ctx, groupsOf(ctx.state, ctx.user, ctx.group, ctx.now(), { ancestors: ctx.params.include_ancestors, descendants: ctx.params.include_descendants }), ctx.params),
  }),
  route({
    method: 'GET', path: '/projects/:id/iterations', tier: 'premium', cacheable: true, scope: project(canReadProjectIterations), paginated: true, params: ITERATION_LIST,
    handler: (ctx): Reply => {
      const ns = tget(ctx.state.namespaces, ctx.project.namespaceId);
      const groups = ns && ns.kind === 'group' ? (ctx.params.include_ancestors ? ancestry(ctx.state, ns.id) : [ns]) : [];
      return listIterations(ctx, groups, ctx.params);
    },
  }),
];
