// A merge request's own quick actions (lib/gitlab/quick_actions/merge_request_actions.rb:
// `/merge`, `/approve`, `/unapprove`, `/draft`), what the shared commands read of a merge
// request, and MergeRequests::UpdateService with the commands' params (a `/merge` awaits its
// merge commit first, or, where a merge train's strategy is preferred, has the merge trains set it
// once the change is saved); registered with the issuables family, which runs them in notes and
// descriptions alike.
import type { Draft } from 'immer';
import { pget, tget } from '../../store/table.js';
import type { Project, User } from '../../store/state.js';
import {
  applySocialUpdates, defineCommand, extractUsers, interpretDescription, labelIdsAfter, socialTarget, spentOf, systemNote, toSentence,
  type CommandContext, type CommandKind, type GitAccess, type SpentChange, type Updates,
} from '../issuables/index.js';
import { objectsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { approvedBy, approveMergeRequest, canApprove, unapproveMergeRequest } from './approvals.js';
import type { MergeRequestTarget } from './kind.js';
import { acceptMergeRequest, canMerge } from './merge.js';
import { requestTrainMerge, setAutoMerge, trainStrategies } from './auto-merge.js';
import { diffHeadPipeline, failedStateCheck, pipelineInProgress } from './mergeability.js';
import { canSetMergeRequestMetadata, canUpdateMergeRequest, discussionsResolved, editMergeRequest, filterUsers, reopens, setMergeRequestEstimate, spendMergeRequestTime, type MergeRequestInput } from './rules.js';
import type { AutoMerge, MergeRequest } from './records.js';
import { findReviewer, setReviewerState } from './reviewers.js';
import { draftlessTitle, isDraftTitle } from './system-notes.js';
import { reloadDiff } from './refresh.js';

const MERGE_REQUEST = ['MergeRequest'] as const;
type Found = ReturnType<typeof extractUsers>;
const ref = (x: User) => `@${x.username}`;
const reviewerWord = (n: number) => (n === 1 ? 'reviewer' : 'reviewers');
/** `admin_merge_request` on the project: who may set reviewers. */
const mayAdmin = (c: CommandContext<MergeRequestTarget>) => c.facts.canAdmin;
/** reviewers_to_add: every user named where several reviewers are allowed (`multiple_reviewers`, Premium), else the first. */
const reviewersToAdd = (c: CommandContext<MergeRequestTarget>, users: User[]) => (c.premium ? users : users.slice(0, 1));
const currentReviewers = (c: CommandContext<MergeRequestTarget>) => c.u.reviewer_ids ?? [...c.target.mr.reviewerIds];
const usersOf = (c: CommandContext<MergeRequestTarget>, ids: readonly number[]) => ids.map((id) => tget(c.state.users, id)).filter((x): x is User => !!x);

/** merge_request_actions.rb's reviewer commands, and EE's `/reassign_reviewer`. */
const reviewerCommands = [
  defineCommand<MergeRequestTarget, Found>({
    name: 'assign_reviewer', aliases: ['reviewer'], types: MERGE_REQUEST,
    condition: mayAdmin,
    parse: (c, arg) => extractUsers(c.state, c.user, arg),
    run: (c, found) => {
      if (found?.missing.length) return `Failed to find users for ${toSentence(found.missing)}`;
      if (!found?.users.length) return 'Failed to assign a reviewer because no user was specified.';
      const users = reviewersToAdd(c, found.users);
      c.u.reviewer_ids = c.premium ? [...new Set([...currentReviewers(c), ...users.map((x) => x.id)])] : [users[0]!.id];
      return `Assigned ${toSentence(users.map(ref))} as ${reviewerWord(users.length)}.`;
    },
  }),
  defineCommand<MergeRequestTarget, Found>({
    name: 'request_review', types: MERGE_REQUEST,
    condition: mayAdmin,
    parse: (c, arg) => extractUsers(c.state, c.user, arg),
    // A reviewer already there is asked again (RequestReviewService), another is added.
    run: (c, found) => {
      if (found?.missing.length) return `Failed to find users for ${toSentence(found.missing)}`;
      if (!found?.users.length) return 'Failed to request a review because no user was specified.';
      const users = reviewersToAdd(c, found.users);
      const ids = currentReviewers(c);
      for (const x of users) {
        if (ids.includes(x.id)) c.u.review_requests = [...new Set([...(c.u.review_requests ?? []), x.id])];
        else ids.push(x.id);
      }
      c.u.reviewer_ids = ids;
      return `Requested a review from ${toSentence(users.map(ref))}.`;
    },
  }),
  defineCommand<MergeRequestTarget, Found | null>({
    name: 'unassign_reviewer', aliases: ['remove_reviewer'], types: MERGE_REQUEST,
    condition: (c) => c.persisted && c.target.mr.reviewerIds.length > 0 && mayAdmin(c),
    // Names count only where several reviewers are allowed; else every reviewer goes.
    parse: (c, arg) => (c.premium ? extractUsers(c.state, c.user, arg) : null),
    run: (c, found) => {
      if (found?.missing.length) return `Failed to find users for ${toSentence(found.missing)}`;
      const users = found?.users ?? [];
      const before = currentReviewers(c);
      c.u.reviewer_ids = users.length ? before.filter((id) => !users.some((x) => x.id === id)) : [];
      const removed = users.length ? users : usersOf(c, c.target.mr.reviewerIds);
      return `Removed ${reviewerWord(removed.length)} ${toSentence(removed.map(ref))}.`;
    },
  }),
  defineCommand<MergeRequestTarget, Found>({
    name: 'reassign_reviewer', types: MERGE_REQUEST, tier: 'premium',
    condition: (c) => c.persisted && mayAdmin(c),
    parse: (c, arg) => extractUsers(c.state, c.user, arg),
    run: (c, found) => {
      c.u.reviewer_ids = (found?.users ?? []).map((x) => x.id);
      return 'Changed reviewers.';
    },
  }),
];

/** merge_request_actions.rb. */
const commands = [
  defineCommand<MergeRequestTarget>({
    name: 'merge', types: MERGE_REQUEST,
    condition: ({ state, user, now, persisted, target: { mr, project } }) =>
      persisted && mr.state === 'opened' && !mr.draft && discussionsResolved(state, project, mr) && canMerge(state, user, project, mr.targetBranch, now),
    run: (c) => {
      c.u.merge = c.opts.mergeRequestDiffHeadSha ?? null;
      // preferred_auto_merge_strategy: a merge train's where trains are on, else while the head pipeline runs the merge waits for it.
      const strategy = preferredStrategy(c.state, c.target.project, c.target.mr, c.user, c.now);
      return strategy ? `Scheduled to merge this merge request (${humanize(strategy)}).` : 'Merged this merge request.';
    },
  }),
  defineCommand<MergeRequestTarget>({
    name: 'approve', types: MERGE_REQUEST,
    condition: ({ state, user, now, persisted, target: { mr, project } }) => persisted && mr.state !== 'merged' && canApprove(state, user, project, mr, now),
    run: (c) => {
      c.u.approval = 'approve';
      return 'Approved the current merge request.';
    },
  }),
  defineCommand<MergeRequestTarget>({
    name: 'unapprove', types: MERGE_REQUEST,
    condition: ({ state, user, persisted, target: { mr } }) => persisted && mr.state !== 'merged' && approvedBy(state, mr, user),
    run: (c) => {
      c.u.approval = 'unapprove';
      return 'Unapproved the current merge request.';
    },
  }),
  defineCommand<MergeRequestTarget>({
    // A merge request being made may be marked a draft by whoever makes it.
    name: 'draft', types: MERGE_REQUEST,
    condition: (c) => !c.persisted || c.facts.canUpdate,
    run: (c) => {
      const { draft } = c.target.mr;
      c.u.wip_event = draft ? 'unwip' : 'wip';
      return draft ? 'Unmarked this merge request as a draft.' : 'Marked this merge request as a draft.';
    },
  }),
  ...reviewerCommands,
];

export const mergeRequestCommands: CommandKind<MergeRequestTarget> = {
  facts: (state, target, user, now) => ({
    noun: 'merge request',
    record: target.mr,
    social: socialTarget('MergeRequest', target.mr),
    canUpdate: canUpdateMergeRequest(state, user, target.project, target.mr, now),
    canAdmin: canSetMergeRequestMetadata(state, user, target.project, now),
  }),
  commands,
  updates(target, user, u, now) {
    const { mr, project } = target;
    let mergeRecipe: ((draft: Draft<State>) => MergeRequest) | null = null;
    let trainSha: string | null = null;
    let reload: ((draft: Draft<State>) => Partial<MergeRequest>) | null = null;
    // `/reopen`: ReopenService's reload_diff, from the branches as they are now.
    const reopen = u.state_event === 'reopen' && mr.state === 'closed'
      ? async (ctx: GitAccess) => { reload = await reloadDiff(ctx.state, objectsOf(ctx, project), project, mr); }
      : null;
    const merge = u.merge !== undefined && u.merge === mr.sha
      ? async (ctx: GitAccess) => {
        // MergeOrchestrationService#execute: auto-merge with the preferred strategy where one is available, else at once.
        const strategy = preferredStrategy(ctx.state, project, mr, user, now);
        if (strategy !== null && strategy !== 'merge_when_pipeline_succeeds') {
          trainSha = mr.sha; // the merge trains' strategies run once the note's change is saved
          return;
        }
        try {
          mergeRecipe = strategy
            ? setAutoMerge(project, mr, user, {}, now)
            : await acceptMergeRequest(ctx.state, objectsOf(ctx, project), project, mr, user, { webBase: ctx.webBase, sha: u.merge ?? undefined }, now);
        } catch {
          mergeRecipe = null; // MergeService's failures leave the merge request as it is
        }
      }
      : null;
    const prepare = merge ?? reopen;
    const apply = (draft: Draft<State>) => {
      applyToMergeRequest(draft, target, user, u, now, reload);
      if (mergeRecipe) mergeRecipe(draft);
      if (trainSha !== null) requestTrainMerge(draft, mr, user, trainSha);
    };
    return { prepare, apply };
  },
};


/** `wip_event`: `Draft: ` put before the title, or every draft prefix taken off it. */
function titleAfter(title: string, u: Updates): string {
  if (u.wip_event === 'wip' && !isDraftTitle(title)) return `Draft: ${title}`;
  if (u.wip_event === 'unwip') return draftlessTitle(title);
  return title;
}

/** The fields MergeRequests::UpdateService changes with the commands' params, from the merge request as they find it, and the time spent. */
function fieldsOf(state: State, project: Project, before: MergeRequest, user: User, u: Updates, now: number): { fields: Partial<MergeRequest>; spent: SpentChange | undefined } {
  const fields: Partial<MergeRequest> = {
    labelIds: labelIdsAfter(before.labelIds, u),
    assigneeIds: u.assignee_ids ?? before.assigneeIds,
    reviewerIds: (u.reviewer_ids && filterUsers(state, project, u.reviewer_ids, now)) ?? before.reviewerIds,
    milestoneId: u.milestone_id !== undefined ? u.milestone_id : before.milestoneId,
    timeEstimate: u.time_estimate ?? before.timeEstimate,
    ...(u.discussion_locked !== undefined ? { discussionLocked: u.discussion_locked } : {}),
  };
  if (u.title !== undefined || u.wip_event !== undefined) fields.title = titleAfter(u.title ?? before.title, u);
  const spent = spentOf(u, now);
  if (spent) fields.totalTimeSpent = spent.seconds === 'reset' ? 0 : Math.max(0, before.totalTimeSpent + spent.seconds);
  if (u.state_event === 'close' && before.state === 'opened') Object.assign(fields, { state: 'closed', closedAt: now, closedById: user.id });
  if (u.state_event === 'reopen' && before.state === 'closed') Object.assign(fields, { state: 'opened', closedAt: null, closedById: null });
  return { fields, spent };
}

/** MergeRequests::UpdateService with the quick actions' params, then to-dos, subscriptions, awards and approvals. */
function applyToMergeRequest(
  draft: Draft<State>, target: MergeRequestTarget, user: User, u: Updates, now: number, reload: ((draft: Draft<State>) => Partial<MergeRequest>) | null = null,
): void {
  const { project } = target;
  const found = pget(draft.mergeRequests, project.id, target.mr.iid) as MergeRequest | undefined;
  if (!found) return;
  applyBeside(draft, project, found.iid, user, u, now);
  // As the services beside it left it (its reviewers' states).
  const before = pget(draft.mergeRequests, project.id, found.iid) as MergeRequest;
  const { fields, spent } = fieldsOf(draft as State, project, before, user, u, now);
  const reopened = before.state === 'closed' && fields.state === 'opened';
  if (reopened && !reopens(draft as State, before)) Object.assign(fields, { state: before.state, closedAt: before.closedAt, closedById: before.closedById });
  else if (reopened) Object.assign(fields, reload?.(draft));
  editMergeRequest(project, before, user, fields, now, spent)(draft);
}

/**
 * What the commands do beside the merge request's fields, before the update saves them:
 * `/approve` and `/unapprove` run their services as they are read (while the merge request is
 * as it was), then to-dos, subscriptions and award emoji.
 */
function applyBeside(draft: Draft<State>, project: Project, iid: number, user: User, u: Updates, now: number): void {
  const current = pget(draft.mergeRequests, project.id, iid) as MergeRequest;
  if (u.approval === 'approve') approveMergeRequest(draft as State, project, current, user, now)?.(draft);
  if (u.approval === 'unapprove') unapproveMergeRequest(draft as State, current, user, now)?.(draft);
  applySocialUpdates(draft, socialTarget('MergeRequest', current), user, u, now);
  for (const id of u.review_requests ?? []) requestReview(draft, current, user, id, now);
}

/**
 * MergeRequests::RequestReviewService: a reviewer asked again loses their approval (without the
 * unapproval's note) and is `unreviewed`, with the note `requested review from @x` (`and
 * removed approval` when they had approved).
 */
function requestReview(draft: Draft<State>, mr: MergeRequest, user: User, reviewerId: number, now: number): void {
  const reviewer = tget((draft as State).users, reviewerId);
  if (!reviewer || !findReviewer(mr, reviewerId)) return;
  const unapprove = unapproveMergeRequest(draft as State, mr, reviewer, now, true);
  unapprove?.(draft);
  setReviewerState(draft, mr.projectId, mr.iid, reviewerId, 'unreviewed');
  systemNote(draft, 'MergeRequest', mr, user.id, `requested review from ${ref(reviewer)}${unapprove ? ' and removed approval' : ''}`, now);
}

/** The merge request a create is making, as the commands of its description see it: unsaved (no id, no commits yet). */
function unsavedMergeRequest(project: Project, user: User, input: MergeRequestInput, now: number): MergeRequest {
  return {
    id: 0, iid: 0, projectId: project.id, title: input.title, description: input.description ?? '', state: 'opened', createdAt: now, updatedAt: now,
    closedAt: null, closedById: null, mergedAt: null, mergedById: null, authorId: user.id, assigneeIds: input.assigneeIds ?? [], reviewerIds: input.reviewerIds ?? [],
    labelIds: [], milestoneId: input.milestoneId ?? null, sourceBranch: input.sourceBranch, targetBranch: input.targetBranch, sha: '', baseSha: '', startSha: '',
    mergeStatus: 'unchecked', mergeCommitSha: null, draft: isDraftTitle(input.title), squash: input.squash ?? false, removeSourceBranch: input.removeSourceBranch ?? false,
    timeEstimate: 0, totalTimeSpent: 0,
  };
}

/**
 * MergeRequests::CreateService's handle_quick_actions: the input with the commands of its
 * description that ran on a merge request being made (labels, assignees, milestone, `/draft`)
 * taken out of the text and merged over the caller's, and the step to run on the saved merge
 * request (its time estimate and spent time, with their notes). Null when there is no command to look for.
 */
export function createCommands(
  state: State, project: Project, user: User, input: MergeRequestInput, now: number, webBase: string,
): { input: MergeRequestInput; after: (saved: MergeRequest) => (draft: Draft<State>) => MergeRequest } | null {
  if (input.description === undefined || !input.description.includes('/')) return null;
  const target: MergeRequestTarget = { type: 'MergeRequest', mr: unsavedMergeRequest(project, user, input, now), project };
  const { content, updates: u } = interpretDescription(state, target, user, input.description, { persisted: false, webBase }, now);
  const merged: MergeRequestInput = {
    ...input, description: content, title: titleAfter(input.title, u),
    ...(u.add_label_ids ? { labelIds: u.add_label_ids } : {}),
    ...(u.assignee_ids ? { assigneeIds: u.assignee_ids } : {}),
    ...(u.reviewer_ids && filterUsers(state, project, u.reviewer_ids, now) ? { reviewerIds: filterUsers(state, project, u.reviewer_ids, now) } : {}),
    ...(u.milestone_id !== undefined ? { milestoneId: u.milestone_id } : {}),
  };
  const spent = spentOf(u, now)?.seconds;
  const after = (saved: MergeRequest) => (draft: Draft<State>): MergeRequest => {
    let out = saved;
    if (u.time_estimate !== undefined) out = setMergeRequestEstimate(out, user, u.time_estimate, now)(draft);
    if (typeof spent === 'number' && out.totalTimeSpent + spent >= 0) out = spendMergeRequestTime(out, user, spent, now)(draft);
    return out;
  };
  return { input: merged, after };
}

/**
 * MergeRequests::UpdateService's handle_quick_actions for a new description (the merge request
 * as it is; what its stored description's own commands would do is not done again): the text
 * without the commands that ran, the fields they change over those the caller's params leave
 * (`edited`) with the time spent, and what they do beside the fields, to run before the update
 * (approvals, to-dos, subscriptions, award emoji).
 */
export function editCommands(
  state: State, project: Project, user: User, mr: MergeRequest, description: string, now: number, webBase: string,
): { content: string; fields(edited: MergeRequest): ReturnType<typeof fieldsOf>; beside: (draft: Draft<State>) => void } {
  const target: MergeRequestTarget = { type: 'MergeRequest', mr, project };
  const { content, updates: u } = interpretDescription(state, target, user, description, { persisted: true, original: mr.description, webBase }, now);
  return { content, fields: (edited) => fieldsOf(state, project, edited, user, u, now), beside: (draft) => applyBeside(draft, project, mr.iid, user, u, now) };
}

/**
 * AutoMergeService#preferred_strategy: the merge trains' strategies first (where a project's
 * trains are on), then merge when pipeline succeeds; null when the merge is made at once.
 */
function preferredStrategy(state: State, project: Project, mr: MergeRequest, user: User, now: number): AutoMerge['strategy'] | null {
  const train = trainStrategies()?.preferred(state, mr, user, now) ?? null;
  if (train !== null) return train;
  return autoMergeAvailable(state, project, mr) ? 'merge_when_pipeline_succeeds' : null;
}

/** String#humanize of a strategy's name: `merge_train` is `Merge train`. */
const humanize = (strategy: string) => {
  const words = strategy.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** AutoMerge::MergeWhenPipelineSucceedsService#available_for?: the head pipeline runs and nothing else stops the merge. */
function autoMergeAvailable(state: State, project: Project, mr: MergeRequest): boolean {
  return pipelineInProgress(project, diffHeadPipeline(state, mr)) && failedStateCheck(state, project, mr, true) === null;
}
