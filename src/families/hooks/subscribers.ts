// The family's subscribers: each event of the stream that a hook may take queues a delivery for
// every hook that takes it, with how GitLab's payload for it is built from the world the event
// happened in; the payload is built once, when its first delivery is due, after the answer.
import { log } from '../../git/history.js';
import { commitsBetween } from '../../git/merge-base.js';
import { noteKey, findNote, type Note } from '../../store/notes.js';
import { plist, tget } from '../../store/table.js';
import type { Project, User } from '../../store/state.js';
import { branchTip, defaultBranchName, objectsOf, peelToCommit, refsOf } from '../repositories/index.js';
import type { Context } from '../define.js';
import type { RepositoryObjects } from '../../git/objects.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import {
  changesOf, issueAttrs, issueById, mergeRequestAttrs, mergeRequestOf, projectHookAttrs, pushData, userHookAttrs, utcTime, type Json, type PushInput,
} from './payloads.js';
import { enqueue, projectHooksFor, type HookScope } from './queue.js';
import type { Hook } from './records.js';
import type { Issue } from '../issues/index.js';
import { reviewerEntries, type MergeRequest } from '../merge-requests/index.js';

/**
 * What a payload is built from: the world as the event left it (and as the request found it, for
 * `changes`), the instance's URL, and the repositories' objects. A payload is built once its
 * delivery's turn comes, off the request's path, from that world: the same bytes as if built at once.
 */
export interface BuildEnv {
  state: State;
  initial: State;
  webBase: string;
  repo(projectId: number): RepositoryObjects;
}

/** A request's build environment: its world, and its view of the objects. */
export const requestEnv = (ctx: Context<unknown>): BuildEnv => ({
  state: ctx.state, initial: ctx.initial as State, webBase: ctx.webBase, repo: (id) => objectsOf(ctx, { id }),
});

/** Git::BranchHooksService::PROCESS_COMMIT_LIMIT. */
const PROCESS_COMMIT_LIMIT = 100;

export function actor(state: State, e: StoredEvent): User | undefined {
  return e.actorId === null ? undefined : tget(state.users, e.actorId);
}

/** Queues `data` for `hooks` with a new event UUID. */
export function send(ctx: Context<unknown>, hooks: readonly Hook[], scope: HookScope, build: (env: BuildEnv) => Json | Promise<Json>): void {
  const state = ctx.state;
  const initial = ctx.initial as State;
  const webBase = ctx.webBase;
  enqueue(ctx, hooks, { scope, instanceUrl: webBase, build: (repo) => build({ state, initial, webBase, repo }) });
}

/** Queues `data` for the hooks of a project (and its groups) that take `scope`. */
export function sendToProject(ctx: Context<unknown>, projectId: number, scope: HookScope, build: (env: BuildEnv) => Json | Promise<Json>): void {
  const hooks = projectHooksFor(ctx.state, projectId, scope, null, ctx.now());
  if (hooks.length) send(ctx, hooks, scope, build);
}

/** The commits a push lists, oldest first, and how many it counts (Git::BranchHooksService, TagHooksService). */
async function pushedCommits(env: BuildEnv, e: StoredEvent<'push'>): Promise<Pick<PushInput, 'commits' | 'totalCommits'>> {
  const project = tget(env.state.projects, e.projectId)!;
  const repo = env.repo(project.id);
  if (e.after === null) return { commits: [], totalCommits: 0 };
  if (e.refType === 'tag') {
    const commit = await peelToCommit(repo, e.after);
    return { commits: commit ? [commit] : [], totalCommits: commit ? 1 : 0 };
  }
  const defaultBranch = defaultBranchName(project);
  if (e.before === null && e.ref === defaultBranch) {
    const listed = await log(repo, [e.after]);
    return { commits: listed.slice(0, PROCESS_COMMIT_LIMIT).map((l) => l.sha).reverse(), totalCommits: listed.length };
  }
  const base = e.before ?? branchTip(refsOf(env.initial, e.projectId), defaultBranch) ?? null;
  const commits = base === null || base === e.after ? (base === null ? [e.after] : []) : await commitsBetween(repo, base, e.after);
  return { commits: commits.slice(-PROCESS_COMMIT_LIMIT), totalCommits: commits.length };
}

/** Push Hook and Tag Push Hook. */
function onPush(ctx: Context<unknown>, e: StoredEvent<'push'>): void {
  const scope: HookScope = e.refType === 'tag' ? 'tag_push_hooks' : 'push_hooks';
  const hooks = projectHooksFor(ctx.state, e.projectId, scope, e.refType === 'branch' ? e.ref : null, ctx.now());
  const user = actor(ctx.state, e);
  const project = tget(ctx.state.projects, e.projectId);
  if (hooks.length === 0 || !user || !project) return;
  send(ctx, hooks, scope, async (env) => pushData(env.state, env.repo(project.id), project, user, { ...e, ...(await pushedCommits(env, e)) }, env.webBase));
}

/** The actions of Issues::BaseService#execute_hooks and MergeRequests::BaseService#execute_hooks. */
const ISSUE_ACTIONS = { 'issue.opened': 'open', 'issue.updated': 'update', 'issue.closed': 'close', 'issue.reopened': 'reopen' } as const;
const MR_ACTIONS = {
  'merge_request.opened': 'open', 'merge_request.updated': 'update', 'merge_request.merged': 'merge', 'merge_request.closed': 'close',
  'merge_request.reopened': 'reopen', 'merge_request.approved': 'approved', 'merge_request.unapproved': 'unapproved',
} as const;

/** Fields a hook's `changes` never names (derived ones, and those with a key of their own). */
const UNCHANGED = new Set(['url', 'labels', 'assignee_ids', 'assignee_id', 'reviewer_ids', 'human_total_time_spent', 'human_time_change', 'human_time_estimate', 'time_change', 'source', 'target', 'last_commit', 'state', 'detailed_merge_status', 'customer_relations_contacts', 'type', 'approval_rules', 'prepared_at', 'blocking_discussions_resolved', 'first_contribution', 'merge_params', 'work_in_progress']);

/** `changes`: each attribute whose value moved, plus labels and assignees (and reviewers) as lists of hook_attrs. */
function changes(state: State, before: Json | null, after: Json, people: { key: string; before: number[]; after: number[] }[]): Json {
  const fields = Object.keys(after).filter((k) => !UNCHANGED.has(k));
  const out = changesOf(before ?? Object.fromEntries(fields.map((k) => [k, null])), after, fields);
  if (JSON.stringify(before?.labels ?? []) !== JSON.stringify(after.labels)) out.labels = { previous: before?.labels ?? [], current: after.labels };
  for (const p of people) {
    if (JSON.stringify(p.before) !== JSON.stringify(p.after)) {
      const attrs = (ids: number[]) => ids.flatMap((id) => tget(state.users, id) ?? []).map(userHookAttrs);
      out[p.key] = { previous: attrs(p.before), current: attrs(p.after) };
    }
  }
  return out;
}

/** Issue Hook (Issues::BaseService#execute_hooks): confidential issues only to hooks with confidential issue events. */
function onIssue(ctx: Context<unknown>, e: StoredEvent<keyof typeof ISSUE_ACTIONS>): void {
  const issue = issueById(ctx.state, e.issueId);
  const user = actor(ctx.state, e);
  const project = tget(ctx.state.projects, e.projectId);
  if (!issue || !user || !project) return;
  const scope: HookScope = issue.confidential ? 'confidential_issue_hooks' : 'issue_hooks';
  const hooks = projectHooksFor(ctx.state, e.projectId, scope, null, ctx.now());
  if (hooks.length === 0) return;
  const previous = e.kind === 'issue.opened' ? undefined : issueById(ctx.initial as State, e.issueId);
  send(ctx, hooks, scope, (env) => issueData(env, issue, user, ISSUE_ACTIONS[e.kind], previous ?? null));
}

/** Gitlab::DataBuilder::Issuable for an issue (Issue#to_hook_data), with `changes` against its previous version. */
export function issueData(env: BuildEnv, issue: Issue, user: User, action: string, previous: Issue | null): Json {
  const project = tget(env.state.projects, issue.projectId)!;
  const attrs: Json = { ...issueAttrs(env.state, issue, env.webBase), action };
  const before = previous ? issueAttrs(env.initial, previous, env.webBase) : null;
  const data: Json = {
    object_kind: 'issue',
    event_type: issue.confidential ? 'confidential_issue' : 'issue',
    user: userHookAttrs(user),
    project: projectHookAttrs(env.state, project, env.webBase),
    object_attributes: attrs,
    labels: attrs.labels,
    changes: changes(env.state, before, attrs, [{ key: 'assignees', before: previous?.assigneeIds ?? [], after: issue.assigneeIds }]),
    repository: repository(env.state, project, env.webBase),
  };
  if (issue.assigneeIds.length) {
    data.assignees = issue.assigneeIds.flatMap((id) => tget(env.state.users, id) ?? []).map(userHookAttrs);
    data.assignee = (data.assignees as unknown[])[0]; // deprecated: the first assignee
  }
  return data;
}

function repository(state: State, project: Project, webBase: string) {
  const p = projectHookAttrs(state, project, webBase);
  return { name: p.name, url: p.url, description: p.description, homepage: p.homepage };
}

export async function headCommit(env: BuildEnv, projectId: number, sha: string) {
  try {
    const c = await env.repo(projectId).readCommit(sha);
    return { sha, message: c.message, ident: c.committer, author: c.author };
  } catch {
    return null;
  }
}

/** Gitlab::DataBuilder::Issuable for a merge request, with `changes` against its previous version. */
export async function mergeRequestData(env: BuildEnv, mr: MergeRequest, user: User, action: string, previous: MergeRequest | null): Promise<Json> {
  const project = tget(env.state.projects, mr.projectId)!;
  const attrs: Json = { ...mergeRequestAttrs(env.state, mr, env.webBase, await headCommit(env, mr.projectId, mr.sha)), action };
  const before = previous ? mergeRequestAttrs(env.initial, previous, env.webBase, null) : null;
  const data: Json = {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userHookAttrs(user),
    project: projectHookAttrs(env.state, project, env.webBase),
    object_attributes: attrs,
    labels: attrs.labels,
    changes: changes(env.state, before, attrs, [
      { key: 'assignees', before: previous?.assigneeIds ?? [], after: mr.assigneeIds },
      { key: 'reviewers', before: previous?.reviewerIds ?? [], after: mr.reviewerIds },
    ]),
    repository: repository(env.state, project, env.webBase),
  };
  if (mr.assigneeIds.length) data.assignees = mr.assigneeIds.flatMap((id) => tget(env.state.users, id) ?? []).map(userHookAttrs);
  // Each reviewer with its state (merge_request_reviewers); `re_requested` is true only in a re-requested review's hook, which the API cannot make.
  if (mr.reviewerIds.length) data.reviewers = reviewerEntries(mr).flatMap((r) => { const u = tget(env.state.users, r.userId); return u ? [{ ...userHookAttrs(u), state: r.state, re_requested: false }] : []; });
  return data;
}

/** Merge Request Hook (MergeRequests::BaseService#execute_hooks). */
function onMergeRequest(ctx: Context<unknown>, e: StoredEvent<keyof typeof MR_ACTIONS>): void {
  const mr = mergeRequestOf(ctx.state, e.projectId, e.iid);
  const user = actor(ctx.state, e);
  const project = tget(ctx.state.projects, e.projectId);
  if (!mr || !user || !project) return;
  const hooks = projectHooksFor(ctx.state, e.projectId, 'merge_request_hooks', null, ctx.now());
  if (hooks.length === 0) return;
  const previous = e.kind === 'merge_request.opened' ? undefined : mergeRequestOf(ctx.initial as State, e.projectId, e.iid);
  send(ctx, hooks, 'merge_request_hooks', (env) => mergeRequestData(env, mr, user, MR_ACTIONS[e.kind], previous ?? null));
}

/** Note#hook_attrs. */
export function noteAttrs(note: Note, url: string) {
  return {
    attachment: null, author_id: note.authorId, change_position: null, commit_id: note.commitId, created_at: utcTime(note.createdAt),
    discussion_id: null, id: note.id, line_code: null, note: note.body, noteable_id: note.noteableId, noteable_type: note.noteableType,
    original_position: null, position: null, project_id: note.projectId, resolved_at: null, resolved_by_id: null, resolved_by_push: null, st_diff: null,
    system: note.system, type: note.type ?? null, updated_at: utcTime(note.updatedAt), updated_by_id: note.updatedById, description: note.body,
    internal: note.internal, confidential: note.internal, url, action: 'create',
  };
}

/** Gitlab::DataBuilder::Note.build: the note, and what it is on. */
export async function noteData(env: BuildEnv, note: Note, user: User, confidential: boolean): Promise<Json> {
  const project = tget(env.state.projects, note.projectId!)!;
  const issue = note.noteableType === 'Issue' && note.noteableId !== null ? issueById(env.state, note.noteableId) : undefined;
  const p = projectHookAttrs(env.state, project, env.webBase);
  let url = `${p.web_url}#note_${note.id}`;
  const data: Json = {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    user: userHookAttrs(user),
    project_id: project.id,
    project: p,
    object_attributes: {},
    repository: repository(env.state, project, env.webBase),
  };
  if (note.noteableType === 'Issue' && issue) {
    url = `${p.web_url}/-/issues/${issue.iid}#note_${note.id}`;
    data.issue = issueAttrs(env.state, issue, env.webBase);
  } else if (note.noteableType === 'MergeRequest' && note.noteableId !== null) {
    const mr = mergeRequestById(env.state, project.id, note.noteableId);
    if (mr) {
      url = `${p.web_url}/-/merge_requests/${mr.iid}#note_${note.id}`;
      data.merge_request = mergeRequestAttrs(env.state, mr, env.webBase, await headCommit(env, mr.projectId, mr.sha));
    }
  } else if (note.noteableType === 'Commit') {
    const sha = String(note.commitId);
    url = `${p.web_url}/-/commit/${sha}#note_${note.id}`;
    const head = await headCommit(env, project.id, sha);
    if (head) data.commit = { id: sha, message: head.message, title: head.message.split(/\r?\n/, 1)[0], timestamp: null, url: `${p.web_url}/-/commit/${sha}`, author: { name: head.author.name, email: head.author.email } };
  } else if (note.noteableType === 'Snippet') {
    url = `${p.web_url}/-/snippets/${note.noteableId}#note_${note.id}`;
  }
  data.object_attributes = noteAttrs(note, url);
  return data;
}

/** The merge request of a project with that global id. */
export function mergeRequestById(state: State, projectId: number, id: number) {
  return plist(state.mergeRequests, projectId).find((m) => m.id === id);
}

/** Note Hook (Gitlab::DataBuilder::Note): internal notes, and notes on confidential issues, only to confidential note events. */
function onNote(ctx: Context<unknown>, e: StoredEvent<'note.created'>): void {
  if (e.projectId === null) return;
  const project = tget(ctx.state.projects, e.projectId);
  const user = actor(ctx.state, e);
  const note = findNote(ctx.state, noteKey(e.noteableType, e.noteableId), e.noteId);
  if (!project || !user || !note) return;
  const issue = e.noteableType === 'Issue' ? issueById(ctx.state, e.noteableId as number) : undefined;
  const confidential = note.internal || issue?.confidential === true;
  const scope: HookScope = confidential ? 'confidential_note_hooks' : 'note_hooks';
  const hooks = projectHooksFor(ctx.state, e.projectId, scope, null, ctx.now());
  if (hooks.length === 0) return;
  send(ctx, hooks, scope, (env) => noteData(env, note, user, confidential));
}

export const hookSubscribers = {
  push: onPush,
  'issue.opened': onIssue,
  'issue.updated': onIssue,
  'issue.closed': onIssue,
  'issue.reopened': onIssue,
  'merge_request.opened': onMergeRequest,
  'merge_request.updated': onMergeRequest,
  'merge_request.merged': onMergeRequest,
  'merge_request.closed': onMergeRequest,
  'merge_request.reopened': onMergeRequest,
  'merge_request.approved': onMergeRequest,
  'merge_request.unapproved': onMergeRequest,
  'note.created': onNote,
};
