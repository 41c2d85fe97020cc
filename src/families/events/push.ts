// PushEventPayloadService: what a push event says of its push (commit count, the newest commit's
// title, the range), worked out when the push happens, as GitLab stores a PushEventPayload with
// the event. The commits counted are Git::BranchHooksService's: for a new default branch every
// commit of it, for another new branch those its default branch lacks, else those between the
// two tips; a new tag counts its commit.
import { log } from '../../git/history.js';
import { commitsBetween } from '../../git/merge-base.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { tget, tset } from '../../store/table.js';
import { branchTip, defaultBranchName, objectsOf, peelToCommit, refsOf } from '../repositories/index.js';
import type { Context } from '../define.js';
import type { PushChange, StoredEvent } from '../stream.js';
import type { State } from '../world.js';

/** PushEventPayload's fields, by the id of the push event they describe. */
export interface PushPayload {
  commitCount: number;
  commitTitle: string | null;
}

/** Git::BranchHooksService::PROCESS_COMMIT_LIMIT: the commits a new default branch lists. */
const PROCESS_COMMIT_LIMIT = 100;

/** The `push` subscriber: keeps the push's payload for the events API. */
export async function recordPushPayload(ctx: Context<unknown>, e: StoredEvent<'push'>): Promise<void> {
  const project = tget(ctx.state.projects, e.projectId);
  if (!project) return;
  const payload = await describePush(objectsOf(ctx, project), ctx.state, e, defaultBranchName(project));
  ctx.update((draft) => tset((draft as State).pushPayloads, e.id, payload));
}

async function describePush(repo: RepositoryObjects, state: State, push: PushChange, defaultBranch: string): Promise<PushPayload> {
  if (push.after === null) return { commitCount: 0, commitTitle: null };
  if (push.refType === 'tag') {
    const commit = await peelToCommit(repo, push.after);
    return { commitCount: commit ? 1 : 0, commitTitle: commit ? title((await repo.readCommit(commit)).message) : null };
  }
  if (push.before === null && push.ref === defaultBranch) {
    // commit_count_for_ref counts every commit of the branch; repository.commits(newrev, limit: 100)
    // lists them newest first, and the title is the last it lists. One walk gives both.
    const listed = await log(repo, [push.after]);
    const last = listed[Math.min(listed.length, PROCESS_COMMIT_LIMIT) - 1];
    return { commitCount: listed.length, commitTitle: last ? title(last.commit.message) : null };
  }
  const base = push.before ?? branchTip(refsOf(state, push.projectId), defaultBranch) ?? null;
  const commits = base === null ? [push.after] : await commitsBetween(repo, base, push.after);
  const newest = commits[commits.length - 1];
  return { commitCount: commits.length, commitTitle: newest ? title((await repo.readCommit(newest)).message) : null };
}

/** PushEventPayloadService#commit_title: the first line, stripped, truncated to 70 characters as Rails' String#truncate. */
function title(message: string): string {
  const end = message.indexOf('\n');
  const line = (end < 0 ? message : message.slice(0, end + 1)).trim();
  return line.length > 70 ? `${line.slice(0, 67)}...` : line;
}
