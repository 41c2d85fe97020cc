// The quick actions every kind of issuable takes (lib/gitlab/quick_actions/issuable_actions.rb),
// and those issues and merge requests share (issue_and_merge_request_actions.rb), each with
// GitLab's condition: some need the issuable to exist already (`persisted?`), so a new issue's
// description leaves them in its text.
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { defineCommand, type Command } from './command-model.js';
import { anyLabel, extractUsers, findLabels, findMilestone, hasActiveMilestone, labelRef, milestoneRef, parseSpend, plural } from './command-args.js';
import { formatDuration, parseDuration } from './duration.js';
import type { IssuableTarget } from './kinds.js';
import { issueMilestone } from './milestones.js';
import { isSubscribed, pendingTodoId } from './social.js';
import { toSentence } from './system-notes.js';

const ALL = ['Issue', 'MergeRequest', 'Epic'] as const;
const ISSUES_AND_MERGE_REQUESTS = ['Issue', 'MergeRequest'] as const;
/** An issue or a merge request, with its project. */
type ProjectTarget = Extract<IssuableTarget, { project: Project }>;
const ref = (x: User) => `@${x.username}`;

/**
 * `/close` and `/reopen`: an existing issuable in the other state, by whoever may update it; a
 * merge request whose discussion is locked is reopened by no one (MergeRequestPolicy's `locked`).
 */
const stateCommand = (name: 'close' | 'reopen', from: string, done: string) =>
  defineCommand({
    name, types: ALL,
    condition: (c) => c.persisted && c.facts.record.state === from && c.facts.canUpdate
      && !(name === 'reopen' && c.target.type === 'MergeRequest' && c.facts.record.discussionLocked === true),
    run: (c) => {
      c.u.state_event = name;
      return `${done} this ${c.facts.noun}.`;
    },
  });

/** issuable_actions.rb. */
const issuableCommands = [
  stateCommand('close', 'opened', 'Closed'),
  stateCommand('reopen', 'closed', 'Reopened'),
  defineCommand({
    name: 'title', types: ALL,
    condition: (c) => c.persisted && c.facts.canUpdate,
    run: (c, title) => {
      if (title === undefined) return null;
      c.u.title = title;
      return `Changed the title to "${title}".`;
    },
  }),
  defineCommand({
    name: 'label', aliases: ['labels'], types: ALL,
    condition: (c) => c.facts.canAdmin && anyLabel(c.state, c.labelOwners),
    parse: (c, arg) => findLabels(c.state, c.labelOwners, arg),
    run: (c, labels) => {
      if (!labels?.length) return null;
      c.u.add_label_ids = [...new Set([...(c.u.add_label_ids ?? []), ...labels.map((l) => l.id)])];
      return c.shared(`Added ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.`);
    },
  }),
  defineCommand({
    name: 'unlabel', aliases: ['remove_label'], types: ALL,
    condition: (c) => c.persisted && c.facts.record.labelIds.length > 0 && c.facts.canAdmin,
    parse: (c, arg) => findLabels(c.state, c.labelOwners, arg),
    // Its block takes an optional argument: without one it removes every label.
    run: (c, labels) => {
      if (labels === undefined) c.u.label_ids = [];
      else if (labels.length) c.u.remove_label_ids = [...new Set([...(c.u.remove_label_ids ?? []), ...labels.map((l) => l.id)])];
      return c.shared(labels?.length ? `Removed ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.` : 'Removed all labels.');
    },
  }),
  defineCommand({
    name: 'relabel', types: ALL,
    condition: (c) => c.persisted && c.facts.record.labelIds.length > 0 && c.facts.canAdmin,
    parse: (c, arg) => findLabels(c.state, c.labelOwners, arg),
    run: (c, labels) => {
      if (!labels?.length) return null;
      c.u.label_ids = [...new Set([...(c.u.label_ids ?? []), ...labels.map((l) => l.id)])];
      return c.shared(`Replaced all labels with ${labels.map(labelRef).join(' ')} ${plural('label', labels.length)}.`);
    },
  }),
  defineCommand({
    name: 'todo', types: ALL,
    condition: (c) => c.persisted && !!c.facts.social && pendingTodoId(c.state, c.facts.social, c.user) === undefined,
    run: (c) => {
      c.u.todo_event = 'add';
      return 'Added a to-do item.';
    },
  }),
  defineCommand({
    name: 'done', types: ALL,
    condition: (c) => c.persisted && !!c.facts.social && pendingTodoId(c.state, c.facts.social, c.user) !== undefined,
    run: (c) => {
      c.u.todo_event = 'done';
      return 'Marked to-do item as done.';
    },
  }),
  defineCommand({
    name: 'subscribe', types: ALL,
    condition: (c) => c.persisted && !!c.facts.social && !isSubscribed(c.state, c.facts.social, c.user, c.now),
    run: (c) => {
      c.u.subscription_event = 'subscribe';
      return 'Subscribed to notifications.';
    },
  }),
  defineCommand({
    name: 'unsubscribe', types: ALL,
    condition: (c) => c.persisted && !!c.facts.social && isSubscribed(c.state, c.facts.social, c.user, c.now),
    run: (c) => {
      c.u.subscription_event = 'unsubscribe';
      return 'Unsubscribed from notifications.';
    },
  }),
  defineCommand({
    name: 'award', aliases: ['react'], types: ALL,
    condition: (c) => c.persisted && !!c.facts.social,
    parse: (_c, arg) => /:([a-z0-9_+-]+):/.exec(arg)?.[1],
    run: (c, name) => {
      if (!name) return null;
      c.u.emoji_award = name;
      return `Toggled :${name}: emoji reaction.`;
    },
  }),
];

/** issue_and_merge_request_actions.rb. */
const projectCommands = [
  defineCommand<ProjectTarget, ReturnType<typeof extractUsers>>({
    name: 'assign', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.facts.canAdmin,
    parse: (c, arg) => extractUsers(c.state, c.user, arg),
    // Its message block takes an optional argument (arity 0), so it speaks even with none.
    run: (c, found) => {
      if (found?.missing.length) return `Failed to find users for ${toSentence(found.missing)}`;
      if (!found?.users.length) return 'Failed to assign a user because no user was found.';
      const { users } = found;
      if (c.premium) c.u.assignee_ids = [...new Set([...(c.u.assignee_ids ?? c.facts.record.assigneeIds ?? []), ...users.map((x) => x.id)])];
      else c.u.assignee_ids = [users[0]!.id];
      return `Assigned ${toSentence((c.premium ? users : [users[0]!]).map(ref))}.`;
    },
  }),
  defineCommand<ProjectTarget, ReturnType<typeof extractUsers> | null>({
    name: 'unassign', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && (c.facts.record.assigneeIds ?? []).length > 0 && c.facts.canAdmin,
    // Names count only where several assignees are allowed; else every assignee goes.
    parse: (c, arg) => (c.premium ? extractUsers(c.state, c.user, arg) : null),
    run: (c, found) => {
      if (found?.missing.length) return `Failed to find users for ${toSentence(found.missing)}`;
      const current = c.facts.record.assigneeIds ?? [];
      const users = found?.users ?? [];
      if (users.length) c.u.assignee_ids = (c.u.assignee_ids ?? current).filter((id) => !users.some((x) => x.id === id));
      else c.u.assignee_ids = [];
      const removed = users.length ? users : current.map((id) => tget(c.state.users, id)).filter((x): x is User => !!x);
      return `Removed ${plural('assignee', removed.length)} ${toSentence(removed.map(ref))}.`;
    },
  }),
  defineCommand<ProjectTarget, ReturnType<typeof findMilestone>>({
    name: 'milestone', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.facts.canAdmin && hasActiveMilestone(c.state, c.target.project),
    parse: (c, arg) => findMilestone(c.state, c.target.project, arg),
    run: (c, m) => {
      if (!m) return null;
      c.u.milestone_id = m.id;
      return `Set the milestone to ${milestoneRef(m.title)}.`;
    },
  }),
  defineCommand<ProjectTarget>({
    name: 'remove_milestone', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && (c.facts.record.milestoneId ?? null) !== null && c.facts.canAdmin,
    run: (c) => {
      c.u.milestone_id = null;
      const m = issueMilestone(c.state, c.target.project, c.facts.record.milestoneId ?? null);
      return `Removed ${milestoneRef(m?.title ?? '')} milestone.`;
    },
  }),
  defineCommand<ProjectTarget, number | null>({
    name: 'estimate', aliases: ['estimate_time'], types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.facts.canAdmin,
    parse: (_c, arg) => parseDuration(arg, true),
    run: (c, seconds) => {
      if (seconds === undefined || seconds === null) return null;
      c.u.time_estimate = seconds;
      if (seconds === 0) return 'Removed time estimate.';
      const text = formatDuration(seconds);
      return text === null ? null : `Set time estimate to ${text}.`;
    },
  }),
  defineCommand<ProjectTarget>({
    name: 'remove_estimate', aliases: ['remove_time_estimate'], types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && c.facts.canAdmin,
    run: (c) => {
      c.u.time_estimate = 0;
      return 'Removed time estimate.';
    },
  }),
  defineCommand<ProjectTarget, ReturnType<typeof parseSpend>>({
    name: 'spend', aliases: ['spent', 'spend_time'], types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.facts.canAdmin,
    parse: (c, arg) => parseSpend(arg, c.now),
    run: (c, spend) => {
      if (!spend) return null;
      c.u.spend_time = { duration: spend.seconds, user_id: c.user.id, spent_at: spend.date ?? new Date(c.now).toISOString(), category: spend.category };
      return `${spend.seconds > 0 ? 'Added' : 'Subtracted'} ${formatDuration(Math.abs(spend.seconds))} spent time.`;
    },
  }),
  defineCommand<ProjectTarget>({
    name: 'remove_time_spent', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && c.facts.canAdmin,
    run: (c) => {
      c.u.spend_time = { duration: 'reset', user_id: c.user.id };
      return 'Removed spent time.';
    },
  }),
  defineCommand<ProjectTarget>({
    name: 'lock', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && !c.facts.record.discussionLocked && c.facts.canAdmin,
    run: (c) => {
      c.u.discussion_locked = true;
      return 'Locked the discussion.';
    },
  }),
  defineCommand<ProjectTarget>({
    name: 'unlock', types: ISSUES_AND_MERGE_REQUESTS,
    condition: (c) => c.persisted && !!c.facts.record.discussionLocked && c.facts.canAdmin,
    run: (c) => {
      c.u.discussion_locked = false;
      return 'Unlocked the discussion.';
    },
  }),
];

/** The commands of more than one kind, this family's part of the one table of quick actions. */
export const SHARED_COMMANDS: readonly Command<IssuableTarget, unknown>[] = [...issuableCommands, ...projectCommands] as readonly Command<IssuableTarget, unknown>[];
