// The epics and iterations routes (ee/lib/api/epics.rb, ee/lib/api/iterations.rb): a group's
// epics listed, read and made; a group's or a project's iterations; and an epic's label events.
import { forbidden, notFound, recordNotFound, validationFailed } from '../../core/errors.js';
import { arr, bool, datetime, int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { ancestry, canReadGroup, canUseFeature, hasGroupRole, isWithin } from '../../policy/access.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { group, project, route, type Context } from '../define.js';
import { castDateLike, eventableId, eventRoutes, markTodo, mentionTodos, recordLabelChange, renderTodo, type Eventable, type IterationRender } from '../issuables/index.js';
import { labelById, normalizeColor } from '../labels/index.js';
import type { State } from '../world.js';
import { epicEntity, iterationEntity } from './entity.js';
import type { Epic, Iteration } from './records.js';
import { createEpic, DEFAULT_EPIC_COLOR, epicByIid, epicById, epicVisible, iterationById, iterationState, readableEpic } from './rules.js';

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
  // ee/lib/ee/api/todos.rb: TodoService#mark_todo on the group's epic; 304 when one is pending.
  route({
    method: 'POST', path: '/groups/:id/epics/:epic_iid/todo', tier: 'premium', auth: 'user', scope: group(), params: { epic_iid: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const e = epicByIid(ctx.state, ctx.group.id, ctx.params.epic_iid);
      if (!e || !epicVisible(ctx.state, ctx.user, e, ctx.now())) throw recordNotFound();
      const change = markTodo(ctx.state, { type: 'Epic', id: e.id, iid: e.iid, projectId: null, groupId: e.groupId }, ctx.user!, ctx.now());
      if (!change) return { status: 304 };
      return created(await renderTodo(ctx, ctx.update(change)));
    },
  }),
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
        // TodoService#new_epic: to-dos for the users the description mentions.
        mentionTodos(draft, { type: 'Epic', id: made.id, iid: made.iid, projectId: null, groupId: g.id }, user, made.description, now, (u) => readableEpic(draft as State, u, g, made.id, now) !== undefined);
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

function epicOf(ctx: Context<{ eventable_id: string }>): number {
  const id = eventableId(ctx);
  const epic = id === undefined ? undefined : epicById(ctx.state, id);
  if (!epic || epic.groupId !== ctx.group.id || !epicVisible(ctx.state, ctx.user, epic, ctx.now())) throw notFound('Epic');
  return epic.id;
}

const EPIC: Eventable = { type: 'Epic', base: '/groups/:id/epics', scope: group(), find: epicOf, tier: 'premium' };

/** An epic's label events (by its id). */
export const epicEventRoutes = eventRoutes('label', 'resource_label_events', EPIC, 'premium');

/** An iteration event's iteration (Entities::Iteration); null when it is gone. */
export const eventIteration: IterationRender = (ctx, id) => {
  const it = iterationById(ctx.state, id);
  return it ? iterationEntity(ctx.state, it, ctx, ctx.now()) : null;
};
