// GitLab's Event records (app/models/event.rb, EventCreateService) as the stream gives them:
// which of the stream's events GitLab's events API shows, with its action and target, and who
// may see each (Event#visible_to_user?: one ability per kind of target). Events API rows are
// read from the stream's log, never kept apart from it.
import { canReadProject } from '../../policy/access.js';
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { canReadProjectMilestones } from '../milestones/index.js';
import { canReadCode } from '../repositories/index.js';
import { canReadProjectWiki } from '../wikis/index.js';
import { readableIssue } from '../issues/index.js';
import { readableMergeRequest } from '../merge-requests/index.js';
import { readableNoteOf } from '../notes/index.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';

/** Event.actions, as the `action` filter takes them. */
export const ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const;
export type Action = (typeof ACTIONS)[number];

/** Event::TARGET_TYPES: the `target_type` filter's names and the class each stands for. */
export const TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
  wiki: 'WikiPage::Meta',
  design: 'DesignManagement::Design',
} as const;

/** What a row's target is, for rendering: the kind and what to find it by. */
export type Target =
  | { type: 'Issue'; id: number; iid: number }
  | { type: 'MergeRequest'; id: number; iid: number }
  | { type: 'Note'; id: number; noteableType: string; noteableId: number | string; noteableIid: number | null }
  | { type: 'Milestone'; projectId: number; milestoneId: number }
  | { type: 'WikiPage::Meta'; slug: string; title: string; format: string; metaId: number };

/** One event as GitLab's events API lists it. */
export interface EventRow {
  event: StoredEvent;
  projectId: number;
  action: Action;
  /** GitLab's author: who acted, or for a membership the member. */
  authorId: number | null;
  target: Target | null;
  /** The ability a viewer needs besides reading the project. */
  visible(state: State, user: User | null, project: Project, now: number): boolean;
}

const always = () => true;
const downloadCode = (s: State, u: User | null, p: Project, now: number) => canReadCode(s, u, p, now);
const readMilestone = (s: State, u: User | null, p: Project, now: number) => canReadProjectMilestones(s, u, p, now);
const readWiki = (s: State, u: User | null, p: Project, now: number) => canReadProjectWiki(s, u, p, now);

const readIssue = (iid: number) => (s: State, u: User | null, p: Project, now: number) => readableIssue(s, u, p, iid, now) !== undefined;
const readMergeRequest = (iid: number) => (s: State, u: User | null, p: Project, now: number) => readableMergeRequest(s, u, p, iid, now) !== undefined;

const ISSUABLE_ACTIONS = { opened: 'created', closed: 'closed', reopened: 'reopened', merged: 'merged', approved: 'approved' } as const;
type IssuableAction = keyof typeof ISSUABLE_ACTIONS;

const MILESTONE_ACTIONS = { 'milestone.created': 'created', 'milestone.closed': 'closed', 'milestone.reopened': 'reopened', 'milestone.destroyed': 'destroyed' } as const;
const WIKI_ACTIONS = { 'wiki_page.created': 'created', 'wiki_page.updated': 'updated', 'wiki_page.deleted': 'destroyed' } as const;

/** The row GitLab keeps for a stream event, or null where it keeps none (or none a project holds). */
export function rowOf(e: StoredEvent): EventRow | null {
  const base = { event: e, authorId: e.actorId };
  switch (e.kind) {
    case 'push':
      return { ...base, projectId: e.projectId, action: 'pushed', target: null, visible: downloadCode };
    case 'project.created':
      return { ...base, projectId: e.projectId, action: 'created', target: null, visible: always };
    case 'member.added':
    case 'member.removed':
      if (e.projectId === undefined) return null;
      return { ...base, authorId: e.userId, projectId: e.projectId, action: e.kind === 'member.added' ? 'joined' : 'left', target: null, visible: always };
    case 'milestone.created':
    case 'milestone.closed':
    case 'milestone.reopened':
    case 'milestone.destroyed':
      if (e.projectId === undefined) return null;
      return {
        ...base, projectId: e.projectId, action: MILESTONE_ACTIONS[e.kind],
        target: { type: 'Milestone', projectId: e.projectId, milestoneId: e.milestoneId },
        visible: readMilestone,
      };
    case 'wiki_page.created':
    case 'wiki_page.updated':
    case 'wiki_page.deleted':
      if (e.projectId === undefined) return null;
      return {
        ...base, projectId: e.projectId, action: WIKI_ACTIONS[e.kind],
        target: { type: 'WikiPage::Meta', slug: e.slug, title: e.title, format: e.format, metaId: e.metaId },
        visible: readWiki,
      };
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened':
      return {
        ...base, projectId: e.projectId, action: ISSUABLE_ACTIONS[e.kind.slice(6) as IssuableAction],
        target: { type: 'Issue', id: e.issueId, iid: e.iid }, visible: readIssue(e.iid),
      };
    case 'merge_request.opened':
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.merged':
    case 'merge_request.approved':
      return {
        ...base, projectId: e.projectId, action: ISSUABLE_ACTIONS[e.kind.slice(14) as IssuableAction],
        target: { type: 'MergeRequest', id: e.mergeRequestId, iid: e.iid }, visible: readMergeRequest(e.iid),
      };
    case 'note.created': {
      if (e.projectId === null) return null;
      const ref = { noteableType: e.noteableType, noteableId: e.noteableId, noteableIid: e.noteableIid, noteId: e.noteId };
      return {
        ...base, projectId: e.projectId, action: 'commented', target: { type: 'Note', id: e.noteId, noteableType: e.noteableType, noteableId: e.noteableId, noteableIid: e.noteableIid },
        visible: (s, u, p, now) => readableNoteOf(s, u, p, ref, now) !== null && (e.noteableType !== 'Commit' || canReadCode(s, u, p, now)),
      };
    }
    default:
      return null;
  }
}

/** Event#action_name: what the web and the API call the action. */
export function actionName(row: EventRow, push: { before: string | null; after: string | null } | null): string {
  switch (row.action) {
    case 'pushed':
      return push?.before === null ? 'pushed new' : push?.after === null ? 'deleted' : 'pushed to';
    case 'closed':
      return 'closed';
    case 'merged':
      return 'accepted';
    case 'joined':
      return 'joined';
    case 'left':
      return 'left';
    case 'expired':
      return 'removed due to membership expiration from';
    case 'destroyed':
      return 'destroyed';
    case 'commented':
      return 'commented on';
    case 'approved':
      return 'approved';
    case 'created':
      return row.target?.type === 'WikiPage::Meta' ? 'created' : row.target === null ? 'created' : 'opened';
    case 'updated':
      return row.target?.type === 'WikiPage::Meta' ? 'updated' : 'opened';
    default:
      return 'opened';
  }
}

/** Whether a viewer sees a row: its project (events.merge(Project.public_or_visible_to_user)), then the target's ability. */
export function rowVisible(state: State, user: User | null, row: EventRow, now: number): boolean {
  const project = tget(state.projects, row.projectId);
  return project !== undefined && canReadProject(state, user, project, now) && row.visible(state, user, project, now);
}
