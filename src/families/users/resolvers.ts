// The users the routes of lib/api/users.rb act on, declared as their subject (`subject:`):
// `authenticated_as_admin!` then the user by id, or `find_user` (an id or a username) among
// the users the caller may see. Each answers GitLab's 404 User Not Found.
import { forbidden, unauthorized } from '../../core/errors.js';
import type { User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { subject, type Ability, type Context } from '../define.js';
import { canReadProfile } from './entity.js';
import { notAuthorized, userNotFound } from './errors.js';
import { findUserByIdOrUsername } from './rules.js';

/** An administrator, else 403 (401 when anonymous): `authenticated_as_admin!`. */
export function requireAdmin(ctx: Context): User {
  if (!ctx.user) throw unauthorized();
  if (!ctx.user.admin) throw forbidden();
  return ctx.user;
}

export function userOr404(ctx: Context, id: number): User {
  const user = tget(ctx.state.users, id);
  if (!user) throw userNotFound();
  return user;
}

/** The caller is the user, or an administrator. */
export const selfOrAdmin = (viewer: User | null, user: User): boolean => !!viewer && (viewer.admin || viewer.id === user.id);

/** `read_user`: every user but a blocked, banned or pending one; those only to themselves and administrators. */
export function canReadUser(viewer: User | null, user: User): boolean {
  const hidden = user.state === 'blocked' || user.state === 'banned' || user.state === 'blocked_pending_approval';
  return !hidden || selfOrAdmin(viewer, user);
}

/** `find_user` of an id or a username, among the users the caller may read; else 404. */
function visibleUserOf(ctx: Context, idOrName: string): User {
  const user = findUserByIdOrUsername(ctx.state, idOrName);
  if (!user || !canReadUser(ctx.user, user)) throw userNotFound();
  return user;
}

/** `authenticated_as_admin!`, then the user whose id is `:param`. */
export const adminUser = <N extends string>(param: N) =>
  subject<User, Record<N, number>>((ctx) => {
    requireAdmin(ctx);
    return userOr404(ctx, ctx.params[param]);
  });

/** The user whose id is `:param`, whoever asks. */
export const userById = <N extends string>(param: N) => subject<User, Record<N, number>>((ctx) => userOr404(ctx, ctx.params[param]));

/** `find_user`: the user `:param` names (an id or a username) if the caller may read them; then each ability. */
export const visibleUser = <N extends string>(param: N, ...abilities: Ability<User>[]) =>
  subject<User, Record<N, number | string>>((ctx) => visibleUserOf(ctx, String(ctx.params[param])), ...abilities);

/** As `visibleUser`, for a signed-in caller only: 403 Not authorized! to anyone else first. */
export const visibleUserToSignedIn = <N extends string>(param: N, ...abilities: Ability<User>[]) =>
  subject<User, Record<N, number | string>>((ctx) => {
    if (!ctx.user) throw notAuthorized();
    return visibleUserOf(ctx, String(ctx.params[param]));
  }, ...abilities);

/** A user whose profile is private shows it to themselves and administrators only: anyone else is told 404. */
export const readsProfile: Ability<User> = (_state, viewer, user) => {
  if (!canReadProfile(viewer, user)) throw userNotFound();
  return true;
};
