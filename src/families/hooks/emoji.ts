// Emoji Hook (Gitlab::DataBuilder::Emoji): an award emoji given (`award`) or taken back
// (`revoke`) on an issue, a merge request, a project snippet or a note of one, to the project's
// hooks with emoji events.
import { findNote, noteKey } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import type { User } from '../../store/state.js';
import { issueAttrs, issueById, mergeRequestAttrs, projectHookAttrs, userHookAttrs, utcTime, type Json } from './payloads.js';
import { enqueue, projectHooksFor } from './queue.js';
import { snippetById, snippetContent, snippetHookAttrs, snippetRepoKey } from '../snippets/index.js';
import { actor, headCommit, mergeRequestById, noteAttrs, type BuildEnv } from './subscribers.js';

type AwardEvent = StoredEvent<'award_emoji.added' | 'award_emoji.removed'>;

/** What the award hangs on, as its payload names it (`issue`, `merge_request`, `project_snippet`) with its URL. */
async function awardable(env: BuildEnv, projectId: number, type: string, id: number, projectUrl: string): Promise<{ key: string; attrs: Json; url: string } | null> {
  if (type === 'Issue') {
    const issue = issueById(env.state, id);
    return issue ? { key: 'issue', attrs: issueAttrs(env.state, issue, env.webBase), url: `${projectUrl}/-/issues/${issue.iid}` } : null;
  }
  if (type === 'MergeRequest') {
    const mr = mergeRequestById(env.state, projectId, id);
    return mr ? { key: 'merge_request', attrs: mergeRequestAttrs(env.state, mr, env.webBase, await headCommit(env, mr.projectId, mr.sha)), url: `${projectUrl}/-/merge_requests/${mr.iid}` } : null;
  }
  if (type === 'Snippet') {
    const s = snippetById(env.state, id);
    if (!s) return null;
    const attrs = snippetHookAttrs(env.state, s, env, await snippetContent(env.repo(snippetRepoKey(s.id)), env.state, s), utcTime);
    return { key: 'project_snippet', attrs, url: attrs.url };
  }
  return null;
}

/** Gitlab::DataBuilder::Emoji.build. */
export async function emojiData(env: BuildEnv, e: AwardEvent, user: User): Promise<Json | null> {
  const project = e.projectId === null ? undefined : tget(env.state.projects, e.projectId);
  if (!project) return null;
  const p = projectHookAttrs(env.state, project, env.webBase);
  const action = e.kind === 'award_emoji.added' ? 'award' : 'revoke';
  const on = e.awardableType === 'Note' ? e.noteable : { type: e.awardableType, id: e.awardableId };
  if (!on) return null;
  const noteable = await awardable(env, project.id, on.type, on.id, p.web_url);
  if (!noteable) return null;
  const note = e.awardableType === 'Note' ? findNote(env.state, noteKey(on.type, on.id), e.awardableId) : undefined;
  const url = note ? `${noteable.url}#note_${note.id}` : noteable.url;
  const data: Json = {
    object_kind: 'emoji',
    event_type: action,
    user: userHookAttrs(user),
    project_id: project.id,
    project: p,
    object_attributes: {
      user_id: e.userId, created_at: utcTime(e.createdAt), id: e.awardId, name: e.name, awardable_type: e.awardableType, awardable_id: e.awardableId,
      updated_at: utcTime(e.updatedAt), action, awarded_on_url: url,
    },
  };
  if (note) data.note = noteAttrs(note, url);
  data[noteable.key] = noteable.attrs;
  return data;
}

function onAward(ctx: Context<unknown>, e: AwardEvent): void {
  if (e.projectId === null) return;
  const user = actor(ctx.state, e) ?? tget(ctx.state.users, e.userId);
  if (!user) return;
  const hooks = projectHooksFor(ctx.state, e.projectId, 'emoji_hooks', null, ctx.now());
  if (hooks.length === 0) return;
  const state = ctx.state;
  const initial = ctx.initial as State;
  const webBase = ctx.webBase;
  enqueue(ctx, hooks, { scope: 'emoji_hooks', instanceUrl: webBase, build: async (repo) => (await emojiData({ state, initial, webBase, repo }, e, user)) ?? {} });
}

export const emojiSubscribers = { 'award_emoji.added': onAward, 'award_emoji.removed': onAward };
