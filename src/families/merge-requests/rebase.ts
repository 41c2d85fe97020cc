// Rebase of a merge request's source branch onto its target (MergeRequest#rebase_async,
// RebaseWorker, MergeRequests::RebaseService) and its merge ref (MergeabilityCheckService,
// MergeToRefService): the rebased commits are written in the request, as Gitaly would write
// them; the branch moves when the worker runs (a task due at once, run before the next
// request), so the answer says `rebase_in_progress: true` as GitLab's does. A conflict leaves
// the branch as it was and says why in `merge_error`.
import type { Draft } from 'immer';
import { messageError } from '../../core/errors.js';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import { mergeTrees } from '../../git/merge-trees.js';
import type { RepositoryObjects } from '../../git/objects.js';
import type { Project, User } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import { defineTask, schedule, type Change } from '../define.js';
import { branchTip, moveBranch, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { save } from './auto-merge.js';
import { failedStateCheck } from './mergeability.js';
import type { MergeRequest } from './records.js';
import { defaultMergeCommitMessage } from './message-generator.js';

/** RebaseService::REBASE_ERROR. */
export const REBASE_ERROR = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';

/** `rebase_async` on a merge request not open, or already rebasing (StaleObjectError, 409). */
export const rebaseNotEnqueued = () => messageError(409, 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.');

const ident = (user: User, now: number) => ({ name: user.name, email: user.email, timestamp: Math.floor(now / 1000), offset: 0 });

/**
 * Replays the source branch's own commits (merges left out, as `git rebase` does) onto the
 * target's tip: each commit's change from its first parent applied by a three-way merge, its
 * author kept, the caller its committer. The new head, or null on a conflict.
 */
export async function rebaseCommits(repo: RepositoryObjects, head: string, onto: string, user: User, now: number): Promise<string | null> {
  const base = await mergeBase(repo, head, [onto]);
  if (base === onto) return head;
  const commits = base === null ? [] : await commitsBetween(repo, base, head);
  let tip = onto;
  for (const sha of commits) {
    const c = await repo.readCommit(sha);
    if (c.parents.length !== 1) continue;
    const tree = await mergeTrees(repo, c.parents[0]!, tip, sha);
    if (tree === null) return null;
    tip = await repo.writeCommit({ tree, parents: [tip], author: c.author, committer: ident(user, now), message: c.message });
  }
  return tip;
}

export const FINISH_REBASE = defineTask<{ projectId: number; iid: number }>('merge_request.rebase', (draft, p, ctx) => {
  const mr = pget(draft.mergeRequests, p.projectId, p.iid) as MergeRequest | undefined;
  const project = tget(draft.projects, p.projectId) as Project | undefined;
  if (!mr?.rebase || !project) return;
  const r = mr.rebase;
  const refs = refsOf(draft as State, p.projectId);
  const tip = branchTip(refs, mr.sourceBranch);
  // The branch moved since (a push won the race), or the replay met a conflict.
  if (r.to === null || tip !== r.from) {
    save(draft, project, mr, { rebase: null, mergeError: REBASE_ERROR });
    return;
  }
  if (r.to === r.from) {
    save(draft, project, mr, { rebase: null, mergeError: null });
    return;
  }
  const from = draft.pendingEvents.length;
  moveBranch(project.id, mr.sourceBranch, r.from, r.to, ctx.now)(draft);
  // Gitaly's UserRebaseConfirmable pushes as the user who asked, with `ci.skip` for `skip_ci`.
  for (const e of draft.pendingEvents.slice(from)) {
    if (e.kind !== 'push') continue;
    e.actorId ??= r.userId;
    if (r.skipCi) e.pushOptions = ['ci.skip'];
  }
  const target = branchTip(refs, mr.targetBranch);
  save(draft, project, mr, {
    rebase: null, mergeError: null, sha: r.to, baseSha: r.onto, startSha: target ?? r.onto,
    mergeStatus: target === r.onto ? 'can_be_merged' : 'unchecked', updatedAt: ctx.now,
  });
});

/** MergeRequest#rebase_async: the rebase written and its worker due now; 409 when one runs or the request is not open. */
export async function startRebase(state: State, repo: RepositoryObjects, project: Project, mr: MergeRequest, user: User, now: number, skipCi = false): Promise<Change<MergeRequest>> {
  if (mr.state !== 'opened' || mr.rebase) throw rebaseNotEnqueued();
  const refs = refsOf(state, project.id);
  const head = branchTip(refs, mr.sourceBranch);
  const onto = branchTip(refs, mr.targetBranch);
  const to = head && onto ? await rebaseCommits(repo, head, onto, user, now) : null;
  return (draft: Draft<State>) => {
    const next = save(draft, project, mr, { rebase: { from: head ?? mr.sha, to, onto: onto ?? mr.startSha, error: to === null ? REBASE_ERROR : null, userId: user.id, ...(skipCi ? { skipCi } : {}) } });
    schedule(draft, FINISH_REBASE, now, { projectId: project.id, iid: mr.iid });
    return next;
  };
}

/** MergeabilityCheckService's message when no merge ref can be made. */
export const notMergeable = () => messageError(400, 'Merge request is not mergeable');

/**
 * MergeToRefService: the merge of the head into the target's tip, at `refs/merge-requests/:iid/merge`,
 * made by the author with the message a merge would have (the template's, else GitLab's default);
 * the one there is kept while both tips are the same. A change that records it, and its SHA.
 */
export async function mergeRef(state: State, repo: RepositoryObjects, project: Project, mr: MergeRequest, now: number, webBase: string): Promise<{ sha: string; change: Change<void> }> {
  const refs = refsOf(state, project.id);
  const head = branchTip(refs, mr.sourceBranch);
  const target = branchTip(refs, mr.targetBranch);
  if (!head || !target || failedStateCheck(state, project, mr, true) === 'not_open') throw notMergeable();
  if (mr.mergeRefSha) {
    const kept = await repo.readCommit(mr.mergeRefSha);
    if (kept.parents[0] === target && kept.parents[1] === head) return { sha: mr.mergeRefSha, change: () => {} };
  }
  const base = await mergeBase(repo, head, [target]);
  const tree = base === null ? null : await mergeTrees(repo, base, target, head);
  if (tree === null) throw notMergeable();
  const author = tget(state.users, mr.authorId);
  const who = { name: author?.name ?? 'GitLab', email: author?.email ?? 'noreply@gitlab.example.com', timestamp: Math.floor(now / 1000), offset: 0 };
  // MessageGenerator's user: the one who set auto-merge (merge_user), else the author the service runs as.
  const merger = (mr.autoMerge ? tget(state.users, mr.autoMerge.userId) : undefined) ?? author ?? null;
  const message = await defaultMergeCommitMessage({ state, repo, project, mr, user: merger, webBase, now });
  const sha = await repo.writeCommit({ tree, parents: [target, head], author: who, committer: who, message });
  return { sha, change: (draft) => void save(draft, project, mr, { mergeRefSha: sha }) };
}
