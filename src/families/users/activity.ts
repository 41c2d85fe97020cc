// Users::ActivityService: using the API marks the caller active for the day (last_activity_on,
// and current_sign_in_at as the spec lists it), at most one write per user per day, so reads
// that follow on the same day leave the world (and its cached answers) alone. The token used
// records when (PersonalAccessTokens::LastUsedService), at most once in ten minutes.
import { today } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';

const LAST_USED_EVERY_MS = 10 * 60_000;

export function recordActivity(ctx: Context): void {
  recordTokenUse(ctx);
  const user = ctx.user;
  if (!user || user.state !== 'active') return;
  const now = ctx.now();
  const day = today(now);
  if (user.lastActivityOn === day) return;
  // The caller may be gone (a request that deleted itself) or changed by the handler.
  const current = tget(ctx.state.users, user.id);
  if (!current || current.lastActivityOn === day) return;
  ctx.update((draft) => {
    const u = tget(draft.users, user.id)!;
    u.lastActivityOn = day;
    u.currentSignInAt = now;
  });
}

function recordTokenUse(ctx: Context): void {
  const token = ctx.caller.token;
  if (!token || token.kind === 'job' || token.kind === 'oauth') return;
  const now = ctx.now();
  const current = tget(ctx.state.tokens, token.token);
  if (!current || (current.lastUsedAt != null && now - current.lastUsedAt < LAST_USED_EVERY_MS)) return;
  ctx.update((draft) => {
    const t = tget(draft.tokens, token.token);
    if (t) t.lastUsedAt = now;
  });
}
