// Messages git prints after a push lands (Gitlab::Checks::PostPushMessage): GitLab keeps one in
// Redis for five minutes, keyed by the user and the project, and the post-receive of that user's
// next push to that project that lands takes it (PostReceiveService). Here they are kept in the
// world, their expiry on the emulator's clock.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tset } from '../../store/table.js';
import { emit, type PushChange } from '../stream.js';
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

/** Says that a branch or tag moved (on a draft): the `push` event post-receive's workers act on. */
export function recordPush(draft: Draft<State>, push: Omit<PushChange, 'refType'> & { refType?: PushChange['refType'] }): void {
  if (push.before === push.after) return;
  emit(draft, { kind: 'push', refType: 'branch', ...push });
}
