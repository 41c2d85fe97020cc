// TodoService for issues and merge requests, on the event stream: `assigned` to-dos for new
// assignees, `review_requested` for new reviewers, `mentioned` and `directly_addressed` for the
// users a description, a title or a comment mentions (once, for users who may read it), and the
// actor's pending to-do on the target done when they close, merge, comment or award an emoji.
import { findNote, noteKey } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import { ACCESS, type User } from '../../store/state.js';
import { hasProjectRole } from '../../policy/access.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { socialKind, type SocialRecord } from './kinds.js';
import type { SocialTarget, SocialType, TodoTarget } from './records.js';
import { addTodo, finishTodo, mentionedUserIds, mentionTodos } from './social.js';

type IssuableEvent = StoredEvent<'issue.opened' | 'issue.updated' | 'issue.closed' | 'merge_request.opened' | 'merge_request.updated' | 'merge_request.closed' | 'merge_request.merged'>;

function subjectOf(state: State, e: IssuableEvent): { type: SocialType; target: TodoTarget & SocialTarget; record: SocialRecord } | undefined {
  const type: SocialType = e.kind.startsWith('issue.') ? 'Issue' : 'MergeRequest';
  const id = 'issueId' in e ? e.issueId : e.mergeRequestId;
  const target = { type, id, iid: e.iid, projectId: e.projectId };
  const record = socialKind(type).record(state, target);
  return record ? { type, target, record } : undefined;
}

const actorOf = (state: State, e: StoredEvent): User | undefined => (e.actorId === null ? undefined : tget(state.users, e.actorId));

function mayReadFor(ctx: Context<unknown>, type: SocialType, t: TodoTarget, internal = false): (user: User) => boolean {
  const project = tget(ctx.state.projects, t.projectId!);
  const now = ctx.now();
  return (user) =>
    project !== undefined && socialKind(type).readableByIid(ctx.state, user, project, t.iid, now)?.id === t.id && (!internal || hasProjectRole(ctx.state, user, project, ACCESS.reporter, now));
}

/** TodoService#new_issuable, #update_issuable, #reassigned_*: what an opened or changed issue or merge request gives. */
function onWritten(ctx: Context<unknown>, e: IssuableEvent): void {
  const found = subjectOf(ctx.state, e);
  const actor = actorOf(ctx.state, e);
  if (!found || !actor) return;
  const { type, target, record } = found;
  const kind = socialKind(type);
  const now = ctx.now();
  const before = e.kind.endsWith('.opened') ? undefined : kind.record(ctx.initial as State, target);
  const changes = 'changes' in e ? e.changes : [];
  const people = kind.people(record);
  const old = before ? kind.people(before) : { assignees: [], reviewers: [] };
  const mentions = !before || changes.includes('title') || changes.includes('description');
  ctx.update((draft) => {
    for (const id of people.assignees) if (!old.assignees.includes(id)) addTodo(draft, target, id, actor.id, 'assigned', now);
    for (const id of people.reviewers) if (!old.reviewers.includes(id)) addTodo(draft, target, id, actor.id, 'review_requested', now);
    if (mentions) {
      const skip = before ? mentionedUserIds(ctx.initial as State, `${before.title}\n${before.description ?? ''}`) : new Set<number>();
      mentionTodos(draft, target, actor, `${record.title}\n${record.description ?? ''}`, now, mayReadFor(ctx, type, target), skip);
    }
  });
}

/** TodoService#close_*, #merge_merge_request: the actor's pending to-do on it is done (one pending before the request: a `/todo` with the `/close` stays). */
function onFinished(ctx: Context<unknown>, e: IssuableEvent): void {
  const found = subjectOf(ctx.state, e);
  if (!found || e.actorId === null) return;
  ctx.update((draft) => finishTodo(draft, found.target, e.actorId!, ctx.now(), ctx.initial as State));
}

/** TodoService#new_note: not for system notes; the author's pending to-do done, then the note's mentions. */
function onNote(ctx: Context<unknown>, e: StoredEvent<'note.created'>): void {
  if ((e.noteableType !== 'Issue' && e.noteableType !== 'MergeRequest') || e.projectId === null || e.noteableIid === null) return;
  const note = findNote(ctx.state, noteKey(e.noteableType, e.noteableId), e.noteId);
  const author = actorOf(ctx.state, e);
  if (!note || note.system || !author) return;
  const type: SocialType = e.noteableType;
  const target = { type, id: Number(e.noteableId), iid: e.noteableIid, projectId: e.projectId };
  const now = ctx.now();
  ctx.update((draft) => {
    finishTodo(draft, target, author.id, now, ctx.initial as State);
    mentionTodos(draft, target, author, note.body, now, mayReadFor(ctx, type, target, note.internal), new Set(), note.id);
  });
}

/** TodoService#new_award_emoji: awarding an emoji on an issue, a merge request or a note of one finishes the awarder's to-do on it (a `/todo` before the `/award` too: IssuableBaseService runs change_todo, then toggle_award). */
function onAward(ctx: Context<unknown>, e: StoredEvent<'award_emoji.added'>): void {
  // A note's award finishes the to-do on the note's issue or merge request.
  const on = e.awardableType === 'Note' ? e.noteable : { type: e.awardableType, id: e.awardableId };
  if (!on || (on.type !== 'Issue' && on.type !== 'MergeRequest') || e.projectId === null) return;
  const target = { type: on.type as SocialType, id: on.id, iid: 0, projectId: e.projectId };
  ctx.update((draft) => finishTodo(draft, target, e.userId, ctx.now()));
}

export const todoSubscribers = {
  'issue.opened': onWritten,
  'issue.updated': onWritten,
  'merge_request.opened': onWritten,
  'merge_request.updated': onWritten,
  'issue.closed': onFinished,
  'merge_request.closed': onFinished,
  'merge_request.merged': onFinished,
  'note.created': onNote,
  'award_emoji.added': onAward,
};
