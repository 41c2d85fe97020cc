// Cherry-picking and reverting a commit onto a branch (Commits::CherryPickService,
// Commits::RevertService through Commits::ChangeService, Gitaly's UserCherryPick and UserRevert).
import { applyChange } from '../../git/merge3.js';
import type { CommitData, RepositoryObjects } from '../../git/objects.js';
import type { Project, User } from '../../store/state.js';
import type { State } from '../world.js';
import { moveBranch, personOf, type Outcome } from './commit-service.js';
import { changeFailed } from './errors.js';
import { refsOf } from './rules.js';
import { branchTip } from './refs.js';

export type ChangeKind = 'cherry-pick' | 'revert';

export interface ChangeRequest {
  kind: ChangeKind;
  /** The commit picked or reverted. */
  sha: string;
  branch: string;
  /** The message; the commit's cherry_pick_message or revert_message when absent. */
  message?: string;
  dryRun: boolean;
  now: number;
}

const title = (message: string) => (message.trim() === '' ? 'No commit message' : message.split(/[\r\n]/, 1)[0]!);

/** Commit#cherry_pick_message and Commit#revert_message. */
function defaultMessage(kind: ChangeKind, sha: string, c: CommitData): string {
  return kind === 'cherry-pick' ? `${c.message}\n\n(cherry picked from commit ${sha})` : `Revert "${title(c.message).trim()}"\n\nThis reverts commit ${sha}`;
}

/**
 * Applies the commit's change (against its first parent), or its inverse, to the branch tip.
 * A dry run checks and writes nothing; the outcome's sha is then the branch tip.
 */
export async function changeCommit(repo: RepositoryObjects, state: State, project: Project, user: User, req: ChangeRequest): Promise<Outcome | null> {
  const tip = branchTip(refsOf(state, project.id), req.branch)!;
  const commit = await repo.readCommit(req.sha);
  const parentTree = commit.parents[0] ? (await repo.readCommit(commit.parents[0])).tree : null;
  const ours = (await repo.readCommit(tip)).tree;
  const result = req.kind === 'cherry-pick' ? await applyChange(repo, parentTree, commit.tree, ours) : await applyChange(repo, commit.tree, parentTree, ours);
  if ('conflict' in result) throw changeFailed(req.kind, 'conflict', req.dryRun);
  if ('empty' in result) throw changeFailed(req.kind, 'empty', req.dryRun);
  if (req.dryRun) return null;
  const me = personOf(user);
  const ts = Math.floor(req.now / 1000);
  const committer = { name: me.name, email: me.email, timestamp: ts, offset: 0 };
  const sha = await repo.writeCommit({
    tree: result.tree,
    parents: [tip],
    // A cherry-pick keeps the author of the commit it picks; a revert is the user's own.
    author: req.kind === 'cherry-pick' ? commit.author : committer,
    committer,
    message: req.message ?? defaultMessage(req.kind, req.sha, commit),
  });
  return { sha, recipe: moveBranch(project.id, req.branch, tip, sha, req.now) };
}
