// A top-level group's service accounts (ee/lib/api/group_service_accounts.rb,
// Namespaces::ServiceAccounts::CreateService; Premium): bot users the group provisions, made by
// its administrators (owners too when the instance allows) and listed to its owners.
import { messageError, validationFailed } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { hasGroupRole } from '../../policy/access.js';
import { isPathTaken, isValidNamespacePath } from '../../policy/paths.js';
import { tget, tvalues } from '../../store/table.js';
import { ACCESS, randomHex, type User } from '../../store/state.js';
import { defineFamily, group, route, type Family } from '../define.js';
import { createUser, userByEmail } from '../users/index.js';
import type { State } from '../world.js';

const entity = (u: User) => ({ id: u.id, username: u.username, name: u.name, email: u.email });

const BASE = '/groups/:id/service_accounts';

const routes = [
  route({
    method: 'POST', path: BASE, tier: 'premium', auth: 'user', scope: group(), params: { name: str(), username: str(), email: str() },
    handler: (ctx): Reply => {
      const g = ctx.group;
      // Only administrators on a self-managed instance (the owners' setting is off by default), and only for a top-level group.
      if (!ctx.user!.admin || g.parentId !== null) throw messageError(403, '403 Forbidden - User does not have permission to create a service account in this namespace.');
      const p = ctx.params;
      const host = new URL(ctx.webBase).hostname;
      if (p.username !== undefined) {
        if (!isValidNamespacePath(p.username)) throw validationFailed({ username: ['is invalid'] });
        if (tget(ctx.state.usernames, p.username.toLowerCase()) !== undefined || isPathTaken(ctx.state, p.username)) throw messageError(400, 'Username has already been taken');
      }
      if (p.email !== undefined && userByEmail(ctx.state, p.email)) throw messageError(400, 'Email has already been taken');
      const now = ctx.now();
      const user = ctx.update((draft) => {
        const d = draft as State;
        const suffix = randomHex(d, 32);
        const username = p.username ?? `service_account_group_${g.id}_${suffix}`;
        const made = createUser(d, {
          username, name: p.name ?? 'Service account user', email: p.email ?? `${username}@noreply.${host}`, user_type: 'service_account', bot: true,
          created_by_id: ctx.user!.id,
        }, now);
        const rec = tget(d.users, made.id)!;
        rec.provisionedByGroupId = g.id;
        return { ...made, provisionedByGroupId: g.id };
      });
      return created(entity(user));
    },
  }),
  route({
    method: 'GET', path: BASE, tier: 'premium', auth: 'user', scope: group((state, user, g, now) => hasGroupRole(state, user, g, ACCESS.owner, now)), paginated: true,
    params: { order_by: str().values(['id', 'username'] as const).default('id'), sort: str().values(['asc', 'desc'] as const).default('desc') },
    handler: (ctx): Reply => {
      const list = [...tvalues(ctx.state.users)].filter((u) => u.userType === 'service_account' && u.provisionedByGroupId === ctx.group.id);
      const dir = ctx.params.sort === 'asc' ? 1 : -1;
      list.sort((a, b) => (ctx.params.order_by === 'username' ? (a.username < b.username ? -dir : dir) : (a.id - b.id) * dir));
      return json(ctx.paginate(list).map(entity));
    },
  }),
];

export const serviceAccounts: Family = defineFamily({ name: 'service-accounts', routes });
