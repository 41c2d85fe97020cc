// Quick actions in a note (QuickActions::InterpretService with lib/gitlab/quick_actions/
// issuable_actions.rb, issue_and_merge_request_actions.rb; Notes::QuickActionsService). Every
// known command line is taken out of the body and counted; each runs only when its condition
// holds for the noteable as it was before the note (the caller's permissions, its state), else
// its message is `Could not apply <name> command.`. What ran becomes GitLab's update params
// (`commands_changes`), applied afterwards as the update services apply them. The commands every
// issuable takes are here; each kind's own (an issue's `/due`, a merge request's `/merge`) and
// its update service come from the family that registers the kind (CommandKind).
import type { Draft } from 'immer';
import type { Project, User } from '../../store/state.js';
import { today } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import { groupLabelOwners, projectLabelOwners } from '../labels/index.js';
import type { objectsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { anyLabel, extractUsers, findLabels, findMilestone, hasActiveMilestone, labelRef, milestoneRef, parseSpend, plural } from './command-args.js';
import { formatDuration, parseDuration } from './duration.js';
import { issuableKind, type IssuableTarget } from './kinds.js';
import { issueMilestone } from './milestones.js';
import { scanCommands } from './quick-actions.js';
import type { SocialTarget } from './records.js';
import { isSubscribed, pendingTodoId } from './social.js';
import { toSentence, type SpentChange } from './system-notes.js';

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

/** The update params the commands set (GitLab's update_params), which each kind's update service applies. */
export interface Updates {
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
  epic?: { id: number } | null;
  iteration?: number | null;
  approval?: 'approve' | 'unapprove';
}

/** The commands whose message is `@execution_message[name]`: a later command of the name sets it for every one. */
const SHARED_MESSAGE = new Set(['label', 'unlabel', 'relabel', 'duplicate', 'weight', 'epic', 'promote', 'confidential', 'iteration']);

/** A command's outcome: unavailable (condition false), or the message it leaves (null for none). */
export type Outcome = { available: false } | { available: true; message: string | null };

/** What the commands read of a noteable before the note, and who may change it. */
export interface CommandFacts {
  /** How messages name it (`Closed this issue.`). */
  noun: string;
  /** Its state, labels, assignees, milestone and lock, as they were. */
  record: { state: string; labelIds: readonly number[]; assigneeIds?: readonly number[]; milestoneId?: number | null; discussionLocked?: boolean | null };
  /** What award emoji, subscriptions and to-dos hang on; null for an epic, which takes none here. */
  social: SocialTarget | null;
  /** `update_<noteable>`. */
  canUpdate: boolean;
  /** `admin_<noteable>` (set_<noteable>_metadata). */
  canAdmin: boolean;
}

export interface CommandOptions {
  mergeRequestDiffHeadSha?: string;
  webBase?: string;
}

/** What a kind's own command sees: the world, the noteable, the caller, and the update params so far. */
export interface CommandRun<T> {
  state: State;
  target: T;
  user: User;
  now: number;
  opts: CommandOptions;
  facts: CommandFacts;
  u: Updates;
}

/** A kind of issuable's part of the quick actions, registered by the family that owns it. */
export interface CommandKind<T> {
  facts(state: State, target: T, user: User, now: number): CommandFacts;
  /** Its own commands: the outcome of one, or undefined for a name that is not one of them. */
  run?(c: CommandRun<T>, name: string, arg: string): Outcome | undefined;
  /** Its update service with the commands' params; `prepare`, git work to await before (a merge's commit), or null. */
  updates(target: T, user: User, u: Updates, now: number): { apply(draft: Draft<State>): void; prepare: ((ctx: GitAccess) => Promise<void>) | null };
}

/** The labels after the commands' `label_ids`, `add_label_ids` and `remove_label_ids`, in that order. */
export function labelIdsAfter(labelIds: number[], u: Updates): number[] {
  let out = labelIds;
  if (u.label_ids !== undefined) out = [...u.label_ids];
  if (u.add_label_ids) out = [...new Set([...out, ...u.add_label_ids])];
  if (u.remove_label_ids) out = out.filter((id) => !u.remove_label_ids!.includes(id));
  return out;
}

/** `spend_time` as the update services take it: the seconds, the day it was spent, today. */
export function spentOf(u: Updates, now: number): SpentChange | undefined {
  if (!u.spend_time) return undefined;
  const d = u.spend_time.duration;
  const at = typeof u.spend_time.spent_at === 'string' && u.spend_time.spent_at.length === 10 ? u.spend_time.spent_at : null;
  return { seconds: d, spentAt: at, today: today(now) };
}

/**
 * Interprets the quick actions of a note's body for its noteable. Pure: the world is read, not
 * changed; `apply` makes the changes.
 */
export function interpretNoteCommands<T extends IssuableTarget>(state: State, target: T, user: User, body: string, opts: CommandOptions, now: number): NoteCommands {
  const premium = state.instance.tier !== 'free';
  const nameOf = (cmd: string) => ALIASES[cmd] ?? (premium ? EE_ALIASES[cmd] : undefined);
  if (target.type === 'Epic' && !premium) return { content: body, executed: 0, changes: {}, messages: [], apply: null, prepare: null };
  const { content, commands } = scanCommands(body, (n) => nameOf(n) !== undefined);
  // As GitLab's extractor, the text comes back without carriage returns and right-trimmed, commands or not.
  if (commands.length === 0) return { content, executed: 0, changes: {}, messages: [], apply: null, prepare: null };

  const u: Updates = {};
  const lastMessage = new Map<string, string | null>();
  const outcomes: { name: string; outcome: Outcome }[] = [];
  const kind = issuableKind(target).commands;
  const facts = kind.facts(state, target, user, now);
  const { noun, record, social, canUpdate, canAdmin } = facts;
  const project: Project | null = target.type === 'Epic' ? null : target.project;
  const isOpen = record.state === 'opened';
  const isClosed = record.state === 'closed';
  const labelIds = record.labelIds;
  const assigneeIds = record.assigneeIds ?? [];
  const multipleAssignees = premium;
  // The labels a noteable may carry: its project's and its groups', or an epic's group's and ancestors'.
  const owners = target.type === 'Epic' ? groupLabelOwners(state, target.group) : projectLabelOwners(state, target.project);
  const ref = (x: User) => `@${x.username}`;
  const kindRun: CommandRun<T> = { state, target, user, now, opts, facts, u };

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
        const current = record.milestoneId ?? null;
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
      case 'lock':
        if (!(project && !record.discussionLocked && canAdmin)) return { available: false };
        u.discussion_locked = true;
        return { available: true, message: 'Locked the discussion.' };
      case 'unlock':
        if (!(project && record.discussionLocked && canAdmin)) return { available: false };
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
      default:
        return kind.run?.(kindRun, name, arg) ?? { available: false };
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
  const params = u as Record<string, unknown>;
  for (const key of CHANGE_KEYS) if (params[key] !== undefined) changes[key] = params[key];
  const anything = Object.keys(u).length > 0;
  if (!anything) return { content, executed: commands.length, changes, messages, apply: null, prepare: null };

  const update = kind.updates(target, user, u, now);
  const apply = (draft: Draft<State>, noteId: number | null) => {
    if (u.spend_time) u.spend_time.note_id = noteId;
    update.apply(draft);
  };
  return { content, executed: commands.length, changes, messages, apply, prepare: update.prepare };
}
