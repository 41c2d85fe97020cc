// Users::ActivityService: using the API marks the caller active for the day (last_activity_on,
// and current_sign_in_at as the spec lists it), at most one write per user per day, so reads
// that follow on the same day leave the world (and its cached answers) alone.
import { today } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';

export function recordActivity(ctx: Context): void {
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
