// To-dos and award emoji as GitLab renders them (lib/api/entities/todo.rb, award_emoji.rb), for
// issues and merge requests alike.
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import type { User } from '../../store/state.js';
import { namespaceBasic } from '../namespaces/index.js';
import { projectIdentity } from '../projects/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { AwardEmoji, Todo } from './records.js';

const user = (state: State, id: number, u: UrlBase) => {
  const found = tget(state.users, id);
  return found ? userBasic(found, u) : null;
};

/**
 * Entities::Todo. The target is its type's entity without the caller (Entities::Issue, or
 * Entities::MergeRequest with its `changes_count`, which the caller works out from the
 * repository), and the URL its page; null for a target that is gone.
 */
export function todoEntity(v: UrlBase & { state: State; viewer: User | null; now: number }, todo: Todo, on: { target: object; url: string; body: string } | null) {
  const { state } = v;
  const project = todo.projectId === null ? undefined : tget(state.projects, todo.projectId);
  const group = todo.groupId === undefined ? undefined : tget(state.namespaces, todo.groupId);
  const target = on?.target ?? null;
  const targetUrl = on?.url ?? null;
  const body = on?.body ?? '';
  return {
    id: todo.id,
    // Entities::Todo exposes the project of a project's to-do and the group of a group's.
    ...(project ? { project: projectIdentity({ state, viewer: v.viewer, now: v.now, webBase: v.webBase }, project) } : {}),
    ...(group ? { group: namespaceBasic(state, group, v) } : {}),
    author: user(state, todo.authorId, v),
    action_name: todo.actionName,
    target_type: todo.targetType,
    target,
    target_url: targetUrl,
    body,
    state: todo.state,
    created_at: iso(todo.createdAt),
    updated_at: iso(todo.updatedAt),
  };
}

/** Entities::AwardEmoji. */
export function awardEmojiEntity(v: UrlBase & { state: State }, a: AwardEmoji) {
  return {
    id: a.id,
    name: a.name,
    user: user(v.state, a.userId, v),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    awardable_id: a.awardableId,
    awardable_type: a.awardableType,
    url: null,
  };
}
