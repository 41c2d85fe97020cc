// Accepting a merge request (lib/api/merge_requests.rb `merge`, MergeRequests::MergeService):
// a merge commit of the real trees on the target branch (a three-way merge by path; a path both
// sides changed differently is a conflict) with the caller's message or the one
// message-generator.ts makes, the merge request merged, and the issues it closes (the list kept
// while it was open: `Closes #n` in its text and commits, into the default branch; closing.ts)
// closed by the user who merged.
import type { Draft } from 'immer';
import { messageError, notAllowed, unauthorized } from '../../core/errors.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { mergeTrees } from '../../git/merge-trees.js';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import { projectAccess } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import { branchTip, defaultBranchName, deleteBranch, moveBranch, protectionsFor, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { discussionsResolved, putMergeRequest, squashOnMerge } from './rules.js';
import { diffHeadPipeline, failedMergeCheck, failedStateCheck, pipelineInProgress } from './mergeability.js';
import type { MergeRequest } from './records.js';
import { putIssue } from '../issues/index.js';
import { recordMergeRequestChanges } from './system-notes.js';
import { recordEvent } from '../issuables/index.js';
import { keepClosingIssues, visibleClosingIssues } from './closing.js';
import { defaultMergeCommitMessage, defaultSquashCommitMessage, isBlank } from './message-generator.js';

/** MergeRequest#can_be_merged_by?: developers, and on a protected target those its merge access lets in. */
export function canMerge(state: State, user: User | null, project: Project, target: string, now: number): boolean {
  if (!user) return false;
  if (user.admin) return true;
  const access = projectAccess(state, user, project, now);
  if (access < ACCESS.developer) return false;
  const rules = protectionsFor(refsOf(state, project.id), target);
  return rules.length === 0 || rules.some((r) => r.mergeAccessLevel > 0 && access >= r.mergeAccessLevel);
}

const cannotMerge = () => messageError(422, 'Branch cannot be merged');
/** check_sha_param!: the head the caller expected moved; the message names the head there is. */
export const shaMismatch = (sha: string) => messageError(409, `SHA does not match HEAD of source branch: ${sha}`);

/**
 * How `PUT .../merge` merges (lib/api/merge_requests.rb): `now`, or `auto` when auto-merge was
 * asked and the head pipeline still runs (automatically_mergeable?). Asked for auto-merge, it
 * merges at once only on a head pipeline that succeeded (immediately_mergeable?); neither is 405,
 * a merge request that cannot merge 422, another head than `sha` 409.
 */
export function mergeWay(state: State, project: Project, mr: MergeRequest, user: User, wantsAuto: boolean, sha: string | undefined, now: number): 'now' | 'auto' {
  if (!canMerge(state, user, project, mr.targetBranch, now)) throw unauthorized();
  const head = diffHeadPipeline(state, mr);
  const automatically = wantsAuto && failedStateCheck(state, project, mr, true) === null && pipelineInProgress(project, head);
  const immediately = wantsAuto ? head?.status === 'success' : failedStateCheck(state, project, mr, false) === null;
  if (!immediately && !automatically) throw notAllowed();
  if (failedMergeCheck(state, project, mr, automatically) !== null) throw cannotMerge();
  if (sha !== undefined && sha !== mr.sha) throw shaMismatch(mr.sha);
  return immediately ? 'now' : 'auto';
}

export interface MergeInput {
  /** The URL the web app lives at, for the templates' `%{url}`. */
  webBase: string;
  sha?: string;
  /** `merge_commit_message`: the merge commit's message instead of the project's template or GitLab's default. */
  mergeCommitMessage?: string;
  /** `squash: true` of the merge: the merge request asks for a squash from then on. */
  squash?: boolean;
  squashCommitMessage?: string;
  removeSourceBranch?: boolean;
  /**
   * MergeStrategies::FromTrainRef: the target moved to this commit, a merge train's (its merge
   * commit, or in a fast-forward project the merge request's commits, squashed as the car asked,
   * rebased onto the target), which stands on the target.
   */
  fastForwardTo?: string;
}

/**
 * MergeRequests::SquashService and Gitaly's UserSquash: nothing to squash in a lone commit
 * without a message of its own (`squash_commit_message`, when not blank; the head is the
 * squash); else the head merged into the diff's start as one commit whose only parent is that
 * start, authored by the merge request's author and committed by the merging user, with that
 * message, else the project's squash commit template filled, else the merge request's title
 * (and a final newline, as git commit-tree adds). A conflict there is a merge that cannot be made.
 */
export async function squashCommit(
  state: State, repo: RepositoryObjects, mr: MergeRequest, head: string, headBase: string, user: User, asked: string | undefined, now: number, webBase: string,
): Promise<string> {
  const message = isBlank(asked) ? undefined : asked;
  if (message === undefined && (await commitsBetween(repo, headBase, head)).length < 2) return head;
  const author = tget(state.users, mr.authorId) ?? user;
  const timestamp = Math.floor(now / 1000);
  const start = mr.startSha;
  const base = await mergeBase(repo, head, [start]);
  const tree = base === null ? null : await mergeTrees(repo, base, start, head);
  if (tree === null) throw cannotMerge();
  const project = tget(state.projects, mr.projectId);
  const text = message ?? (project ? await defaultSquashCommitMessage({ state, repo, project, mr, user, webBase, now }) : mr.title);
  return repo.writeCommit({
    tree,
    parents: [start],
    author: { name: author.name, email: author.email, timestamp, offset: 0 },
    committer: { name: user.name, email: user.email, timestamp, offset: 0 },
    message: text.endsWith('\n') ? text : `${text}\n`,
  });
}

/** Writes the merge commit and gives the change that records it; checks first, as the API does. */
export async function acceptMergeRequest(
  state: State, repo: RepositoryObjects, project: Project, mr: MergeRequest, user: User, input: MergeInput, now: number,
): Promise<(draft: Draft<State>) => MergeRequest> {
  if (!canMerge(state, user, project, mr.targetBranch, now)) throw unauthorized();
  // MergeRequest#mergeable?: open, not a draft, its threads resolved where the project asks it.
  if (mr.state !== 'opened' || mr.draft || !discussionsResolved(state, project, mr)) throw notAllowed();
  const refs = refsOf(state, project.id);
  const head = branchTip(refs, mr.sourceBranch);
  const target = branchTip(refs, mr.targetBranch);
  if (!head || !target) throw cannotMerge();
  if (input.sha !== undefined && input.sha !== head) throw shaMismatch(head);
  const headBase = await mergeBase(repo, head, [target]);
  if (headBase === null) throw cannotMerge();
  // MergeStrategies::FromSourceBranch: what merges is the squash commit when the merge squashes.
  const squash = squashOnMerge(project, input.squash === true || mr.squash);
  const train = input.fastForwardTo;
  const source = train ?? (squash ? await squashCommit(state, repo, mr, head, headBase, user, input.squashCommitMessage, now, input.webBase) : head);
  const base = source === head ? headBase : await mergeBase(repo, source, [target]);
  if (base === null) throw cannotMerge();
  const tree = await mergeTrees(repo, base, target, source);
  if (tree === null) throw cannotMerge();
  const ident = { name: user.name, email: user.email, timestamp: Math.floor(now / 1000), offset: 0 };
  // FfMergeService: a fast-forward project moves the target to the head (no merge commit; the
  // route refused a head that is not on top of the target, `need_rebase`). A train's merge moves
  // it to the train commit, which is the merge commit where the project makes them.
  const fastForward = train !== undefined ? project.settings.merge_method === 'ff' : project.settings.merge_method === 'ff' && base === target;
  // FromSourceBranch#merge_commit_message: the caller's, else the template's or GitLab's default.
  const message = async () => input.mergeCommitMessage ?? defaultMergeCommitMessage({ state, repo, project, mr, user, webBase: input.webBase, now });
  const sha = train ?? (fastForward ? source : await repo.writeCommit({ tree, parents: [target, source], author: ident, committer: ident, message: await message() }));
  // The squash a train merged: its commit's, the train commit's second parent where it made a merge commit.
  const squashed = train !== undefined && squash && !fastForward ? ((await repo.readCommit(train)).parents[1] ?? train) : source;
  const removeSource = input.removeSourceBranch ?? mr.removeSourceBranch;
  const remove = removeSource && mr.sourceBranch !== defaultBranchName(project) ? deleteBranch(state, project, user, mr.sourceBranch, now) : null;
  return (draft) => {
    moveBranch(project.id, mr.targetBranch, target, sha, now)(draft);
    if (remove) remove(draft);
    // As the merge request is now (a note's other commands may have changed it since the checks).
    const current = (pget(draft.mergeRequests, project.id, mr.iid) as MergeRequest | undefined) ?? mr;
    const done: MergeRequest = { ...current, state: 'merged', mergedAt: now, mergedById: user.id, mergeCommitSha: fastForward ? null : sha, updatedAt: now };
    putMergeRequest(draft, project, done, current);
    recordMergeRequestChanges(draft, current, done, user.id, now);
    const merged = keepClosingIssues(draft, project, done);
    closeIssuesOnMerge(draft, project, merged, user, now);
    if (!squash && input.squash !== true) return merged;
    // The model's own updates (the squash the merge asked for, the commit it merged): no hook reports them.
    const stored: MergeRequest = { ...merged, squash: input.squash === true || merged.squash, ...(squash ? { squashCommitSha: squashed } : {}) };
    pset(draft.mergeRequests, project.id, mr.iid, stored);
    return stored;
  };
}

/**
 * MergeRequests::PostMergeService#close_issues, for a merge through the API or by a push: the
 * issues the merged request closes that the merging user may read, and whose projects close them.
 */
export function closeIssuesOnMerge(draft: Draft<State>, project: Project, mr: MergeRequest, user: User, now: number): void {
  for (const issue of visibleClosingIssues(draft as State, project, mr, user, now)) {
    if (issue.state === 'opened') {
      putIssue(draft, { ...issue, state: 'closed', closedAt: now, closedById: user.id, updatedAt: now });
      // Issues::CloseService closed_via the merge request: a state event that names it.
      recordEvent(draft, 'state', { type: 'Issue', id: issue.id }, user.id, now, { state: 'closed', sourceCommit: null, sourceMergeRequestId: mr.id });
    }
  }
}
