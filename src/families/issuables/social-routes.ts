// Award emoji, subscriptions, to-dos and participants of issues and merge requests
// (lib/api/award_emoji.rb, subscriptions.rb, todos.rb, and the participants routes of issues.rb
// and merge_requests.rb): one set of routes per kind of target, which the family that owns the
// kind declares (socialRoutes), and the caller's to-do list.
import { forbidden, recordNotFound, unauthorized } from '../../core/errors.js';
import { int, str, type ParamSpec } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { canReadProject } from '../../policy/access.js';
import { findNote, noteKey } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { userBasic } from '../users/index.js';
import { awardNotFound } from './errors.js';
import { toSentence } from './system-notes.js';
import { socialKind, todoKind, type SocialKind, type SocialRecord } from './kinds.js';
import type { AwardEmoji, SocialTarget, Todo } from './records.js';
import { awardEmojiEntity, todoEntity } from './social-entity.js';
import {
  awardEmoji, awardsOf, findTodo, isSubscribed, markTodo, markTodoDone, participantIds, removeAward, setSubscription, socialTarget, todoTarget, userTodos,
} from './social.js';
import type { Awardable } from './store.js';

const awardView = (ctx: Context<unknown>) => ({ state: ctx.state, webBase: ctx.webBase });

/** The award emoji, participants, subscription and to-do routes of one kind of target. */
export function socialRoutes<R extends SocialRecord>(k: SocialKind<R>) {
  const base = `/projects/:id/${k.segment}/:${k.iidParam}`;
  const iidOf = (ctx: Context<unknown>) => (ctx.params as Record<string, number>)[k.iidParam]!;
  const target = (ctx: Context<unknown>, iid: string | number = iidOf(ctx)): { record: R; target: SocialTarget } => {
    const record = k.find(ctx, iid);
    return { record, target: socialTarget(k.type, record) };
  };
  const iid = { [k.iidParam]: int().required() };
  const scope = project(k.readable);
  return [
    // award_emoji.rb's `awardable` (find_by!), read as `read_issue` or `read_merge_request` allows.
    ...awardableRoutes(base, iid, (ctx) => target(ctx).target, (ctx) => k.readable(ctx.state, ctx.user, ctx.project, ctx.now())),
    route({
      method: 'GET', path: `${base}/participants`, cacheable: true, scope, paginated: true, params: iid,
      handler: (ctx): Reply => {
        const users = participantIds(ctx.state, target(ctx).target, ctx.now()).map((id) => tget(ctx.state.users, id)!);
        return json(ctx.paginate(users).map((u) => userBasic(u, ctx)));
      },
    }),
    ...(['subscribe', 'unsubscribe'] as const).map((action) =>
      route({
        method: 'POST', path: `/projects/:id/${k.segment}/:subscribable_id/${action}`, auth: 'user', scope, params: { subscribable_id: str().required() },
        handler: async (ctx): Promise<Reply> => {
          const found = target(ctx, ctx.params.subscribable_id);
          if (k.mayUpdate && !k.mayUpdate(ctx, found.record)) throw forbidden();
          const user = ctx.user!;
          const on = action === 'subscribe';
          if (isSubscribed(ctx.state, found.target, user, ctx.now()) === on) return { status: 304 };
          ctx.update(setSubscription(found.target, user, on));
          return created(await k.entity(ctx, found.record));
        },
      }),
    ),
    route({
      method: 'POST', path: `${base}/todo`, auth: 'user', scope, params: iid,
      handler: async (ctx): Promise<Reply> => {
        const change = markTodo(ctx.state, target(ctx).target, ctx.user!, ctx.now());
        if (!change) return { status: 304 };
        return created(await renderTodo(ctx, ctx.update(change)));
      },
    }),
  ];
}

/** Entities::Todo, its target rendered by the family that owns it (a merge request's with its `changes_count`). */
export async function renderTodo(ctx: Context<unknown>, todo: Todo) {
  const v = { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase };
  const target = todoTarget(todo);
  if (!target) return todoEntity(v, todo, todoKind(todo.targetType)?.render(ctx, todo) ?? null);
  const kind = socialKind(target.type);
  const record = kind.record(v.state, target);
  // Todo#body: the note that mentioned the user, else the target's title.
  const note = todo.noteId !== undefined ? findNote(v.state, noteKey(target.type, target.id), todo.noteId) : undefined;
  const on = record ? { ...(await kind.todoTarget(ctx, record)), body: note?.body ?? record.title } : null;
  return todoEntity(v, todo, on);
}

/** TodosFinder's readable targets: a to-do whose target is gone, or that the user may no longer read, is not listed. */
function readableTodo(ctx: Context<unknown>, todo: Todo): boolean {
  const now = ctx.now();
  const target = todoTarget(todo);
  if (!target) return todoKind(todo.targetType)?.readable(ctx.state, ctx.user, todo, now) ?? false;
  const pr = tget(ctx.state.projects, target.projectId);
  if (!pr || pr.pendingDelete || !canReadProject(ctx.state, ctx.user, pr, now)) return false;
  return socialKind(target.type).readableByIid(ctx.state, ctx.user, pr, todo.targetIid, now)?.id === todo.targetId;
}

/**
 * lib/api/award_emoji.rb for one kind of awardable of a project (an issue, a merge request, a
 * project snippet) and for its notes: `find` is the helper's `awardable` (`404 Not found` when
 * the project has none by that id), `readable` its `can_read_awardable?`. A note is found among
 * its noteable's notes and read as its noteable is.
 */
export function awardableRoutes(base: string, params: ParamSpec, find: (ctx: Context<unknown>) => Awardable, readable: (ctx: Context<unknown>) => boolean) {
  const note = (ctx: Context<unknown>): Awardable & { system: boolean } => {
    const on = find(ctx);
    const found = findNote(ctx.state, noteKey(on.type, on.id), (ctx.params as { note_id: number }).note_id);
    if (!found) throw recordNotFound();
    return { type: 'Note', id: found.id, system: found.system, projectId: on.projectId, noteable: { type: on.type, id: on.id } };
  };
  return [...awardRoutes(base, params, find, readable), ...awardRoutes(`${base}/notes/:note_id`, { ...params, note_id: int().required() }, note, readable)];
}

/**
 * The routes at one awardable's path: list, show, award (`404 Award Emoji <why> Not Found` when
 * refused) and take back (the awarder's or an administrator's, else 401). Listing, showing and
 * awarding ask `can_read_awardable?` (`404 Award Emoji Not Found`); taking back finds the award
 * without it.
 */
function awardRoutes(base: string, params: ParamSpec, find: (ctx: Context<unknown>) => Awardable & { system?: boolean }, readable: (ctx: Context<unknown>) => boolean) {
  const awardable = (ctx: Context<unknown>) => {
    const on = find(ctx);
    if (!readable(ctx)) throw awardNotFound();
    return on;
  };
  return [
    route({
      method: 'GET', path: `${base}/award_emoji`, auth: 'user', cacheable: true, scope: project(), paginated: true, params,
      handler: (ctx): Reply => json(ctx.paginate(awardsOf(ctx.state, awardable(ctx))).map((a) => awardEmojiEntity(awardView(ctx), a))),
    }),
    route({
      method: 'GET', path: `${base}/award_emoji/:award_id`, auth: 'user', cacheable: true, scope: project(), params: { ...params, award_id: int().required() },
      handler: (ctx): Reply => json(awardEmojiEntity(awardView(ctx), awardOf(ctx, awardable(ctx)))),
    }),
    route({
      method: 'POST', path: `${base}/award_emoji`, auth: 'user', scope: project(), params: { ...params, name: str().required() },
      handler: (ctx): Reply => {
        const on = awardable(ctx);
        // Awardable#emoji_awardable?: a system note takes none.
        if (on.system) throw awardNotFound('Awardable cannot be awarded emoji');
        const change = awardEmoji(ctx.state, on, ctx.user!, ctx.params.name, ctx.now());
        if (typeof change !== 'function') throw awardNotFound(toSentence(change));
        return created(awardEmojiEntity(awardView(ctx), ctx.update(change)));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/award_emoji/:award_id`, auth: 'user', scope: project(), params: { ...params, award_id: int().required() },
      handler: (ctx): Reply => {
        const on = find(ctx);
        const a = awardOf(ctx, on);
        if (a.userId !== ctx.user!.id && !ctx.user!.admin) throw unauthorized();
        ctx.update(removeAward(a, on));
        return noContent();
      },
    }),
  ];
}

function awardOf(ctx: Context<unknown>, on: Awardable): AwardEmoji {
  const a = awardsOf(ctx.state, on).find((x) => x.id === (ctx.params as { award_id: number }).award_id);
  if (!a) throw recordNotFound();
  return a;
}

/** The caller's to-do list, of issues and merge requests alike. */
export const todoRoutes = [
  route({
    method: 'GET', path: '/todos', auth: 'user', paginated: true,
    params: { action: str(), author_id: int(), project_id: int(), group_id: int(), state: str().values(['pending', 'done'] as const), type: str() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const state = p.state ?? 'pending';
      const list = userTodos(ctx.state, ctx.user!.id)
        .filter((t) => t.state === state && (p.action === undefined || t.actionName === p.action) && (p.author_id === undefined || t.authorId === p.author_id))
        .filter((t) => (p.project_id === undefined || t.projectId === p.project_id) && (p.type === undefined || p.type === t.targetType))
        .filter((t) => readableTodo(ctx, t))
        .sort((a, b) => b.id - a.id);
      return json(await Promise.all(ctx.paginate(list).map((t) => renderTodo(ctx, t))));
    },
  }),
  route({
    method: 'POST', path: '/todos/:todo_id/mark_as_done', auth: 'user', params: { todo_id: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const todo = findTodo(ctx.state, ctx.user!.id, ctx.params.todo_id);
      if (!todo) throw recordNotFound();
      return created(await renderTodo(ctx, ctx.update(markTodoDone(todo, ctx.now()))));
    },
  }),
  route({
    method: 'POST', path: '/todos/mark_as_done', auth: 'user',
    handler: (ctx): Reply => {
      const pending = userTodos(ctx.state, ctx.user!.id).filter((t) => t.state === 'pending');
      for (const t of pending) ctx.update(markTodoDone(t, ctx.now()));
      return noContent();
    },
  }),
];
