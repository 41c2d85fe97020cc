// Issues as GitLab renders them (lib/api/entities/issuable_entity.rb, issue_basic.rb, issue.rb,
// issuable_references.rb; EE's additions at the higher tiers).
import { noteKey, userNotesCount } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import type { Project, User } from '../../store/state.js';
import { iso } from '../../render/time.js';
import { milestoneEntity } from '../milestones/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { downvotes, issueVisible, seesConfidential, upvotes } from './finder.js';
import { labelBasic, labelById, type Label } from '../labels/index.js';
import type { Issue } from './records.js';
import { issueById } from './store.js';
import { closingMergeRequestCount } from './rules.js';
import { epicById, issueEpic, iterationById, iterationEntity } from '../epics/index.js';
import { blockingIssuesCount } from './links.js';
import { isSubscribed, issueMilestone, socialTarget, taskCounts, timeStats } from '../issuables/index.js';

export interface IssueView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
  /** Where the request stands, for `references.relative`. */
  context: { kind: 'project'; id: number } | { kind: 'group'; id: number } | { kind: 'none' };
  withLabelsDetails?: boolean;
  /** Single-issue answers carry `subscribed`; lists do not. */
  subscribed?: boolean;
}

const user = (state: State, id: number | null, u: UrlBase) => {
  const found = id === null ? undefined : tget(state.users, id);
  return found ? userBasic(found, u) : null;
};

/**
 * IssuableReferences: `#5`, relative to where the request stands, and the full path. The spec
 * says `relative` equals `full` when requested across groups and projects, so `/issues` (no
 * project or group) answers the full path, as GitLab's docs show, where its code gives `#5`.
 */
export function issueReferences(state: State, issue: Issue, project: Project, context: IssueView['context']) {
  const short = `#${issue.iid}`;
  const { fullPath, ns } = projectPaths(state, project);
  const full = `${fullPath}${short}`;
  let relative = short;
  if (context.kind === 'none' || (context.kind === 'project' && context.id !== project.id)) relative = full;
  if (context.kind === 'group') relative = ns.id === context.id ? `${project.path}${short}` : full;
  return { short, relative, full };
}

export function issueWebUrl(state: State, issue: Issue, u: UrlBase): string {
  const project = tget(state.projects, issue.projectId)!;
  return `${projectWebUrl(state, project, u)}/-/issues/${issue.iid}`;
}

function labelsOf(state: State, issue: Issue): Label[] {
  return issue.labelIds.map((id) => labelById(state, id)).filter((l): l is Label => l !== undefined).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

/** Entities::Issue (with `subscribed` for a single issue). */
export function issueEntity(v: IssueView, issue: Issue) {
  const { state } = v;
  const project = tget(state.projects, issue.projectId)!;
  const tier = state.instance.tier;
  const labels = labelsOf(state, issue);
  const milestone = issueMilestone(state, project, issue.milestoneId);
  const assignees = issue.assigneeIds.map((id) => user(state, id, v)).filter((x) => x !== null);
  const tasks = taskCounts(issue.description);
  const api = `${v.webBase}/api/v4/projects/${issue.projectId}`;
  const dup = issue.duplicatedToId === null ? undefined : issueById(state, issue.duplicatedToId);
  const dupProject = dup ? tget(state.projects, dup.projectId) : undefined;
  const epic = issue.epicId === null ? undefined : epicById(state, issue.epicId);
  const iteration = issue.iterationId === null ? undefined : iterationById(state, issue.iterationId);
  const dupVisible = dup && dupProject && issueVisible(state, v.viewer, dup, seesConfidential(state, v.viewer, dupProject, v.now));
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description === '' ? null : issue.description,
    state: issue.state,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: iso(issue.closedAt),
    closed_by: user(state, issue.closedById, v),
    labels: v.withLabelsDetails ? labels.map(labelBasic) : labels.map((l) => l.title),
    milestone: milestone ? milestoneEntity(state, milestone, v, v.now) : null,
    assignees,
    author: user(state, issue.authorId, v),
    type: issue.issueType.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: userNotesCount(state, noteKey('Issue', issue.id)),
    merge_requests_count: closingMergeRequestCount(state, issue),
    upvotes: upvotes(state, issue.id),
    downvotes: downvotes(state, issue.id),
    due_date: issue.dueDate,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked ?? false, // the spec: a boolean (GitLab renders its column's null)
    issue_type: issue.issueType,
    web_url: `${projectWebUrl(state, project, v)}/-/issues/${issue.iid}`,
    time_stats: timeStats(issue),
    task_completion_status: tasks,
    ...(tier !== 'free' ? { weight: issue.weight, blocking_issues_count: blockingIssuesCount(state, issue), epic_iid: epic?.iid ?? null, epic: epic ? issueEpic(state, epic, v) : null } : {}),
    has_tasks: tasks.count > 0,
    ...(tasks.count > 0 ? { task_status: `${tasks.completed_count} of ${tasks.count} checklist item${tasks.count === 1 ? '' : 's'} completed` } : {}),
    _links: {
      self: `${api}/issues/${issue.iid}`,
      notes: `${api}/issues/${issue.iid}/notes`,
      award_emoji: `${api}/issues/${issue.iid}/award_emoji`,
      project: api,
      closed_as_duplicate_of: dup && dupVisible ? `${v.webBase}/api/v4/projects/${dup.projectId}/issues/${dup.iid}` : null,
    },
    references: issueReferences(state, issue, project, v.context),
    severity: issue.severity.toUpperCase(),
    ...(v.subscribed ? { subscribed: isSubscribed(state, socialTarget('Issue', issue), v.viewer, v.now) } : {}),
    moved_to_id: issue.movedToId,
    imported: false,
    imported_from: 'none',
    service_desk_reply_to: null,
    ...(tier !== 'free' ? { iteration: iteration ? iterationEntity(state, iteration, v, v.now) : null } : {}),
    ...(tier === 'ultimate' ? { health_status: issue.healthStatus } : {}),
  };
}
