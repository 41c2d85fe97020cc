// Resource Access Token Hook (PersonalAccessTokens::ExpiringWorker#execute_web_hooks,
// Gitlab::DataBuilder::ResourceAccessTokenPayload): a project or group access token that expires
// within seven days is told, once, to the hooks of its project or group by the worker's daily run
// (01:00 UTC), on the emulator's clock.
import { tget } from '../../store/table.js';
import { defineTask, schedule, type Context } from '../define.js';
import { emit, type StoredEvent } from '../stream.js';
import { tokenById } from '../users/index.js';
import type { State } from '../world.js';
import { projectHookAttrs, utcTime, type Json } from './payloads.js';
import { groupHooksFor } from './queue.js';
import { send, sendToProject } from './subscribers.js';

const DAY = 86_400_000;
/** The worker's cron: `0 1 * * *`. */
const RUN_AT = 3_600_000;
/** PersonalAccessToken::DAYS_TO_EXPIRE. */
const DAYS_TO_EXPIRE = 7;

/** The first daily run at or after `t`. */
function runAtOrAfter(t: number): number {
  const run = Math.floor(t / DAY) * DAY + RUN_AT;
  return run >= t ? run : run + DAY;
}

const expiryDay = (token: { expiresAt: string }) => Date.parse(`${token.expiresAt}T00:00:00Z`);

/** `expiring_and_not_notified`: still valid, and the day it expires not yet past. */
export const EXPIRING_TOKEN = defineTask<{ tokenId: number }>('hooks.expiring-token', (draft, { tokenId }, { now }) => {
  const token = tokenById(draft as State, tokenId);
  if (!token || token.revoked || token.expiresAt === null || expiryDay(token as { expiresAt: string }) < Math.floor(now / DAY) * DAY) return;
  emit(draft, { kind: 'token.expiring', tokenId });
});

/** A project or group access token made with an expiry: the run that will find it expiring. */
function onTokenCreated(ctx: Context<unknown>, e: StoredEvent<'token.created'>): void {
  if (e.tokenKind !== 'project' && e.tokenKind !== 'group') return;
  const token = tokenById(ctx.state, e.tokenId);
  if (!token || token.expiresAt === null) return;
  const expires = expiryDay(token as { expiresAt: string });
  const at = Math.max(runAtOrAfter(ctx.now()), expires - DAYS_TO_EXPIRE * DAY + RUN_AT);
  if (at <= expires + RUN_AT) ctx.update((draft) => schedule(draft, EXPIRING_TOKEN, at, { tokenId: token.id }));
}

/** The payload, to the project's hooks (and its groups') or the group's (and the groups' above). */
function onTokenExpiring(ctx: Context<unknown>, e: StoredEvent<'token.expiring'>): void {
  const state = ctx.state;
  const token = tokenById(state, e.tokenId);
  if (!token || token.expiresAt === null) return;
  const attributes: Json = { user_id: token.userId, created_at: utcTime(token.createdAt), id: token.id, name: token.name, expires_at: token.expiresAt };
  if (token.projectId !== undefined) {
    const project = tget(state.projects, token.projectId);
    if (!project) return;
    sendToProject(ctx, project.id, 'resource_access_token_hooks', (env) => ({
      object_kind: 'access_token', project: projectHookAttrs(state, project, env.webBase), object_attributes: attributes, event_name: 'expiring_access_token',
    }));
  } else if (token.groupId !== undefined) {
    const group = tget(state.namespaces, token.groupId);
    const hooks = group ? groupHooksFor(state, group.id, 'resource_access_token_hooks', ctx.now()) : [];
    if (!group || hooks.length === 0) return;
    const attrs = { group_name: group.name, group_path: group.path, group_id: group.id, full_path: group.fullPath };
    send(ctx, hooks, 'resource_access_token_hooks', () => ({ object_kind: 'access_token', group: attrs, object_attributes: attributes, event_name: 'expiring_access_token' }));
  }
}

export const tokenSubscribers = {
  'token.created': onTokenCreated,
  'token.expiring': onTokenExpiring,
};
