// Quick actions in a note (QuickActions::InterpretService with lib/gitlab/quick_actions/
// issuable_actions.rb, issue_actions.rb, issue_and_merge_request_actions.rb,
// merge_request_actions.rb and EE's issue actions; Notes::QuickActionsService). Every known
// command line is taken out of the body and counted; each runs only when its condition holds
// for the noteable as it was before the note (the caller's permissions, its state), else its
// message is `Could not apply <name> command.`. What ran becomes GitLab's update params
// (`commands_changes`), applied afterwards as the update services apply them.
import { approvedBy, approveMergeRequest, canApprove, unapproveMergeRequest } from './approvals.js';
import type { Draft } from 'immer';
import { ApiError } from '../../core/errors.js';
import type { Namespace, Project, User } from '../../store/state.js';
import { ACCESS } from '../../store/state.js';
import { ancestry, hasGroupRole, hasProjectRole, isWithin, today } from '../../policy/access.js';
import { addNote, noteKey } from '../../store/notes.js';
import { pget, pset, tget, tvalues } from '../../store/table.js';
import { ownMilestones } from '../milestones/index.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import type { State } from '../world.js';
import { castDateLike } from './dates.js';
import { formatDuration, parseDuration } from './duration.js';
import { createEpic, epicByIid, epicById, epicForProject, iterationById } from './epics.js';
import { recordEvent, recordLabelChange } from './events.js';
import { canReadIssues, issueMilestone, issueVisible, seesConfidential } from './finder.js';
import { labelById, labelByTitle, projectLabelOwners, groupLabelOwners, ownLabels, type LabelOwner, type Label } from '../labels/index.js';
import { issueReference } from './links.js';
import { acceptMergeRequest, canMerge } from './merge.js';
import { canUpdateMergeRequest, discussionsResolved, editMergeRequest } from './merge-requests.js';
import { milestoneIdByTitle, scanCommands } from './quick-actions.js';
import type { Epic, Issue, MergeRequest } from './records.js';
import {
  canAdminIssues, canUpdateIssue, markDuplicate, updateIssue,
  type IssueInput,
} from './rules.js';
import { issueById, issueByIid, putIssue } from './store.js';
import { draftlessTitle, isDraftTitle, systemNote, titleChangeBody as titleBody, toSentence, type SpentChange } from './system-notes.js';
import { applySocialUpdates, isSubscribed, pendingTodoId, socialTarget } from './social.js';
import { objectsOf } from '../repositories/index.js';

export type NoteTarget =
  | { type: 'Issue'; issue: Issue; project: Project }
  | { type: 'MergeRequest'; mr: MergeRequest; project: Project }
  | { type: 'Epic'; epic: Epic; group: Namespace };

/** What the git side of a command needs: a route's context (or, in tests, the emulator's object database and world). */
export type GitAccess = Parameters<typeof objectsOf>[0] & { state: State };

export interface NoteCommands {
  /** The body without the command lines that were recognised (GitLab's `content`); '' when the body was commands only. */
  content: string;
  /** How many commands were recognised and run (`commands_executed_count`). */
  executed: number;
  /** GitLab's update_params as the note's `commands_changes` renders them, in GitLab's key order. */
  changes: Record<string, unknown>;
  /**
   * The messages of the commands, in order (GitLab joins them with a space into the one string
   * of the 202 answer's `summary`); a command that could not run says `Could not apply <name>
   * command.`; empty when no command produced a message (then GitLab answers `Failed to apply commands.`).
   */
  messages: string[];
  /**
   * Applies the updates to the noteable (Issues::UpdateService and friends, with their system
   * notes, resource events, to-dos and subscriptions), given the saved note's id (null when the
   * note is commands only and not saved); sets `changes.spend_time.note_id` as GitLab does.
   * null when nothing to apply.
   */
  apply: ((draft: Draft<State>, noteId: number | null) => void) | null;
  /**
   * Work to await before `apply` (the git side of `/merge`: the merge commit); null when none.
   * A merge that cannot happen (conflict, moved branch) leaves the merge request open, as
   * GitLab's asynchronous merge does.
   */
  prepare?: ((ctx: GitAccess) => Promise<void>) | null;
}

/** The commands this emulator knows, with their aliases: names GitLab's extractor takes out of a note. */
const ALIASES: Record<string, string> = {
  close: 'close', reopen: 'reopen', title: 'title', label: 'label', labels: 'label', unlabel: 'unlabel', remove_label: 'unlabel', relabel: 'relabel',
  assign: 'assign', unassign: 'unassign', milestone: 'milestone', remove_milestone: 'remove_milestone', estimate: 'estimate', estimate_time: 'estimate',
  remove_estimate: 'remove_estimate', remove_time_estimate: 'remove_estimate', spend: 'spend', spent: 'spend', spend_time: 'spend',
  remove_time_spent: 'remove_time_spent', due: 'due', remove_due_date: 'remove_due_date', confidential: 'confidential', lock: 'lock', unlock: 'unlock',
  todo: 'todo', done: 'done', subscribe: 'subscribe', unsubscribe: 'unsubscribe', award: 'award', react: 'award', duplicate: 'duplicate', merge: 'merge', draft: 'draft',
  approve: 'approve', unapprove: 'unapprove',
};
/** EE's commands (the higher tiers): on the free tier they are not commands and stay in the text. */
const EE_ALIASES: Record<string, string> = {
  weight: 'weight', clear_weight: 'clear_weight', iteration: 'iteration', epic: 'epic', remove_epic: 'remove_epic', promote: 'promote',
};

/** Note#commands_changes: the update params it shows, in its order. */
const CHANGE_KEYS = [
  'due_date', 'label_ids', 'remove_label_ids', 'add_label_ids', 'canonical_issue_id', 'clone_with_notes', 'confidential', 'create_merge_request', 'add_contacts',
  'remove_contacts', 'assignee_ids', 'milestone_id', 'time_estimate', 'spend_time', 'discussion_locked', 'merge', 'rebase', 'wip_event', 'target_branch',
  'reviewer_ids', 'health_status', 'promote_to_epic', 'weight', 'emoji_award', 'todo_event', 'subscription_event', 'state_event', 'title', 'tag_message', 'tag_name',
];

interface Updates {
  state_event?: 'close' | 'reopen';
  title?: string;
  label_ids?: number[];
  add_label_ids?: number[];
  remove_label_ids?: number[];
  assignee_ids?: number[];
  milestone_id?: number | null;
  time_estimate?: number;
  spend_time?: { duration: number | 'reset'; user_id: number; spent_at?: string | null; category?: string | null; note_id?: number | null };
  due_date?: string | null;
  confidential?: boolean;
  discussion_locked?: boolean;
  todo_event?: 'add' | 'done';
  subscription_event?: 'subscribe' | 'unsubscribe';
  emoji_award?: string;
  canonical_issue_id?: number;
  weight?: number | null;
  promote_to_epic?: boolean;
  merge?: string | null;
  wip_event?: 'wip' | 'unwip';
  /** Not among commands_changes (GitLab's `epic` and `iteration` params; `/approve` and `/unapprove` run their services). */
  epic?: Epic | null;
  iteration?: number | null;
  approval?: 'approve' | 'unapprove';
}

/** The commands whose message is `@execution_message[name]`: a later command of the name sets it for every one. */
const SHARED_MESSAGE = new Set(['label', 'unlabel', 'relabel', 'duplicate', 'weight', 'epic', 'promote', 'confidential', 'iteration']);

const NOUN = { Issue: 'issue', MergeRequest: 'merge request', Epic: 'epic' } as const;

/** Label#to_reference(format: :name): `~"name"` (`~<id>` when the name holds a double quote). */
const labelRef = (l: Label) => (l.title.includes('"') ? `~${l.id}` : `~"${l.title}"`);
const milestoneRef = (title: string) => (title.includes('"') ? `%${title}` : `%"${title}"`);
const plural = (word: string, n: number) => (n === 1 ? word : `${word}s`);

/** The labels a noteable may carry: its project's and its groups', or an epic's group's and ancestors'. */
function labelOwners(state: State, target: NoteTarget): LabelOwner[] {
  return target.type === 'Epic' ? groupLabelOwners(state, target.group) : projectLabelOwners(state, target.project);
}

/** find_labels: `~name`, `~"two words"`, `~<id>` references, or bare names when no `~` is written; unknown ones dropped. */
function findLabels(state: State, owners: LabelOwner[], arg: string): Label[] {
  const out: Label[] = [];
  const add = (l: Label | undefined) => {
    if (l && !out.some((x) => x.id === l.id)) out.push(l);
  };
  const byTitle = (title: string) => {
    for (const o of owners) {
      const l = labelByTitle(state, o, title);
      if (l) return l;
    }
    return undefined;
  };
  if (arg.includes('~')) {
    for (const m of arg.matchAll(/~"([^"]+)"|~(\d+)(?![\w])|~([A-Za-z0-9_\-?.&]+)/g)) {
      if (m[2] !== undefined) {
        const l = labelById(state, Number(m[2]));
        const ownerOk = l && owners.some((o) => ('projectId' in o ? l.projectId === o.projectId : l.groupId === o.groupId));
        add(ownerOk ? l : undefined);
      } else add(byTitle(m[1] ?? m[3]!));
    }
  } else for (const m of arg.matchAll(/"([^"]+)"|([^ ]+)/g)) add(byTitle(m[1] ?? m[2]!));
  return out;
}

function anyLabel(state: State, owners: LabelOwner[]): boolean {
  return owners.some((o) => ownLabels(state, o).length > 0);
}

/** UsersExtractor: `@name`, `name`, `me`, split on spaces and commas, `and` dropped; a name not found fails the command. */
function extractUsers(state: State, me: User, arg: string): { users: User[]; missing: string[] } {
  const args = [...new Set(arg.split(/\s|,/).map((a) => a.trim()).filter((a) => a !== ''))].filter((a) => a !== 'and');
  const users: User[] = [];
  const missing: string[] = [];
  if (args.includes('me')) users.push(me);
  for (const ref of args.filter((a) => a !== 'me').map((a) => a.replace(/\\_/g, '_'))) {
    const id = tget(state.usernames, ref.replace(/^@/, '').toLowerCase());
    const u = id === undefined ? undefined : tget(state.users, id);
    if (u) {
      if (!users.some((x) => x.id === u.id)) users.push(u);
    } else missing.push(`'${ref}'`);
  }
  return { users, missing };
}

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** strftime('%b %-d, %Y'). */
function shortDate(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return `${MONTHS_SHORT[m! - 1]} ${d}, ${y}`;
}

/** Chronic.parse(...).to_date for what clients write: a date, `today`, `tomorrow`, `yesterday`, `in N days`. */
function parseDueDate(arg: string, now: number): string | null {
  const a = arg.trim().toLowerCase();
  const day = 86_400_000;
  if (a === 'today') return today(now);
  if (a === 'tomorrow') return today(now + day);
  if (a === 'yesterday') return today(now - day);
  const m = /^in (\d+) (day|days|week|weeks)$/.exec(a);
  if (m) return today(now + Number(m[1]) * (m[2]!.startsWith('week') ? 7 : 1) * day);
  return castDateLike(a);
}

const SPEND_DATE = /(\d{2,4}[/\-.]\d{1,2}[/\-.]\d{1,2})/;
const SPEND_CATEGORY = /\[timecategory:(.*)\]/;

/**
 * SpendTimeAndDateSeparator: the time, a date anywhere in the argument (`2024-01-02`,
 * `2024/1/2`, `24.1.2`; not in the future) and `[timecategory:name]`; null when it cannot be read.
 */
function parseSpend(arg: string, now: number): { seconds: number; date: string | null; category: string | null } | null {
  if (arg.trim() === '') return null;
  const d = SPEND_DATE.exec(arg);
  let date: string | null = null;
  if (d) {
    const [y, mo, da] = d[1]!.split(/[/\-.]/) as [string, string, string];
    date = castDateLike(`${y.length === 2 ? `20${y}` : y.padStart(4, '0')}-${mo}-${da}`);
    if (date === null || date > today(now)) return null;
  }
  const seconds = parseDuration(arg.replace(new RegExp(SPEND_DATE, 'g'), '').replace(new RegExp(SPEND_CATEGORY, 'g'), ''));
  return seconds === null ? null : { seconds, date, category: SPEND_CATEGORY.exec(arg)?.[1] ?? null };
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

/** `find_milestones(container, state: 'active').any?`. */
function hasActiveMilestone(state: State, project: Project): boolean {
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  const ns = tget(state.namespaces, project.namespaceId);
  if (ns && ns.kind === 'group') {
    let g: Namespace | undefined = ns;
    while (g) {
      owners.push({ groupId: g.id });
      g = g.parentId === null ? undefined : tget(state.namespaces, g.parentId);
    }
  }
  return owners.some((o) => ownMilestones(state, o).some((m) => m.state === 'active'));
}

/** `%"title"`, `%title`, `%<iid>` of the project's milestones, or a title. */
function findMilestone(state: State, project: Project, arg: string): { id: number; title: string } | undefined {
  const m = /^%(?:"([^"]+)"|(\d+)$|(\S+))/.exec(arg.trim());
  if (m && m[2] !== undefined) {
    const found = ownMilestones(state, { projectId: project.id }).find((x) => x.iid === Number(m[2]));
    if (found) return { id: found.id, title: found.title };
  }
  const title = m ? m[1] ?? m[2] ?? m[3]! : arg.trim();
  const id = milestoneIdByTitle(state, project, title);
  const found = id === null ? undefined : issueMilestone(state, project, id);
  return found ? { id: found.id, title: found.title } : undefined;
}

/** A command's outcome: unavailable (condition false), or the message it leaves (null for none). */
type Outcome = { available: false } | { available: true; message: string | null };

/**
 * Interprets the quick actions of a note's body for its noteable. Pure: the world is read, not
 * changed; `apply` makes the changes.
 */
export function interpretNoteCommands(state: State, target: NoteTarget, user: User, body: string, opts: { mergeRequestDiffHeadSha?: string; webBase?: string }, now: number): NoteCommands {
  const premium = state.instance.tier !== 'free';
  const nameOf = (cmd: string) => ALIASES[cmd] ?? (premium ? EE_ALIASES[cmd] : undefined);
  if (target.type === 'Epic' && !premium) return { content: body, executed: 0, changes: {}, messages: [], apply: null, prepare: null };
  const { content, commands } = scanCommands(body, (n) => nameOf(n) !== undefined);
  // As GitLab's extractor, the text comes back without carriage returns and right-trimmed, commands or not.
  if (commands.length === 0) return { content, executed: 0, changes: {}, messages: [], apply: null, prepare: null };

  const u: Updates = {};
  const lastMessage = new Map<string, string | null>();
  const outcomes: { name: string; outcome: Outcome }[] = [];
  const noun = NOUN[target.type];
  const project = target.type === 'Epic' ? null : target.project;
  const issue = target.type === 'Issue' ? target.issue : null;
  const mr = target.type === 'MergeRequest' ? target.mr : null;
  const epic = target.type === 'Epic' ? target.epic : null;
  // What award emoji, subscriptions and to-dos hang on: the issue or the merge request (an epic takes none here).
  const social = issue ? socialTarget('Issue', issue) : mr ? socialTarget('MergeRequest', mr) : null;
  const isOpen = issue ? issue.state === 'opened' : mr ? mr.state === 'opened' : epic!.state === 'opened';
  const isClosed = issue ? issue.state === 'closed' : mr ? mr.state === 'closed' : epic!.state === 'closed';
  const labelIds = issue?.labelIds ?? mr?.labelIds ?? epic!.labelIds;
  const assigneeIds = issue?.assigneeIds ?? mr?.assigneeIds ?? [];
  // update_<noteable> and set_<noteable>_metadata / admin_<noteable>.
  let canUpdate: boolean;
  let canAdmin: boolean;
  if (target.type === 'Issue') {
    canUpdate = canUpdateIssue(state, user, target.project, target.issue, now);
    canAdmin = canAdminIssues(state, user, target.project, now);
  } else if (target.type === 'MergeRequest') {
    canUpdate = canUpdateMergeRequest(state, user, target.project, target.mr, now);
    canAdmin = !target.project.archived && hasRole(state, user, target.project, ACCESS.developer, now);
  } else {
    canAdmin = hasGroupRole(state, user, target.group, ACCESS.planner, now);
    canUpdate = canAdmin || target.epic.authorId === user.id;
  }
  const multipleAssignees = premium;
  const owners = labelOwners(state, target);
  const ref = (x: User) => `@${x.username}`;

  const run = (name: string, arg: string): Outcome => {
    switch (name) {
      case 'close':
        if (!(isOpen && canUpdate)) return { available: false };
        u.state_event = 'close';
        return { available: true, message: `Closed this ${noun}.` };
      case 'reopen':
        if (!(isClosed && canUpdate)) return { available: false };
        u.state_event = 'reopen';
        return { available: true, message: `Reopened this ${noun}.` };
      case 'title':
        if (!canUpdate) return { available: false };
        if (arg === '') return { available: true, message: null };
        u.title = arg;
        return { available: true, message: `Changed the title to "${arg}".` };
      case 'label': {
        if (!(canAdmin && anyLabel(state, owners))) return { available: false };
        if (arg === '') return { available: true, message: null };
        const labels = findLabels(state, owners, arg);
        if (!labels.length) return { available: true, message: lastMessage.get('label') ?? null };
        u.add_label_ids = [...new Set([...(u.add_label_ids ?? []), ...labels.map((l) => l.id)])];
        return { available: true, message: `Added ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.` };
      }
      case 'unlabel': {
        if (!(labelIds.length > 0 && canAdmin)) return { available: false };
        if (arg === '') {
          u.label_ids = [];
          return { available: true, message: 'Removed all labels.' };
        }
        const labels = findLabels(state, owners, arg);
        if (labels.length) u.remove_label_ids = [...new Set([...(u.remove_label_ids ?? []), ...labels.map((l) => l.id)])];
        return { available: true, message: labels.length ? `Removed ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.` : 'Removed all labels.' };
      }
      case 'relabel': {
        if (!(labelIds.length > 0 && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const labels = findLabels(state, owners, arg);
        if (!labels.length) return { available: true, message: lastMessage.get('relabel') ?? null };
        u.label_ids = [...new Set([...(u.label_ids ?? []), ...labels.map((l) => l.id)])];
        return { available: true, message: `Replaced all labels with ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.` };
      }
      case 'assign': {
        if (!(project && canAdmin)) return { available: false };
        // Its message block takes an optional argument (arity 0), so it speaks even with none.
        if (arg === '') return { available: true, message: 'Failed to assign a user because no user was found.' };
        const { users, missing } = extractUsers(state, user, arg);
        if (missing.length) return { available: true, message: `Failed to find users for ${toSentence(missing)}` };
        if (!users.length) return { available: true, message: 'Failed to assign a user because no user was found.' };
        const shown = multipleAssignees ? users : [users[0]!];
        if (multipleAssignees) u.assignee_ids = [...new Set([...(u.assignee_ids ?? assigneeIds), ...users.map((x) => x.id)])];
        else u.assignee_ids = [users[0]!.id];
        return { available: true, message: `Assigned ${toSentence(shown.map(ref))}.` };
      }
      case 'unassign': {
        if (!(project && assigneeIds.length > 0 && canAdmin)) return { available: false };
        let users: User[] = [];
        if (multipleAssignees && arg !== '') {
          const found = extractUsers(state, user, arg);
          if (found.missing.length) return { available: true, message: `Failed to find users for ${toSentence(found.missing)}` };
          users = found.users;
        }
        if (multipleAssignees && users.length) u.assignee_ids = (u.assignee_ids ?? assigneeIds).filter((id) => !users.some((x) => x.id === id));
        else u.assignee_ids = [];
        const removed = users.length ? users : assigneeIds.map((id) => tget(state.users, id)).filter((x): x is User => !!x);
        return { available: true, message: `Removed ${plural('assignee', removed.length)} ${toSentence(removed.map(ref))}.` };
      }
      case 'milestone': {
        if (!(project && canAdmin && hasActiveMilestone(state, project))) return { available: false };
        if (arg === '') return { available: true, message: null };
        const m = findMilestone(state, project, arg);
        if (!m) return { available: true, message: null };
        u.milestone_id = m.id;
        return { available: true, message: `Set the milestone to ${milestoneRef(m.title)}.` };
      }
      case 'remove_milestone': {
        const current = issue?.milestoneId ?? mr?.milestoneId ?? null;
        if (!(project && current !== null && canAdmin)) return { available: false };
        u.milestone_id = null;
        const m = issueMilestone(state, project, current);
        return { available: true, message: `Removed ${milestoneRef(m?.title ?? '')} milestone.` };
      }
      case 'estimate': {
        if (!(project && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const seconds = parseDuration(arg, true);
        if (seconds === null) return { available: true, message: null };
        u.time_estimate = seconds;
        if (seconds === 0) return { available: true, message: 'Removed time estimate.' };
        const text = formatDuration(seconds);
        return { available: true, message: text === null ? null : `Set time estimate to ${text}.` };
      }
      case 'remove_estimate':
        if (!(project && canAdmin)) return { available: false };
        u.time_estimate = 0;
        return { available: true, message: 'Removed time estimate.' };
      case 'spend': {
        if (!(project && canAdmin)) return { available: false };
        const spend = parseSpend(arg, now);
        if (!spend) return { available: true, message: null };
        u.spend_time = { duration: spend.seconds, user_id: user.id, spent_at: spend.date ?? new Date(now).toISOString(), category: spend.category };
        return { available: true, message: `${spend.seconds > 0 ? 'Added' : 'Subtracted'} ${formatDuration(Math.abs(spend.seconds))} spent time.` };
      }
      case 'remove_time_spent':
        if (!(project && canAdmin)) return { available: false };
        u.spend_time = { duration: 'reset', user_id: user.id };
        return { available: true, message: 'Removed spent time.' };
      case 'due': {
        if (!(issue && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const date = parseDueDate(arg, now);
        if (date === null) return { available: true, message: 'Failed to set due date because the date format is invalid.' };
        u.due_date = date;
        return { available: true, message: `Set the due date to ${shortDate(date)}.` };
      }
      case 'remove_due_date':
        if (!(issue && issue.dueDate !== null && canAdmin)) return { available: false };
        u.due_date = null;
        return { available: true, message: 'Removed the due date.' };
      case 'confidential':
        if (!(issue && !issue.confidential && canAdmin)) return { available: false };
        u.confidential = true;
        return { available: true, message: 'Made this issue confidential.' };
      case 'lock':
        if (!(project && !(issue ?? mr)!.discussionLocked && canAdmin)) return { available: false };
        u.discussion_locked = true;
        return { available: true, message: 'Locked the discussion.' };
      case 'unlock':
        if (!(project && (issue ?? mr)!.discussionLocked && canAdmin)) return { available: false };
        u.discussion_locked = false;
        return { available: true, message: 'Unlocked the discussion.' };
      case 'todo':
        if (!(social && pendingTodoId(state, social, user) === undefined)) return { available: false };
        u.todo_event = 'add';
        return { available: true, message: 'Added a to-do item.' };
      case 'done':
        if (!(social && pendingTodoId(state, social, user) !== undefined)) return { available: false };
        u.todo_event = 'done';
        return { available: true, message: 'Marked to-do item as done.' };
      case 'subscribe':
        if (!(social && !isSubscribed(state, social, user))) return { available: false };
        u.subscription_event = 'subscribe';
        return { available: true, message: 'Subscribed to notifications.' };
      case 'unsubscribe':
        if (!(social && isSubscribed(state, social, user))) return { available: false };
        u.subscription_event = 'unsubscribe';
        return { available: true, message: 'Unsubscribed from notifications.' };
      case 'award': {
        if (!social) return { available: false };
        const m = /:([a-z0-9_+-]+):/.exec(arg);
        if (!m) return { available: true, message: null };
        u.emoji_award = m[1]!;
        return { available: true, message: `Toggled :${m[1]}: emoji reaction.` };
      }
      case 'duplicate': {
        if (!(issue && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const other = findIssueRef(state, project!, arg, opts.webBase ?? null);
        const otherProject = other ? tget(state.projects, other.projectId) : undefined;
        const readable = other && otherProject && canReadIssues(state, user, otherProject, now)
          && issueVisible(state, user, other, seesConfidential(state, user, otherProject, now));
        if (!other || !readable) return { available: true, message: 'Failed to mark this Issue as a duplicate because referenced item was not found.' };
        if (other.id === issue.id) return { available: true, message: 'Failed to mark the Issue as duplicate of itself.' };
        if (!canUpdate || !hasRole(state, user, otherProject!, ACCESS.guest, now)) {
          return { available: true, message: 'Failed to mark this Issue as duplicate due to insufficient permissions.' };
        }
        u.canonical_issue_id = other.id;
        const path = `${tget(state.namespaces, otherProject!.namespaceId)?.fullPath ?? ''}/${otherProject!.path}`;
        return { available: true, message: `Closed this Issue. Marked as related to, and a duplicate of, ${opts.webBase ?? ''}/${path}/-/issues/${other.iid}.` };
      }
      case 'merge': {
        if (!(mr && mr.state === 'opened' && !mr.draft && discussionsResolved(state, project!, mr) && canMerge(state, user, project!, mr.targetBranch, now))) return { available: false };
        u.merge = opts.mergeRequestDiffHeadSha ?? null;
        return { available: true, message: 'Merged this merge request.' };
      }
      case 'approve':
        if (!(mr && mr.state !== 'merged' && canApprove(state, user, project!, mr, now))) return { available: false };
        u.approval = 'approve';
        return { available: true, message: 'Approved the current merge request.' };
      case 'unapprove':
        if (!(mr && mr.state !== 'merged' && approvedBy(state, mr, user))) return { available: false };
        u.approval = 'unapprove';
        return { available: true, message: 'Unapproved the current merge request.' };
      case 'draft':
        if (!(mr && canUpdate)) return { available: false };
        u.wip_event = mr.draft ? 'unwip' : 'wip';
        return { available: true, message: mr.draft ? 'Unmarked this merge request as a draft.' : 'Marked this merge request as a draft.' };
      case 'weight': {
        if (!(issue && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const n = /^\s*([+-]?\d+)/.exec(arg);
        const w = n ? Number(n[1]) : 0; // String#to_i
        if (w < 0) return { available: true, message: null };
        u.weight = w;
        return { available: true, message: `Set weight to ${w}.` };
      }
      case 'clear_weight':
        if (!(issue && issue.weight !== null && issue.weight !== 0 && canAdmin)) return { available: false };
        u.weight = null;
        return { available: true, message: 'Cleared weight.' };
      case 'iteration': {
        if (!(issue && canAdmin && hasIterations(state, project!))) return { available: false };
        if (arg === '') return { available: true, message: null };
        const id = findIteration(state, project!, arg);
        if (id === undefined) return { available: true, message: 'Could not apply iteration command. Failed to find the referenced iteration.' };
        u.iteration = id;
        return { available: true, message: `Set the iteration to *iteration:${id}.` };
      }
      case 'epic': {
        const ns = project ? tget(state.namespaces, project.namespaceId) : undefined;
        if (!(issue && ns && ns.kind === 'group' && canAdmin)) return { available: false };
        if (arg === '') return { available: true, message: null };
        const found = findEpicRef(state, project!, arg);
        const ok = found && epicForProject(state, project!, found.id) && (!found.confidential || hasGroupRole(state, user, tget(state.namespaces, found.groupId)!, ACCESS.planner, now));
        if (!found || !ok) return { available: true, message: "This epic does not exist or you don't have sufficient permission." };
        if (issue.epicId === found.id) return { available: true, message: `Issue #${issue.iid} has already been added to epic &${found.iid}.` };
        u.epic = found;
        return { available: true, message: 'Added an issue to an epic.' };
      }
      case 'remove_epic': {
        const ns = project ? tget(state.namespaces, project.namespaceId) : undefined;
        if (!(issue && ns && ns.kind === 'group' && canAdmin)) return { available: false };
        u.epic = null;
        return { available: true, message: 'Removed an issue from an epic.' };
      }
      case 'promote': {
        const ns = project ? tget(state.namespaces, project.namespaceId) : undefined;
        const promotable = issue && !issue.promotedToEpicId && ns && ns.kind === 'group' && canAdmin && hasGroupRole(state, user, ns, ACCESS.planner, now);
        if (!promotable) return { available: false };
        u.promote_to_epic = true;
        return { available: true, message: 'Promoted issue to an epic.' };
      }
      default:
        return { available: false };
    }
  };

  for (const c of commands) {
    const name = nameOf(c.name)!;
    const outcome = run(name, c.arg);
    outcomes.push({ name, outcome });
    const own = name === 'due' ? outcome.available && outcome.message?.startsWith('Failed') : SHARED_MESSAGE.has(name);
    if (own && outcome.available && outcome.message !== null) lastMessage.set(name, outcome.message);
  }
  // execution_messages_for: a command's message is the last one its name set, else its own.
  const messages: string[] = [];
  for (const { name, outcome } of outcomes) {
    const text = outcome.available ? lastMessage.get(name) ?? outcome.message : `Could not apply ${name} command.`;
    if (text) messages.push(text);
  }

  const changes: Record<string, unknown> = {};
  const record = u as Record<string, unknown>;
  for (const key of CHANGE_KEYS) if (record[key] !== undefined) changes[key] = record[key];
  const anything = Object.keys(u).length > 0;
  if (!anything) return { content, executed: commands.length, changes, messages, apply: null, prepare: null };

  let mergeRecipe: ((draft: Draft<State>) => MergeRequest) | null = null;
  const prepare = mr && u.merge !== undefined && u.merge === mr.sha
    ? async (ctx: GitAccess) => {
      try {
        mergeRecipe = await acceptMergeRequest(ctx.state, objectsOf(ctx, project!), project!, mr, user, { sha: u.merge ?? undefined }, now);
      } catch {
        mergeRecipe = null; // MergeService's failures leave the merge request as it is
      }
    }
    : null;

  const apply = (draft: Draft<State>, noteId: number | null) => {
    if (u.spend_time) u.spend_time.note_id = noteId;
    if (target.type === 'Issue') applyToIssue(draft, target, user, u, now);
    else if (target.type === 'MergeRequest') {
      applyToMergeRequest(draft, target, user, u, now);
      if (mergeRecipe) mergeRecipe(draft);
    } else applyToEpic(draft, target, user, u, now);
  };
  return { content, executed: commands.length, changes, messages, apply, prepare };
}

const hasRole = (state: State, user: User, project: Project, level: number, now: number) => hasProjectRole(state, user, project, level, now);

function spentOf(u: Updates, now: number): SpentChange | undefined {
  if (!u.spend_time) return undefined;
  const d = u.spend_time.duration;
  const at = typeof u.spend_time.spent_at === 'string' && u.spend_time.spent_at.length === 10 ? u.spend_time.spent_at : null;
  return { seconds: d, spentAt: at, today: today(now) };
}

/** Issues::UpdateService with the quick actions' params: duplicate first, then state, the rest, to-dos, subscriptions, awards, promotion. */
function applyToIssue(draft: Draft<State>, target: Extract<NoteTarget, { type: 'Issue' }>, user: User, u: Updates, now: number): void {
  const { project } = target;
  const current = () => issueById(draft as State, target.issue.id)!;
  if (u.canonical_issue_id !== undefined) {
    const canonical = issueById(draft as State, u.canonical_issue_id);
    if (canonical) markDuplicate(current(), canonical, user, now)(draft);
  }
  const input: IssueInput = {
    stateEvent: u.state_event, title: u.title, labelIds: u.label_ids, addLabelIds: u.add_label_ids, removeLabelIds: u.remove_label_ids,
    assigneeIds: u.assignee_ids, milestoneId: u.milestone_id, timeEstimate: u.time_estimate, dueDate: u.due_date, confidential: u.confidential,
    discussionLocked: u.discussion_locked, weight: u.weight, iterationId: u.iteration,
    epicId: u.epic === undefined ? undefined : u.epic === null ? null : u.epic.id,
    spend: spentOf(u, now),
  };
  if (Object.values(input).some((v) => v !== undefined)) {
    // An update GitLab's validations refuse (a title over 255 characters, more time subtracted
    // than spent) is not saved, and nothing of it is recorded; the note stands.
    let change: ((d: Draft<State>) => Issue) | null = null;
    try {
      change = updateIssue(draft as State, project, current(), user, input, now);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    change?.(draft);
  }
  applySocialUpdates(draft, socialTarget('Issue', current()), user, u, now);
  if (u.promote_to_epic) promoteToEpic(draft, project, current(), user, now);
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

/** MergeRequests::UpdateService with the quick actions' params, then to-dos, subscriptions and awards. */
function applyToMergeRequest(draft: Draft<State>, target: Extract<NoteTarget, { type: 'MergeRequest' }>, user: User, u: Updates, now: number): void {
  const { project } = target;
  const before = pget(draft.mergeRequests, project.id, target.mr.iid) as MergeRequest | undefined;
  if (!before) return;
  let labelIds = before.labelIds;
  if (u.label_ids !== undefined) labelIds = [...u.label_ids];
  if (u.add_label_ids) labelIds = [...new Set([...labelIds, ...u.add_label_ids])];
  if (u.remove_label_ids) labelIds = labelIds.filter((id) => !u.remove_label_ids!.includes(id));
  const fields: Partial<MergeRequest> = {
    labelIds,
    assigneeIds: u.assignee_ids ?? before.assigneeIds,
    milestoneId: u.milestone_id !== undefined ? u.milestone_id : before.milestoneId,
    timeEstimate: u.time_estimate ?? before.timeEstimate,
    ...(u.discussion_locked !== undefined ? { discussionLocked: u.discussion_locked } : {}),
  };
  // wip_event: `Draft: ` put before the title, or every draft prefix taken off it.
  if (u.title !== undefined || u.wip_event !== undefined) {
    let title = u.title ?? before.title;
    if (u.wip_event === 'wip' && !isDraftTitle(title)) title = `Draft: ${title}`;
    if (u.wip_event === 'unwip') title = draftlessTitle(title);
    fields.title = title;
  }
  const spent = spentOf(u, now);
  if (spent) fields.totalTimeSpent = spent.seconds === 'reset' ? 0 : Math.max(0, before.totalTimeSpent + spent.seconds);
  if (u.state_event === 'close' && before.state === 'opened') Object.assign(fields, { state: 'closed', closedAt: now, closedById: user.id });
  if (u.state_event === 'reopen' && before.state === 'closed') Object.assign(fields, { state: 'opened', closedAt: null, closedById: null });
  editMergeRequest(project, before, user, fields, now, spent)(draft);
  applySocialUpdates(draft, socialTarget('MergeRequest', before), user, u, now);
  const current = pget(draft.mergeRequests, project.id, before.iid) as MergeRequest;
  if (u.approval === 'approve') approveMergeRequest(draft as State, project, current, user, now)?.(draft);
  if (u.approval === 'unapprove') unapproveMergeRequest(draft as State, current, user, now)?.(draft);
}

/** Epics::UpdateService with the quick actions' params: state, title and labels (events and notes on the epic). */
function applyToEpic(draft: Draft<State>, target: Extract<NoteTarget, { type: 'Epic' }>, user: User, u: Updates, now: number): void {
  const before = epicById(draft as State, target.epic.id);
  if (!before) return;
  let labelIds = before.labelIds;
  if (u.label_ids !== undefined) labelIds = [...u.label_ids];
  if (u.add_label_ids) labelIds = [...new Set([...labelIds, ...u.add_label_ids])];
  if (u.remove_label_ids) labelIds = labelIds.filter((id) => !u.remove_label_ids!.includes(id));
  const next: Epic = { ...before, title: u.title ?? before.title, labelIds };
  if (u.state_event === 'close' && before.state === 'opened') Object.assign(next, { state: 'closed', closedAt: now });
  if (u.state_event === 'reopen' && before.state === 'closed') Object.assign(next, { state: 'opened', closedAt: null });
  const changed = (Object.keys(next) as (keyof Epic)[]).some((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
  if (!changed) return;
  next.updatedAt = now;
  pset(draft.epics, before.groupId, before.iid, next);
  const on = { type: 'Epic' as const, id: before.id };
  if (before.state !== next.state) recordEvent(draft, 'state', on, user.id, now, { state: next.state === 'closed' ? 'closed' : 'reopened', sourceCommit: null, sourceMergeRequestId: null });
  if (before.title !== next.title) systemNote(draft, 'Epic', { id: before.id, projectId: null }, user.id, titleBody(before.title, next.title), now);
  recordLabelChange(draft, on, user.id, before.labelIds, next.labelIds, now);
}

