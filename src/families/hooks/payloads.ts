// What a hook sends: GitLab's data builders (lib/gitlab/data_builder/push.rb, note.rb,
// issuable.rb, lib/gitlab/hook_data/issue_builder.rb, merge_request_builder.rb) over the world,
// and the hook_attrs of users, projects, commits and labels they are made of.
import { diffTrees } from '../../git/tree.js';
import type { RepositoryObjects, CommitData, Ident } from '../../git/objects.js';
import { pget, tget } from '../../store/table.js';
import type { Project, User } from '../../store/state.js';
import { findTag, isProtected, matchesRefPattern, protectedTagEntries, refsOf } from '../repositories/index.js';
import { labelById, type Label } from '../labels/index.js';
import { issueById, type Issue } from '../issues/index.js';
import type { MergeRequest } from '../merge-requests/index.js';
import type { State } from '../world.js';

export type Json = Record<string, unknown>;

const BLANK_SHA = '0000000000000000000000000000000000000000';
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;

/** Time#xmlschema in UTC: `2013-12-03T17:15:43Z`. */
export const xmlschema = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
/** A time as a model's attributes render it in a hook (`2015-05-17 18:21:36 UTC`). */
export const utcTime = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC'));

/** A git date with its offset, as Commit#timestamp (xmlschema): `2011-12-12T14:27:31+02:00`. */
function gitXmlschema(i: Ident): string {
  const local = new Date((i.timestamp + i.offset * 60) * 1000).toISOString().slice(0, 19);
  const abs = Math.abs(i.offset);
  return `${local}${i.offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** User#hook_attrs: the e-mail only when public. */
export function userHookAttrs(user: User) {
  return { id: user.id, name: user.name, username: user.username, avatar_url: null, email: user.publicEmail || '[REDACTED]' };
}

export function projectFullPath(state: State, project: Project): string {
  return `${tget(state.namespaces, project.namespaceId)!.fullPath}/${project.path}`;
}

/** Project#hook_attrs (backward: true). */
export function projectHookAttrs(state: State, project: Project, webBase: string) {
  const ns = tget(state.namespaces, project.namespaceId)!;
  const full = `${ns.fullPath}/${project.path}`;
  const web = `${webBase}/${full}`;
  const ssh = `git@${new URL(webBase).hostname}:${full}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description === '' ? null : project.description,
    web_url: web,
    avatar_url: null,
    git_ssh_url: ssh,
    git_http_url: `${web}.git`,
    namespace: ns.name,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: full,
    default_branch: project.defaultBranch,
    ci_config_path: (project.settings.ci_config_path as string | undefined) || null,
    homepage: web,
    url: ssh,
    ssh_url: ssh,
    http_url: `${web}.git`,
  };
}

/** The deprecated `repository` of a push: part of the project's hook_attrs. */
function repositoryAttrs(p: ReturnType<typeof projectHookAttrs>) {
  return { name: p.name, url: p.url, description: p.description, homepage: p.homepage, git_http_url: p.git_http_url, git_ssh_url: p.git_ssh_url, visibility_level: p.visibility_level };
}

/** Commit#hook_attrs with its changed files against its first parent. */
async function commitHookAttrs(repo: RepositoryObjects, sha: string, commit: CommitData, projectWeb: string) {
  const parent = commit.parents[0] ? (await repo.readCommit(commit.parents[0])).tree : null;
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  for (const d of await diffTrees(repo, parent, commit.tree)) {
    if (!d.before) added.push(d.path);
    else if (!d.after) removed.push(d.path);
    else modified.push(d.path);
  }
  const firstLine = commit.message.split(/\r?\n/, 1)[0] ?? '';
  return {
    id: sha,
    message: commit.message,
    title: firstLine.length > 100 ? `${firstLine.slice(0, 97)}...` : firstLine,
    timestamp: gitXmlschema(commit.committer),
    url: `${projectWeb}/-/commit/${sha}`,
    author: { name: commit.author.name, email: commit.author.email },
    added,
    modified,
    removed,
  };
}

/** What a push passes the data builder (Git::BranchHooksService / TagHooksService). */
export interface PushInput {
  ref: string;
  refType: 'branch' | 'tag';
  before: string | null;
  after: string | null;
  /** The commits to list, oldest first (the builder keeps the last 20). */
  commits: string[];
  totalCommits: number;
}

/** Gitlab::DataBuilder::Push.build. */
export async function pushData(state: State, repo: RepositoryObjects, project: Project, user: User, push: PushInput, webBase: string): Promise<Json> {
  const p = projectHookAttrs(state, project, webBase);
  const fullRef = `${push.refType === 'tag' ? 'refs/tags/' : 'refs/heads/'}${push.ref}`;
  const refs = refsOf(state, project.id);
  let checkoutSha: string | null = null;
  let message: string | null = null;
  if (push.after !== null) {
    if (push.refType === 'tag') {
      const tag = findTag(refs, push.ref);
      checkoutSha = tag?.commit ?? null;
      message = tag?.message ?? null;
    } else checkoutSha = push.after;
  }
  const commits = [];
  for (const sha of push.commits.slice(-20)) commits.push(await commitHookAttrs(repo, sha, await repo.readCommit(sha), p.web_url));
  return {
    object_kind: push.refType === 'tag' ? 'tag_push' : 'push',
    event_name: push.refType === 'tag' ? 'tag_push' : 'push',
    before: push.before ?? BLANK_SHA,
    after: push.after ?? BLANK_SHA,
    ref: fullRef,
    ref_protected: push.refType === 'branch' ? isProtected(refs, push.ref) : [...protectedTagEntries(refs)].some(([pattern]) => matchesRefPattern(pattern, push.ref)),
    checkout_sha: checkoutSha,
    message,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: user.publicEmail || null,
    user_avatar: null,
    project_id: project.id,
    project: p,
    commits,
    total_commits_count: push.totalCommits,
    push_options: {},
    repository: repositoryAttrs(p),
  };
}

/** Label#hook_attrs. */
export function labelHookAttrs(l: Label) {
  return {
    id: l.id, title: l.title, color: l.color, project_id: l.projectId, created_at: xmlschema(l.createdAt), updated_at: xmlschema(l.createdAt), template: false,
    description: l.description === '' ? null : l.description, type: l.projectId !== null ? 'ProjectLabel' : 'GroupLabel', group_id: l.groupId,
  };
}

const labelsOf = (state: State, ids: readonly number[]) => ids.flatMap((id) => labelById(state, id) ?? []).map(labelHookAttrs);

/** ChronicDuration as GitLab's human_* fields say it (`1h 30m`), or null for none. */
function humanDuration(seconds: number): string | null {
  if (!seconds) return null;
  const parts: string[] = [];
  const units: [string, number][] = [['mo', 576_000], ['w', 144_000], ['d', 28_800], ['h', 3600], ['m', 60], ['s', 1]];
  let rest = seconds;
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}

/** Gitlab::HookData::IssueBuilder#build. */
export function issueAttrs(state: State, issue: Issue, webBase: string): Json {
  const project = tget(state.projects, issue.projectId)!;
  const web = `${webBase}/${projectFullPath(state, project)}`;
  return {
    author_id: issue.authorId,
    closed_at: xmlschema(issue.closedAt),
    confidential: issue.confidential,
    created_at: xmlschema(issue.createdAt),
    description: issue.description,
    discussion_locked: issue.discussionLocked,
    due_date: issue.dueDate,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: issue.milestoneId,
    moved_to_id: issue.movedToId,
    duplicated_to_id: issue.duplicatedToId,
    project_id: issue.projectId,
    relative_position: issue.relativePosition,
    state_id: issue.state === 'opened' ? 1 : 2,
    time_estimate: issue.timeEstimate,
    title: issue.title,
    updated_at: xmlschema(issue.updatedAt),
    updated_by_id: null,
    weight: issue.weight,
    health_status: issue.healthStatus,
    type: issue.issueType === 'issue' ? 'Issue' : issue.issueType === 'incident' ? 'Incident' : issue.issueType === 'task' ? 'Task' : 'TestCase',
    url: `${web}/-/${issue.issueType === 'incident' ? 'issues/incident' : 'issues'}/${issue.iid}`,
    total_time_spent: issue.totalTimeSpent,
    time_change: 0,
    human_total_time_spent: humanDuration(issue.totalTimeSpent),
    human_time_change: null,
    human_time_estimate: humanDuration(issue.timeEstimate),
    assignee_ids: issue.assigneeIds,
    assignee_id: issue.assigneeIds[0] ?? null,
    labels: labelsOf(state, issue.labelIds),
    state: issue.state,
    severity: issue.severity,
    customer_relations_contacts: [],
  };
}

/** Gitlab::HookData::MergeRequestBuilder#build. */
export function mergeRequestAttrs(state: State, mr: MergeRequest, webBase: string, head: { message: string; sha: string; ident: Ident; author: Ident } | null): Json {
  const project = tget(state.projects, mr.projectId)!;
  const p = projectHookAttrs(state, project, webBase);
  const stateId = { opened: 1, closed: 2, merged: 3, locked: 4 }[mr.state];
  return {
    assignee_id: mr.assigneeIds[0] ?? null,
    author_id: mr.authorId,
    created_at: xmlschema(mr.createdAt),
    description: mr.description,
    draft: mr.draft,
    head_pipeline_id: null,
    id: mr.id,
    iid: mr.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    merge_commit_sha: mr.mergeCommitSha,
    merge_error: null,
    merge_params: { force_remove_source_branch: mr.removeSourceBranch ? '1' : '0' },
    merge_status: mr.mergeStatus,
    merge_user_id: mr.mergedById,
    merge_when_pipeline_succeeds: false,
    milestone_id: mr.milestoneId,
    source_branch: mr.sourceBranch,
    source_project_id: mr.projectId,
    state_id: stateId,
    target_branch: mr.targetBranch,
    target_project_id: mr.projectId,
    time_estimate: mr.timeEstimate,
    title: mr.title,
    updated_at: xmlschema(mr.updatedAt),
    updated_by_id: null,
    prepared_at: xmlschema(mr.createdAt),
    assignee_ids: mr.assigneeIds,
    blocking_discussions_resolved: true,
    detailed_merge_status: mr.state === 'opened' ? (mr.draft ? 'draft_status' : mr.mergeStatus === 'cannot_be_merged' ? 'conflict' : mr.mergeStatus === 'unchecked' ? 'unchecked' : 'mergeable') : 'not_open',
    first_contribution: false,
    human_time_change: null,
    human_time_estimate: humanDuration(mr.timeEstimate),
    human_total_time_spent: humanDuration(mr.totalTimeSpent),
    labels: labelsOf(state, mr.labelIds),
    last_commit: head
      ? {
          id: head.sha,
          message: head.message,
          title: head.message.split(/\r?\n/, 1)[0] ?? '',
          timestamp: gitXmlschema(head.ident),
          url: `${p.web_url}/-/commit/${head.sha}`,
          author: { name: head.author.name, email: head.author.email },
        }
      : null,
    reviewer_ids: mr.reviewerIds,
    source: p,
    state: mr.state,
    target: p,
    time_change: 0,
    total_time_spent: mr.totalTimeSpent,
    url: `${p.web_url}/-/merge_requests/${mr.iid}`,
    work_in_progress: mr.draft,
    approval_rules: [],
  };
}

/** Issuable#to_hook_data's `changes`: each changed field's previous and current value, as the hook shows them. */
export function changesOf(before: Json | null, after: Json, fields: readonly string[], labelsBefore?: unknown, labelsAfter?: unknown): Json {
  const out: Json = {};
  if (!before) return out;
  for (const f of fields) {
    if (f === 'labels') {
      out.labels = { previous: labelsBefore ?? [], current: labelsAfter ?? [] };
      continue;
    }
    if (f === 'assignees' || f === 'reviewers') continue;
    const key = f in after ? f : `${f}_id`;
    if (!(key in after)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = { previous: before[key] ?? null, current: after[key] ?? null };
  }
  return out;
}

export const mergeRequestOf = (state: State, projectId: number, iid: number): MergeRequest | undefined => pget(state.mergeRequests, projectId, iid);
export { issueById };
