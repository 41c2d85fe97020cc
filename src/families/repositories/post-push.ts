// Messages git prints after a push lands (Gitlab::Checks::PostPushMessage): GitLab keeps one in
// Redis for five minutes, keyed by the user and the project, and the post-receive of that user's
// next push to that project that lands takes it (PostReceiveService). Here they are kept in the
// world, their expiry on the emulator's clock.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tset } from '../../store/table.js';
import type { BranchPush, Context } from '../define.js';
import type { State } from '../world.js';

/** How long a message waits for its push (PostPushMessage#add_message: `setex(key, 5.minutes)`). */
export const POST_PUSH_MESSAGE_TTL = 5 * 60_000;

/** Gitlab::Checks::ProjectCreated's key. */
export const projectCreatedKey = (userId: number, projectId: number) => `project_created:${userId}:${projectId}`;

/** Keeps a message for the next push that lands (on a draft). */
export function addPostPushMessage(draft: Draft<State>, key: string, message: string, now: number): void {
  tset((draft.postPushMessages ??= emptyTable()), key, { message, expiresAt: now + POST_PUSH_MESSAGE_TTL });
}

/** The message kept under `key`, if it has not expired, taken (on a draft): `fetch_message` reads and deletes it. */
export function takePostPushMessage(draft: Draft<State>, key: string, now: number): string | null {
  const table = draft.postPushMessages;
  const kept = table ? tget(table, key) : undefined;
  if (!kept) return null;
  tdel(table!, key);
  return kept.expiresAt > now ? kept.message : null;
}

/** Notes a branch move for the families' post-receive work (on a draft); `takeBranchPushes` hands them over. */
export function recordBranchPush(draft: Draft<State>, push: BranchPush): void {
  if (push.before === push.after) return;
  (draft.pendingPushes ??= []).push(push);
}

/** The branch moves of this request so far, oldest first, left in the world. */
export function pendingBranchPushes(ctx: Context<unknown>): readonly BranchPush[] {
  return ctx.state.pendingPushes ?? [];
}

/** The branch moves of this request, oldest first, taken out of the world. */
export function takeBranchPushes(ctx: Context<unknown>): readonly BranchPush[] {
  const pending = ctx.state.pendingPushes;
  if (!pending || pending.length === 0) return [];
  ctx.update((draft) => {
    draft.pendingPushes = [];
  });
  return pending;
}
