// A merge request's own quick actions (lib/gitlab/quick_actions/merge_request_actions.rb:
// `/merge`, `/approve`, `/unapprove`, `/draft`), what the shared commands read of a merge
// request, and MergeRequests::UpdateService with the commands' params (a `/merge` awaits its
// merge commit first); registered with the issuables family, which runs them in notes and
// descriptions alike.
import type { Draft } from 'immer';
import { hasProjectRole } from '../../policy/access.js';
import { pget } from '../../store/table.js';
import { ACCESS, type User } from '../../store/state.js';
import { applySocialUpdates, defineCommand, labelIdsAfter, socialTarget, spentOf, type CommandKind, type GitAccess, type Updates } from '../issuables/index.js';
import { objectsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { approvedBy, approveMergeRequest, canApprove, unapproveMergeRequest } from './approvals.js';
import type { MergeRequestTarget } from './kind.js';
import { acceptMergeRequest, canMerge } from './merge.js';
import { canUpdateMergeRequest, discussionsResolved, editMergeRequest } from './rules.js';
import type { MergeRequest } from './records.js';
import { draftlessTitle, isDraftTitle } from './system-notes.js';

const MERGE_REQUEST = ['MergeRequest'] as const;

/** merge_request_actions.rb. */
const commands = [
  defineCommand<MergeRequestTarget>({
    name: 'merge', types: MERGE_REQUEST,
    condition: ({ state, user, now, persisted, target: { mr, project } }) =>
      persisted && mr.state === 'opened' && !mr.draft && discussionsResolved(state, project, mr) && canMerge(state, user, project, mr.targetBranch, now),
    run: (c) => {
      c.u.merge = c.opts.mergeRequestDiffHeadSha ?? null;
      return 'Merged this merge request.';
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
];

export const mergeRequestCommands: CommandKind<MergeRequestTarget> = {
  facts: (state, target, user, now) => ({
    noun: 'merge request',
    record: target.mr,
    social: socialTarget('MergeRequest', target.mr),
    canUpdate: canUpdateMergeRequest(state, user, target.project, target.mr, now),
    canAdmin: !target.project.archived && hasProjectRole(state, user, target.project, ACCESS.developer, now),
  }),
  commands,
  updates(target, user, u, now) {
    const { mr, project } = target;
    let mergeRecipe: ((draft: Draft<State>) => MergeRequest) | null = null;
    const prepare = u.merge !== undefined && u.merge === mr.sha
      ? async (ctx: GitAccess) => {
        try {
          mergeRecipe = await acceptMergeRequest(ctx.state, objectsOf(ctx, project), project, mr, user, { sha: u.merge ?? undefined }, now);
        } catch {
          mergeRecipe = null; // MergeService's failures leave the merge request as it is
        }
      }
      : null;
    const apply = (draft: Draft<State>) => {
      applyToMergeRequest(draft, target, user, u, now);
      if (mergeRecipe) mergeRecipe(draft);
    };
    return { prepare, apply };
  },
};

/** MergeRequests::UpdateService with the quick actions' params, then to-dos, subscriptions and awards. */
function applyToMergeRequest(draft: Draft<State>, target: MergeRequestTarget, user: User, u: Updates, now: number): void {
  const { project } = target;
  const before = pget(draft.mergeRequests, project.id, target.mr.iid) as MergeRequest | undefined;
  if (!before) return;
  const fields: Partial<MergeRequest> = {
    labelIds: labelIdsAfter(before.labelIds, u),
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
