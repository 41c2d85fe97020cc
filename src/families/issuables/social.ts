// Award emoji, subscriptions and to-dos of issues and merge requests alike (app/models/concerns/
// awardable.rb, subscribable.rb, app/services/todo_service.rb#mark_todo, award_emojis/
// add_service.rb): each keyed by its target's type and id, since issue and merge request ids
// come from separate sequences and collide.
import type { Draft } from 'immer';
import type { User } from '../../store/state.js';
import { emptyTable, pget, pset, tdel, tget, tset, tvalues } from '../../store/table.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { noteKey, noteList } from '../../store/notes.js';
import { socialKind, type IssuableTarget, type SocialRecord } from './kinds.js';
import { isEmojiName, normalizeEmojiName } from './emoji.js';
import { mentionedUsernames } from './mentions.js';
import { canReadInternalNotes } from './noteables.js';
import type { AwardEmoji, SocialTarget, SocialType, Todo, TodoTarget } from './records.js';
import { awardsOn, ids, socialKey, type Awardable } from './store.js';
import { emit } from '../stream.js';

/** An issue or a merge request as what award emoji, subscriptions and to-dos hang on. */
export function socialTarget(type: SocialType, record: SocialRecord): SocialTarget {
  return { type, id: record.id, iid: record.iid, projectId: record.projectId };
}

/** The issue or merge request a to-do is on (null for an epic's). */
export function todoTarget(todo: Todo): SocialTarget | null {
  if (todo.targetType === 'Epic' || todo.projectId === null) return null;
  return { type: todo.targetType, id: todo.targetId, iid: todo.targetIid, projectId: todo.projectId };
}

/**
 * Issuable#participants (Participable#raw_participants): the text's mentions (Mentionable's
 * participant), then, in the order GitLab's stack visits them, the reviewers and assignees, each
 * note's author (a system note only when its author is not yet a participant or it mentions
 * someone), the author, then everyone mentioned in an internal note who may read internal notes,
 * then everyone mentioned in the title, the description and the other notes.
 */
export function rawParticipantIds(state: State, t: SocialTarget, now: number): number[] {
  const kind = socialKind(t.type);
  const record = kind.record(state, t);
  if (!record) return [];
  const [author, ...others] = kind.participants(record);
  const people = new Set<number>();
  const mentioned: string[] = [];
  const internalMentioned: string[] = [];
  mentioned.push(...mentionedUsernames(record.title), ...mentionedUsernames(record.description ?? ''));
  for (const id of others.reverse()) people.add(id);
  for (const note of noteList(state, noteKey(t.type, t.id))) {
    const names = mentionedUsernames(note.body);
    if (note.system && people.has(note.authorId) && names.length === 0) continue;
    (note.internal ? internalMentioned : mentioned).push(...names);
    people.add(note.authorId);
  }
  if (author !== undefined) people.add(author);
  const project = tget(state.projects, t.projectId);
  const byName = (name: string) => tget(state.usernames, name);
  for (const name of internalMentioned) {
    const id = byName(name);
    const user = id === undefined ? undefined : tget(state.users, id);
    if (user && project && canReadInternalNotes(state, user, { type: t.type, project } as IssuableTarget, now)) people.add(user.id);
  }
  for (const name of mentioned) {
    const id = byName(name);
    if (id !== undefined) people.add(id);
  }
  return [...people].filter((id) => tget(state.users, id) !== undefined);
}

/** Issuable#visible_participants: the participants who may read the issue or merge request. */
export function participantIds(state: State, t: SocialTarget, now: number): number[] {
  const kind = socialKind(t.type);
  const project = tget(state.projects, t.projectId);
  if (!project) return [];
  return rawParticipantIds(state, t, now).filter((id) => {
    const user = tget(state.users, id)!;
    return user.state !== 'blocked' && kind.readableByIid(state, user, project, t.iid, now)?.id === t.id;
  });
}

/** Subscribable#subscribed?: an explicit subscription or unsubscription, else being a participant. */
export function isSubscribed(state: State, t: SocialTarget, user: User | null, now: number): boolean {
  if (!user) return false;
  const explicit = tget(state.subscriptions, `${socialKey(t)}:${user.id}`);
  if (explicit !== undefined) return explicit;
  // The author, assignees and reviewers first: no note to read for them.
  const record = socialKind(t.type).record(state, t);
  if (record && socialKind(t.type).participants(record).includes(user.id)) return true;
  return rawParticipantIds(state, t, now).includes(user.id);
}

export function setSubscription(t: SocialTarget, user: User, on: boolean): Change {
  return (draft) => void tset(draft.subscriptions, `${socialKey(t)}:${user.id}`, on);
}

const pendingKey = (userId: number, t: { type: string; id: number }) => `${userId}:${t.type}:${t.id}`;

/** TodoService#todo_exist?: the user has a pending to-do on the target. */
export function pendingTodoId(state: State, t: TodoTarget, user: User): number | undefined {
  return tget(state.pendingTodos, pendingKey(user.id, t));
}

/** TodoService#mark_todo: a pending to-do, unless one is pending already (then null: 304). */
export function markTodo(state: State, t: TodoTarget, user: User, now: number): Change<Todo> | null {
  if (pendingTodoId(state, t, user) !== undefined) return null;
  return (draft) => {
    const todo: Todo = {
      id: ids.next(draft as State, 'todo'), userId: user.id, authorId: user.id, projectId: t.projectId, ...(t.groupId !== undefined ? { groupId: t.groupId } : {}),
      targetType: t.type, targetId: t.id, targetIid: t.iid,
      actionName: 'marked', state: 'pending', createdAt: now, updatedAt: now,
    };
    pset(draft.todos, user.id, todo.id, todo);
    tset(draft.pendingTodos, pendingKey(user.id, t), todo.id);
    return todo;
  };
}

export function markTodoDone(todo: Todo, now: number): Change<Todo> {
  return (draft) => {
    const done: Todo = { ...todo, state: 'done', updatedAt: now };
    pset(draft.todos, todo.userId, todo.id, done);
    const key = pendingKey(todo.userId, { type: todo.targetType, id: todo.targetId });
    if (tget(draft.pendingTodos, key) === todo.id) tdel(draft.pendingTodos, key);
    return done;
  };
}

export function userTodos(state: State, userId: number): Todo[] {
  const t = tget(state.todos, userId);
  return t ? [...tvalues(t)] : [];
}

export function findTodo(state: State, userId: number, id: number): Todo | undefined {
  return pget(state.todos, userId, id);
}

/** The target's award emoji, oldest first. */
export function awardsOf(state: State, t: Awardable): AwardEmoji[] {
  const awards = awardsOn(state, t);
  return awards ? [...tvalues(awards)].sort((a, b) => a.id - b.id) : [];
}

/** How many of the target's award emoji have the name (`upvotes` and `downvotes` count thumbs). */
export function countAwards(state: State, t: Awardable, name: string): number {
  const awards = awardsOn(state, t);
  if (!awards) return 0;
  let n = 0;
  for (const a of tvalues(awards)) if (a.name === name) n++;
  return n;
}

/** Whether the user reacted to the target with that emoji (or with any, for a null name). */
export function reacted(state: State, t: Awardable, userId: number, name: string | null): boolean {
  const awards = awardsOn(state, t);
  if (!awards) return false;
  for (const a of tvalues(awards)) if (a.userId === userId && (name === null || a.name === name)) return true;
  return false;
}

/**
 * AwardEmojis::AddService: the name an alias of an emoji stands for (`+1` awards `thumbsup`); a
 * second award of the same emoji by the same user is refused. A refusal is the award's
 * errors.full_messages: a blank name fails both of AwardEmoji's validations on name.
 */
export function awardEmoji(state: State, t: Awardable, user: User, alias: string, now: number): Change<AwardEmoji> | readonly string[] {
  if (!isEmojiName(alias)) return /^\s*$/.test(alias) ? ["Name can't be blank", 'Name is not a valid emoji name'] : ['Name is not a valid emoji name'];
  const name = normalizeEmojiName(alias);
  const key = `${socialKey(t)}:${user.id}:${name}`;
  if (tget(state.awardKeys, key) !== undefined) return ['User has already been taken'];
  return (draft) => {
    const award: AwardEmoji = { id: ids.next(draft as State, 'award_emoji'), awardableType: t.type, awardableId: t.id, userId: user.id, name, createdAt: now, updatedAt: now };
    let awards = tget(draft.awardEmoji, socialKey(t));
    if (!awards) {
      tset(draft.awardEmoji, socialKey(t), emptyTable<AwardEmoji>());
      awards = tget(draft.awardEmoji, socialKey(t))!;
    }
    tset(awards, award.id, award);
    tset(draft.awardKeys, key, award.id);
    emit(draft, { kind: 'award_emoji.added', ...awardFacts(award, t) });
    return award;
  };
}

/** What the stream says of an award: it and where it hangs. */
const awardFacts = (a: AwardEmoji, t: Awardable) => ({
  projectId: t.projectId ?? null, awardId: a.id, name: a.name, userId: a.userId, awardableType: a.awardableType, awardableId: a.awardableId,
  createdAt: a.createdAt, updatedAt: a.updatedAt, noteable: t.noteable ?? null,
});

export function removeAward(award: AwardEmoji, on: Awardable = { type: award.awardableType, id: award.awardableId }): Change {
  return (draft) => {
    emit(draft, { kind: 'award_emoji.removed', ...awardFacts(award, on) });
    const t = { type: award.awardableType, id: award.awardableId };
    const awards = tget(draft.awardEmoji, socialKey(t));
    if (awards) {
      tdel(awards, award.id);
      if (awards.size === 0) tdel(draft.awardEmoji, socialKey(t));
    }
    tdel(draft.awardKeys, `${socialKey(t)}:${award.userId}:${award.name}`);
  };
}

/** The quick actions' `todo_event`, `subscription_event` and `emoji_award` (the award toggles), as the update services apply them. */
export function applySocialUpdates(
  draft: Draft<State>, t: SocialTarget, user: User, u: { todo_event?: 'add' | 'done'; subscription_event?: 'subscribe' | 'unsubscribe'; emoji_award?: string }, now: number,
): void {
  const state = draft as State;
  if (u.todo_event === 'add') markTodo(state, t, user, now)?.(draft);
  if (u.todo_event === 'done') {
    const id = pendingTodoId(state, t, user);
    const todo = id === undefined ? undefined : findTodo(state, user.id, id);
    if (todo) markTodoDone(todo, now)(draft);
  }
  if (u.subscription_event) setSubscription(t, user, u.subscription_event === 'subscribe')(draft);
  if (u.emoji_award) {
    // AwardEmojis::ToggleService, after BaseService made an alias its emoji's name.
    const name = isEmojiName(u.emoji_award) ? normalizeEmojiName(u.emoji_award) : u.emoji_award;
    const mine = awardsOf(state, t).find((a) => a.userId === user.id && a.name === name);
    if (mine) removeAward(mine, t)(draft);
    else {
      const change = awardEmoji(state, t, user, name, now);
      if (typeof change === 'function') change(draft);
    }
  }
}

/**
 * TodoService#create_mention_todos: a `directly_addressed` to-do for each user the text opens
 * with (`@dev @mai please…`), a `mentioned` one for each other user it mentions, the author
 * included; only for users who may read the target (`mayRead`) and not in `skip` (those an
 * edit's earlier text mentioned already).
 */
export function mentionTodos(
  draft: Draft<State>, t: TodoTarget, author: User, text: string, now: number, mayRead: (user: User) => boolean, skip: ReadonlySet<number> = new Set(), noteId?: number,
): void {
  const state = draft as State;
  const leading = /^\s*((?:@[A-Za-z0-9_.-]+[\s,]*)+)/.exec(text);
  const addressed = new Set(leading ? mentionedUsernames(leading[1]!) : []);
  const done = new Set<number>();
  for (const name of mentionedUsernames(text)) {
    const id = tget(state.usernames, name);
    const user = id === undefined ? undefined : tget(state.users, id);
    if (!user || done.has(user.id) || skip.has(user.id) || user.state === 'blocked' || !mayRead(user)) continue;
    done.add(user.id);
    addTodo(draft, t, user.id, author.id, addressed.has(name) ? 'directly_addressed' : 'mentioned', now, noteId);
  }
}

/** TodoService#create_todos for one user: none while the user has a to-do pending on the target. */
export function addTodo(draft: Draft<State>, t: TodoTarget, userId: number, authorId: number, action: Todo['actionName'], now: number, noteId?: number): void {
  const state = draft as State;
  if (tget(state.pendingTodos, pendingKey(userId, t)) !== undefined) return;
  const todo: Todo = {
    id: ids.next(state, 'todo'), userId, authorId, projectId: t.projectId, ...(t.groupId !== undefined ? { groupId: t.groupId } : {}),
    targetType: t.type, targetId: t.id, targetIid: t.iid, actionName: action, state: 'pending', createdAt: now, updatedAt: now, ...(noteId !== undefined ? { noteId } : {}),
  };
  pset(draft.todos, userId, todo.id, todo);
  tset(draft.pendingTodos, pendingKey(userId, t), todo.id);
}

/**
 * TodoService#mark_pending_todos_as_done: the user's pending to-do on the target, done; with
 * `pendingIn`, only one already pending in that world (a note's or a state change's, which GitLab
 * runs before the quick actions that came with it).
 */
export function finishTodo(draft: Draft<State>, t: TodoTarget, userId: number, now: number, pendingIn: State = draft as State): void {
  const id = tget(pendingIn.pendingTodos, pendingKey(userId, t));
  const todo = id === undefined ? undefined : findTodo(draft as State, userId, id);
  if (todo) markTodoDone(todo, now)(draft);
}

/** The ids of the users a text mentions (an edit's earlier text: TodoService#update_issuable's skip list). */
export function mentionedUserIds(state: State, text: string): Set<number> {
  const out = new Set<number>();
  for (const name of mentionedUsernames(text)) {
    const id = tget(state.usernames, name);
    if (id !== undefined) out.add(id);
  }
  return out;
}
