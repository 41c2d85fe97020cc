// What a quick action is, as lib/gitlab/quick_actions/*.rb declares one (Gitlab::QuickActions::Dsl):
// its names, the kinds that take it, its tier, GitLab's condition, its argument's parser, and
// what it changes (GitLab's update params) and says; what a kind of issuable adds (its facts, its
// own commands, its update service); and the update params as the update services take them.
import type { Draft } from 'immer';
import type { User } from '../../store/state.js';
import { today } from '../../policy/access.js';
import type { LabelOwner } from '../labels/index.js';
import type { objectsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import type { IssuableTarget } from './kinds.js';
import type { SocialTarget } from './records.js';
import type { SpentChange } from './system-notes.js';

/** What the git side of a command needs: a route's context (or, in tests, the emulator's object database and world). */
export type GitAccess = Parameters<typeof objectsOf>[0] & { state: State; webBase: string };

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
  reviewer_ids?: number[];
  /** Not among commands_changes: reviewers `/request_review` asks again (MergeRequests::RequestReviewService). */
  review_requests?: number[];
}

/** What the commands read of an issuable (as it was before the text, or as it is being made), and who may change it. */
export interface CommandFacts {
  /** How messages name it (`Closed this issue.`). */
  noun: string;
  /** Its state, labels, assignees, milestone and lock. */
  record: { state: string; labelIds: readonly number[]; assigneeIds?: readonly number[]; milestoneId?: number | null; discussionLocked?: boolean | null };
  /** What award emoji, subscriptions and to-dos hang on; null for an epic, which takes none here. */
  social: SocialTarget | null;
  /** `update_<issuable>`. */
  canUpdate: boolean;
  /** `admin_<issuable>` (set_<issuable>_metadata). */
  canAdmin: boolean;
}

export interface CommandOptions {
  mergeRequestDiffHeadSha?: string;
  webBase?: string;
}

/** What a command's condition and action see. */
export interface CommandContext<T extends IssuableTarget = IssuableTarget> {
  readonly state: State;
  readonly target: T;
  readonly user: User;
  readonly now: number;
  readonly opts: CommandOptions;
  /** The target exists (`persisted?`): false for the description of an issuable being made. */
  readonly persisted: boolean;
  readonly facts: CommandFacts;
  /** Premium or above: EE's behaviour (several assignees). */
  readonly premium: boolean;
  /** The owners of the labels the target may carry: its project's and groups', or an epic's group's and ancestors'. */
  readonly labelOwners: LabelOwner[];
  /** GitLab's update params, as the commands before this one set them. */
  readonly u: Updates;
  /** `@execution_message[name] = message`: the message of every command of this name in the text; returns it. */
  shared(message: string): string;
}

/**
 * One quick action, as lib/gitlab/quick_actions/*.rb declares it. `parse` (parse_params) reads
 * a non-blank argument; `run` gets what it made (undefined for a blank argument), sets the
 * update params in `c.u` and returns its message (null for none).
 */
export interface Command<T extends IssuableTarget = IssuableTarget, P = string> {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** The kinds of issuable that take it (GitLab's `types`). */
  readonly types: readonly T['type'][];
  /** EE's: on the free tier it is no command, and stays in the text. */
  readonly tier?: 'premium';
  /** GitLab's `condition`: whether it is available on the target for the caller. */
  condition(c: CommandContext<T>): boolean;
  parse?(c: CommandContext<T>, arg: string): P;
  run(c: CommandContext<T>, arg: P | undefined): string | null;
}

/** Declares a command (the identity, for its types to be inferred). */
export const defineCommand = <T extends IssuableTarget = IssuableTarget, P = string>(command: Command<T, P>): Command<T, P> => command;

/** A kind of issuable's part of the quick actions, registered by the family that owns it. */
export interface CommandKind<T extends IssuableTarget> {
  facts(state: State, target: T, user: User, now: number): CommandFacts;
  /** Its own commands (those whose `types` name it alone). */
  readonly commands: readonly Command<T, unknown>[];
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
