// To-dos and award emoji as GitLab renders them (lib/api/entities/todo.rb, award_emoji.rb), for
// issues and merge requests alike.
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { projectIdentity, projectWebUrl } from '../projects/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { issueEntity, issueWebUrl, type IssueView } from './entity.js';
import { mergeRequestEntity } from './merge-requests.js';
import type { AwardEmoji, Todo } from './records.js';
import { targetMergeRequest, todoTarget } from './social.js';
import { issueById } from './store.js';

const user = (state: State, id: number, u: UrlBase) => {
  const found = tget(state.users, id);
  return found ? userBasic(found, u) : null;
};

/**
 * Entities::Todo. The target is its type's entity without the caller (Entities::Issue, or
 * Entities::MergeRequest with its `changes_count`, which the caller works out from the
 * repository); the URL is the target's page.
 */
export function todoEntity(v: IssueView, todo: Todo, changesCount: number | null = null) {
  const { state } = v;
  const project = tget(state.projects, todo.projectId)!;
  let target: object | null = null;
  let targetUrl: string | null = null;
  let body = '';
  if (todo.targetType === 'Issue') {
    const issue = issueById(state, todo.targetId);
    if (issue) {
      target = issueEntity({ ...v, context: { kind: 'none' }, subscribed: false }, issue);
      targetUrl = issueWebUrl(state, issue, v);
      body = issue.title;
    }
  } else {
    const mr = targetMergeRequest(state, todoTarget(todo));
    if (mr) {
      target = mergeRequestEntity({ state, viewer: v.viewer, now: v.now, webBase: v.webBase }, mr, changesCount, true);
      targetUrl = `${projectWebUrl(state, project, v)}/-/merge_requests/${mr.iid}`;
      body = mr.title;
    }
  }
  return {
    id: todo.id,
    project: projectIdentity({ state, viewer: v.viewer, now: v.now, webBase: v.webBase }, project),
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
