// An issue's own quick actions (lib/gitlab/quick_actions/issue_actions.rb and EE's issue
// actions: `/due`, `/remove_due_date`, `/confidential`, `/duplicate`, `/weight`,
// `/clear_weight`, `/iteration`, `/epic`, `/remove_epic`, `/promote`), what the shared commands
// read of an issue, and Issues::UpdateService with the commands' params; registered with the
// issuables family, which runs them in notes and descriptions alike.
import type { Draft } from 'immer';
import { ApiError } from '../../core/errors.js';
import { ancestry, hasGroupRole, hasProjectRole, isWithin } from '../../policy/access.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import { addNote, noteKey } from '../../store/notes.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import {
  applySocialUpdates, chronicDate, defineCommand, interpretDescription, recordEvent, recordLabelChange, socialTarget, spentOf, systemNote, type CommandContext, type CommandKind, type Updates,
} from '../issuables/index.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { createEpic, epicByIid, epicForProject, iterationById, type Epic } from '../epics/index.js';
import { canReadIssues, issueVisible, seesConfidential } from './finder.js';
import type { IssueTarget } from './kind.js';
import { issueReference } from './links.js';
import type { Issue } from './records.js';
import { canAdminIssues, canUpdateIssue, markDuplicate, setEstimate, spendTime, updateIssue, type IssueInput } from './rules.js';
import { issueById, issueByIid, putIssue } from './store.js';

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** strftime('%b %-d, %Y'). */
function shortDate(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return `${MONTHS_SHORT[m! - 1]} ${d}, ${y}`;
}

/** `#2`, `app#2`, `group/app#2` or an issue's URL, from a project. */
function findIssueRef(state: State, from: Project, arg: string, webBase: string | null): Issue | undefined {
  let ref = arg.trim().split(/\s+/)[0] ?? '';
  const url = /\/(.+)\/-\/issues\/(\d+)$/.exec(ref);
  if (url && (webBase === null || ref.startsWith(webBase))) ref = `${url[1]!.replace(/^https?:\/\/[^/]+\//, '')}#${url[2]}`;
  const m = /^(.*)#(\d+)$/.exec(ref);
  if (!m) return undefined;
  let project: Project | undefined = from;
  if (m[1] !== '') {
    const ns = tget(state.namespaces, from.namespaceId);
    project = projectByIdOrPath(state, m[1]!.includes('/') || !ns ? m[1]! : `${ns.fullPath}/${m[1]}`);
  }
  return project && !project.pendingDelete ? issueByIid(state, project.id, Number(m[2])) : undefined;
}

/** `&1`, `group&1` or an epic's URL. */
function findEpicRef(state: State, project: Project, arg: string): Epic | undefined {
  const ref = arg.trim().split(/\s+/)[0] ?? '';
  const url = /\/groups\/(.+)\/-\/epics\/(\d+)$/.exec(ref);
  const m = url ? [ref, url[1], url[2]] : /^(.*)&(\d+)$/.exec(ref);
  if (!m) return undefined;
  let groupId: number | undefined;
  if (m[1] === '' || m[1] === undefined) {
    const ns = tget(state.namespaces, project.namespaceId);
    groupId = ns && ns.kind === 'group' ? ns.id : undefined;
  } else {
    const ns = /^\d+$/.test(m[1]!) ? undefined : namespaceByIdOrPath(state, m[1]!);
    groupId = ns && ns.kind === 'group' ? ns.id : undefined;
  }
  return groupId === undefined ? undefined : epicByIid(state, groupId, Number(m[2]));
}

/** The project's group's iterations (and its ancestors'): `*iteration:<id>`, `*iteration:"title"` or a title. */
function findIteration(state: State, project: Project, arg: string): number | undefined {
  const ns = tget(state.namespaces, project.namespaceId);
  if (!ns || ns.kind !== 'group') return undefined;
  const m = /^\*iteration:(?:(\d+)|"([^"]+)"|(\S+))$/.exec(arg.trim());
  const title = m ? m[2] ?? m[3] : arg.trim();
  if (m && m[1] !== undefined) {
    const it = iterationById(state, Number(m[1]));
    return it && isWithin(state, ns.id, it.groupId) ? it.id : undefined;
  }
  for (const g of ancestry(state, ns.id)) {
    const t = tget(state.iterations, g.id);
    if (t) for (const it of tvalues(t)) if (it.title === title) return it.id;
  }
  return undefined;
}

/** The project's group or one of its ancestors has iterations. */
function hasIterations(state: State, project: Project): boolean {
  const ns = tget(state.namespaces, project.namespaceId);
  if (!ns || ns.kind !== 'group') return false;
  return ancestry(state, ns.id).some((g) => (tget(state.iterations, g.id)?.size ?? 0) > 0);
}

const ISSUE = ['Issue'] as const;
/** The project's namespace, when it is a group (epics and iterations live there). */
const groupOf = (c: CommandContext<IssueTarget>) => {
  const ns = tget(c.state.namespaces, c.target.project.namespaceId);
  return ns && ns.kind === 'group' ? ns : undefined;
};

/** issue_actions.rb and EE's issue actions. */
const commands = [
  defineCommand<IssueTarget, string | null>({
    name: 'due', types: ISSUE,
    condition: (c) => c.facts.canAdmin,
    parse: (c, arg) => chronicDate(arg, c.now),
    run: (c, date) => {
      if (date === undefined) return null;
      if (date === null) return c.shared('Failed to set due date because the date format is invalid.');
      c.u.due_date = date;
      return `Set the due date to ${shortDate(date)}.`;
    },
  }),
  defineCommand<IssueTarget>({
    name: 'remove_due_date', types: ISSUE,
    condition: (c) => c.persisted && c.target.issue.dueDate !== null && c.facts.canAdmin,
    run: (c) => {
      c.u.due_date = null;
      return 'Removed the due date.';
    },
  }),
  defineCommand<IssueTarget>({
    // set_confidentiality: admin_issue, or, on an issue being made, whoever makes it.
    name: 'confidential', types: ISSUE,
    condition: (c) => !c.target.issue.confidential && (c.facts.canAdmin || !c.persisted),
    run: (c) => {
      c.u.confidential = true;
      return c.shared('Made this issue confidential.');
    },
  }),
  defineCommand<IssueTarget, Issue | null>({
    name: 'duplicate', types: ISSUE,
    condition: (c) => c.persisted && c.facts.canAdmin,
    parse: (c, arg) => findIssueRef(c.state, c.target.project, arg, c.opts.webBase ?? null) ?? null,
    run: (c, other) => {
      if (other === undefined) return null;
      const { state, user, now } = c;
      const otherProject = other ? tget(state.projects, other.projectId) : undefined;
      const readable = other && otherProject && canReadIssues(state, user, otherProject, now)
        && issueVisible(state, user, other, seesConfidential(state, user, otherProject, now));
      if (!other || !otherProject || !readable) return c.shared('Failed to mark this Issue as a duplicate because referenced item was not found.');
      if (other.id === c.target.issue.id) return c.shared('Failed to mark the Issue as duplicate of itself.');
      if (!c.facts.canUpdate || !hasProjectRole(state, user, otherProject, ACCESS.guest, now)) {
        return c.shared('Failed to mark this Issue as duplicate due to insufficient permissions.');
      }
      c.u.canonical_issue_id = other.id;
      const path = `${tget(state.namespaces, otherProject.namespaceId)?.fullPath ?? ''}/${otherProject.path}`;
      return c.shared(`Closed this Issue. Marked as related to, and a duplicate of, ${c.opts.webBase ?? ''}/${path}/-/issues/${other.iid}.`);
    },
  }),
  defineCommand<IssueTarget, number>({
    name: 'weight', types: ISSUE, tier: 'premium',
    condition: (c) => c.facts.canAdmin,
    parse: (_c, arg) => Number(/^\s*([+-]?\d+)/.exec(arg)?.[1] ?? 0), // String#to_i
    run: (c, weight) => {
      if (weight === undefined || weight < 0) return null;
      c.u.weight = weight;
      return c.shared(`Set weight to ${weight}.`);
    },
  }),
  defineCommand<IssueTarget>({
    name: 'clear_weight', types: ISSUE, tier: 'premium',
    condition: (c) => c.persisted && c.target.issue.weight !== null && c.target.issue.weight !== 0 && c.facts.canAdmin,
    run: (c) => {
      c.u.weight = null;
      return 'Cleared weight.';
    },
  }),
  defineCommand<IssueTarget, number | null>({
    name: 'iteration', types: ISSUE, tier: 'premium',
    condition: (c) => c.facts.canAdmin && hasIterations(c.state, c.target.project),
    parse: (c, arg) => findIteration(c.state, c.target.project, arg) ?? null,
    run: (c, id) => {
      if (id === undefined) return null;
      if (id === null) return c.shared('Could not apply iteration command. Failed to find the referenced iteration.');
      c.u.iteration = id;
      return c.shared(`Set the iteration to *iteration:${id}.`);
    },
  }),
  defineCommand<IssueTarget, Epic | null>({
    name: 'epic', types: ISSUE, tier: 'premium',
    condition: (c) => !!groupOf(c) && c.facts.canAdmin,
    parse: (c, arg) => findEpicRef(c.state, c.target.project, arg) ?? null,
    run: (c, epic) => {
      if (epic === undefined) return null;
      const { state, user, now, target: { issue, project } } = c;
      const ok = epic && epicForProject(state, project, epic.id) && (!epic.confidential || hasGroupRole(state, user, tget(state.namespaces, epic.groupId)!, ACCESS.planner, now));
      if (!epic || !ok) return c.shared("This epic does not exist or you don't have sufficient permission.");
      if (issue.epicId === epic.id) return c.shared(`Issue #${issue.iid} has already been added to epic &${epic.iid}.`);
      c.u.epic = epic;
      return c.shared('Added an issue to an epic.');
    },
  }),
  defineCommand<IssueTarget>({
    name: 'remove_epic', types: ISSUE, tier: 'premium',
    condition: (c) => c.persisted && !!groupOf(c) && c.facts.canAdmin,
    run: (c) => {
      c.u.epic = null;
      return 'Removed an issue from an epic.';
    },
  }),
  defineCommand<IssueTarget>({
    name: 'promote', types: ISSUE, tier: 'premium',
    condition: (c) => {
      const group = groupOf(c);
      return c.persisted && !c.target.issue.promotedToEpicId && !!group && c.facts.canAdmin && hasGroupRole(c.state, c.user, group, ACCESS.planner, c.now);
    },
    run: (c) => {
      c.u.promote_to_epic = true;
      return c.shared('Promoted issue to an epic.');
    },
  }),
];

export const issueCommands: CommandKind<IssueTarget> = {
  facts: (state, target, user, now) => ({
    noun: 'issue',
    record: target.issue,
    social: socialTarget('Issue', target.issue),
    canUpdate: canUpdateIssue(state, user, target.project, target.issue, now),
    canAdmin: canAdminIssues(state, user, target.project, now),
  }),
  commands,
  updates: (target, user, u, now) => ({ prepare: null, apply: (draft) => applyToIssue(draft, target, user, u, now) }),
};

/** The commands' params as the issue services take them (only those the commands set). */
function issueInputOf(u: Updates, now: number): IssueInput {
  const input: IssueInput = {
    stateEvent: u.state_event, title: u.title, labelIds: u.label_ids, addLabelIds: u.add_label_ids, removeLabelIds: u.remove_label_ids,
    assigneeIds: u.assignee_ids, milestoneId: u.milestone_id, timeEstimate: u.time_estimate, dueDate: u.due_date, confidential: u.confidential,
    discussionLocked: u.discussion_locked, weight: u.weight, iterationId: u.iteration,
    epicId: u.epic === undefined ? undefined : u.epic === null ? null : u.epic.id,
    spend: spentOf(u, now),
  };
  for (const key of Object.keys(input) as (keyof IssueInput)[]) if (input[key] === undefined) delete input[key];
  return input;
}

/** Issues::UpdateService with the quick actions' params: duplicate first, then state, the rest, to-dos, subscriptions, awards, promotion. */
function applyToIssue(draft: Draft<State>, target: IssueTarget, user: User, u: Updates, now: number): void {
  const { project } = target;
  applyDuplicate(draft, target.issue.id, user, u, now);
  const input = issueInputOf(u, now);
  if (Object.keys(input).length > 0) {
    // An update GitLab's validations refuse (a title over 255 characters, more time subtracted
    // than spent) is not saved, and nothing of it is recorded; the note stands.
    let change: ((d: Draft<State>) => Issue) | null = null;
    try {
      change = updateIssue(draft as State, project, issueById(draft as State, target.issue.id)!, user, input, now);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    change?.(draft);
  }
  applyBeside(draft, project, target.issue.id, user, u, now);
}

/** `canonical_issue_id`: Issues::DuplicateService. */
function applyDuplicate(draft: Draft<State>, issueId: number, user: User, u: Updates, now: number): void {
  const canonical = u.canonical_issue_id === undefined ? undefined : issueById(draft as State, u.canonical_issue_id);
  if (canonical) markDuplicate(issueById(draft as State, issueId)!, canonical, user, now)(draft);
}

/** What the update service does with the commands' params beside the issue's fields: to-dos, subscriptions, award emoji, promotion. */
function applyBeside(draft: Draft<State>, project: Project, issueId: number, user: User, u: Updates, now: number): void {
  applySocialUpdates(draft, socialTarget('Issue', issueById(draft as State, issueId)!), user, u, now);
  if (u.promote_to_epic) promoteToEpic(draft, project, issueById(draft as State, issueId)!, user, now);
}

/** The issue a create is making, as the commands of its description see it: unsaved (no id yet), with what the input gives it. */
function unsavedIssue(project: Project, user: User, input: IssueInput, now: number): Issue {
  return {
    id: 0, iid: 0, projectId: project.id, title: input.title ?? '', description: input.description ?? '', state: 'opened', createdAt: now, updatedAt: now,
    closedAt: null, closedById: null, authorId: user.id, assigneeIds: input.assigneeIds ?? [], labelIds: [], milestoneId: input.milestoneId ?? null,
    dueDate: input.dueDate ?? null, confidential: input.confidential ?? false, discussionLocked: input.discussionLocked ?? null,
    issueType: input.issueType ?? 'issue', severity: input.severity ?? 'unknown', movedToId: null, duplicatedToId: null, timeEstimate: 0, totalTimeSpent: 0,
    relativePosition: null, weight: input.weight ?? null, epicId: null, iterationId: null, healthStatus: null,
  };
}

/**
 * IssuableBaseService#handle_quick_actions for an issue's description, on create (`existing`
 * null: the conditions of an issue being made) or on edit (the issue as it is; what the stored
 * description's own commands would do is not done again): the input with the commands that ran
 * taken out of its description and their params merged over the caller's (a new issue takes no
 * `state_event`), and the step to run on the saved issue: on create its time estimate and spent
 * time (with their notes), on edit the duplicate, to-dos, subscriptions, award emoji and
 * promotion. Null when the description has no command to look for.
 */
export function issueDescriptionCommands(
  state: State, project: Project, user: User, input: IssueInput, existing: Issue | null, now: number, webBase: string,
): { input: IssueInput; after: (saved: Issue) => Change<Issue> } | null {
  if (input.description === undefined || !input.description.includes('/')) return null;
  const target: IssueTarget = { type: 'Issue', issue: existing ?? unsavedIssue(project, user, input, now), project };
  const opts = { persisted: existing !== null, original: existing?.description, webBase };
  const { content, updates: u } = interpretDescription(state, target, user, input.description, opts, now);
  const { timeEstimate, spend, stateEvent, ...fields } = issueInputOf(u, now);
  const merged: IssueInput = { ...input, description: content, ...fields };
  if (existing) Object.assign(merged, timeEstimate === undefined ? {} : { timeEstimate }, spend === undefined ? {} : { spend }, stateEvent === undefined ? {} : { stateEvent });
  const after = (saved: Issue): Change<Issue> => (draft) => {
    if (existing) {
      applyDuplicate(draft, saved.id, user, u, now);
      applyBeside(draft, project, saved.id, user, u, now);
      return plain(issueById(draft as State, saved.id)!);
    }
    let out = saved;
    if (timeEstimate !== undefined) out = setEstimate(out, user, timeEstimate, now)(draft);
    const seconds = spend?.seconds;
    if (typeof seconds === 'number' && out.totalTimeSpent + seconds >= 0) out = spendTime(out, user, seconds, now)(draft);
    return out;
  };
  return { input: merged, after };
}

/** Epics::IssuePromoteService: an epic of the project's group with the issue's title, description and labels; the issue closed, with notes on both. */
function promoteToEpic(draft: Draft<State>, project: Project, issue: Issue, user: User, now: number): void {
  const ns = tget(draft.namespaces, project.namespaceId) as Namespace | undefined;
  if (!ns || ns.kind !== 'group') return;
  const titles = issue.labelIds.map((id) => tget(draft.labels, id)?.title).filter((t): t is string => !!t);
  const epic = createEpic(draft, ns, user, { title: issue.title, description: issue.description, labels: titles }, now);
  const closed: Issue = issue.state === 'opened' ? { ...issue, state: 'closed', closedAt: now, closedById: user.id, updatedAt: now, promotedToEpicId: epic.id } : { ...issue, promotedToEpicId: epic.id, updatedAt: now };
  putIssue(draft, closed);
  if (issue.state === 'opened') recordEvent(draft, 'state', { type: 'Issue', id: issue.id }, user.id, now, { state: 'closed', sourceCommit: null, sourceMergeRequestId: null });
  recordLabelChange(draft, { type: 'Epic', id: epic.id }, user.id, [], epic.labelIds, now);
  systemNote(draft, 'Issue', issue, user.id, `promoted to epic &${epic.iid}`, now);
  addNote(draft as State, noteKey('Epic', epic.id), {
    noteableType: 'Epic', noteableId: epic.id, commitId: null, projectId: null, authorId: user.id,
    body: `promoted from issue ${issueReference(draft as State, -1, issue)}`, system: true, internal: false, createdAt: now, updatedAt: now,
  });
}
