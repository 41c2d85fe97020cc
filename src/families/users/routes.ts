// The users API (lib/api/users.rb): the list and a user for each kind of caller, the current
// user, and what administrators change: create, modify, delete, states, identities, two-factor,
// memberships, custom attributes.
import { grapeError, notFound, validationFailed } from '../../core/errors.js';
import { COUNT_LIMIT, KEYSET_BY_ID, offsetHeaders, pageRequest } from '../../http/pagination.js';
import { any, bool, datetime, hash, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { pdel, pset, tdel, tentries, tget } from '../../store/table.js';
import type { User } from '../../store/state.js';
import { route, type Context } from '../define.js';
import { userDetails, userDetailsWithAdmin, userListItem, userPublic, userWithAdmin, type UserView } from './entity.js';
import { listForbidden, soleOwner, twoFactorAdmin, twoFactorNotEnabled } from './errors.js';
import { findUsers, findUsersUpTo, type UserFilters, type Viewer } from './finder.js';
import { membershipsOf, soleOwnedGroups } from './memberships.js';
import { adminUser, requireAdmin, visibleUserToSignedIn } from './resolvers.js';
import { identityKey } from './rules.js';
import { storeAvatar } from './avatar.js';
import { changeUser, newUser, scheduleUserDeletion, setState, stateChange, verifiedEmails, type StateAction } from './service.js';

/** `can_read_all_resources?`: an administrator, or an auditor at the higher tiers. */
export function readsAll(ctx: Context): boolean {
  const u = ctx.user;
  return !!u && (u.admin || (u.auditor && ctx.state.instance.tier !== 'free'));
}

export function view(ctx: Context, customAttributes = false): UserView {
  return { webBase: ctx.webBase, state: ctx.state, viewer: ctx.user, now: ctx.now(), customAttributes: customAttributes && readsAll(ctx) };
}

const ORDER_BY = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;

const LIST_PARAMS = {
  username: str(),
  extern_uid: str(),
  provider: str(),
  search: str(),
  active: bool().default(false),
  external: bool().default(false),
  exclude_external: bool().default(false),
  blocked: bool().default(false),
  humans: bool(),
  exclude_humans: bool(),
  exclude_active: bool(),
  created_after: datetime(),
  created_before: datetime(),
  without_projects: bool().default(false),
  exclude_internal: bool().default(false),
  without_project_bots: bool().default(false),
  admins: bool().default(false),
  auditors: bool(),
  two_factor: str(),
  saml_provider_id: int(),
  skip_ldap: bool(),
  custom_attributes: hash(),
  with_custom_attributes: bool().default(false),
  order_by: str().values(ORDER_BY).default('id'),
  sort: str().values(['asc', 'desc'] as const).default('desc'),
  pagination: str().values(['offset', 'keyset'] as const),
  id_after: int(),
  id_before: int(),
};

/** What the admin-only filters of the list are when a non-administrator sends them: dropped. */
const ADMIN_ONLY = ['created_after', 'created_before', 'order_by', 'sort', 'two_factor', 'without_projects', 'custom_attributes', 'auditors', 'saml_provider_id', 'skip_ldap'] as const;

const USER_ATTRIBUTES = {
  skype: str(),
  linkedin: str(),
  twitter: str(),
  discord: str(),
  website_url: str(),
  organization: str(),
  job_title: str(),
  projects_limit: int(),
  extern_uid: str(),
  provider: str(),
  bio: str().nullable(),
  location: str(),
  pronouns: str(),
  public_email: str(),
  commit_email: str(),
  admin: bool(),
  auditor: bool(),
  can_create_group: bool(),
  external: bool(),
  avatar: any(),
  theme_id: int(),
  color_scheme_id: int(),
  private_profile: bool().nullable(),
  note: str(),
  view_diffs_file_by_file: bool(),
  shared_runners_minutes_limit: int().nullable(),
  extra_shared_runners_minutes_limit: int().nullable(),
};

function idParam() {
  return { id: int().required() };
}

const STATE_ACTIONS: StateAction[] = ['block', 'unblock', 'deactivate', 'activate', 'ban', 'unban', 'approve', 'reject'];

export const userRoutes = [
  route({
    method: 'GET',
    path: '/users',
    // Keyset pages by id only: an administrator's order must be `id`, everyone else's is.
    paginated: { keyset: KEYSET_BY_ID },
    scopes: ['read_user'],
    params: LIST_PARAMS,
    handler: (ctx) => {
      const p = ctx.params;
      const hasExtern = p.extern_uid !== undefined && p.extern_uid !== '';
      const hasProvider = p.provider !== undefined && p.provider !== '';
      if (hasExtern !== hasProvider) throw allOrNone();
      if (hasExtern && hasProvider) requireAdmin(ctx);
      const all = readsAll(ctx);
      const filters: UserFilters = { ...p, custom_attributes: p.custom_attributes as Record<string, string> | undefined };
      if (!all) for (const k of ADMIN_ONLY) delete filters[k];
      if (!ctx.user && !(p.username !== undefined && p.username !== '')) throw listForbidden();
      if (filters.auditors && ctx.state.instance.tier === 'free') delete filters.auditors;
      const viewer: Viewer = { user: ctx.user, readsAll: all, admin: !!ctx.user?.admin, tier: ctx.state.instance.tier };
      const v = view(ctx, p.with_custom_attributes);
      const render = (u: User) => (all ? userWithAdmin(u, v) : userListItem(u, v));
      if (!ctx.keyset) {
        // A page, and GitLab's count up to its limit, is all an offset page needs to find.
        const { page, perPage } = pageRequest(p);
        const found = findUsersUpTo(ctx.state, filters, viewer, Math.max(page * perPage, COUNT_LIMIT) + 1);
        if (found.complete) return json(ctx.paginate(found.users).map(render));
        Object.assign(ctx.responseHeaders, offsetHeaders(found.users.length, p, ctx.linkBase));
        return json(found.users.slice((page - 1) * perPage, page * perPage).map(render));
      }
      const sort = all ? p.sort : 'desc';
      const users = findUsers(ctx.state, { ...filters, order_by: 'id', sort }, viewer);
      return json(ctx.paginate(users, { ...p, order_by: all ? p.order_by : 'id', sort }).map(render));
    },
  }),
  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}',
    scopes: ['read_user'],
    params: { ...idParam(), with_custom_attributes: bool().default(false) },
    subject: visibleUserToSignedIn('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const v = view(ctx, ctx.params.with_custom_attributes);
      if (readsAll(ctx)) return json(userDetailsWithAdmin(user, v, highestRole(ctx, user)));
      return json(userDetails(user, v));
    },
  }),
  route({
    method: 'GET',
    path: '/user',
    auth: 'user',
    scopes: ['read_user'],
    handler: (ctx) => {
      const v = view(ctx);
      return json(ctx.user!.admin ? userWithAdmin(ctx.user!, v) : userPublic(ctx.user!, v));
    },
  }),
  route({
    method: 'POST',
    path: '/users',
    auth: 'user',
    params: {
      email: str().required(),
      password: str(),
      reset_password: bool(),
      skip_confirmation: bool(),
      name: str().required(),
      username: str().required(),
      force_random_password: bool(),
      ...USER_ATTRIBUTES,
    },
    constraints: [{ kind: 'at_least_one_of', names: ['password', 'reset_password', 'force_random_password'] }],
    handler: async (ctx) => {
      const admin = requireAdmin(ctx);
      checkAllOrNone(ctx.raw);
      const p = ctx.params;
      // A password reset or a random password wins over a given password; with neither, one is needed.
      if (!p.reset_password && !p.force_random_password && (p.password === undefined || p.password === '')) throw validationFailed({ password: ["can't be blank"] });
      const password = p.reset_password || p.force_random_password ? undefined : p.password;
      const avatar = await storeAvatar(ctx, p.avatar);
      let user = ctx.update(newUser(ctx.state, { ...p, password }, admin, ctx.now()));
      if (avatar) ctx.update(avatar(user)), (user = tget(ctx.state.users, user.id)!);
      return created(userWithAdmin(user, view(ctx)));
    },
  }),
  route({
    method: 'PUT',
    path: '/users/:id{[0-9]+}',
    auth: 'user',
    params: { ...idParam(), email: str(), password: str(), skip_reconfirmation: bool(), name: str(), username: str(), ...USER_ATTRIBUTES },
    subject: adminUser('id'),
    handler: async (ctx) => {
      const user = ctx.subject;
      checkAllOrNone(ctx.raw);
      const { id: _id, ...attrs } = ctx.params;
      // The spec: this endpoint answers 404 even where 409 would fit (a taken email or username).
      if (takenByOther(ctx, user, attrs.email, attrs.username)) throw notFound();
      const avatar = await storeAvatar(ctx, attrs.avatar);
      let updated = ctx.update(changeUser(ctx.state, user, attrs, ctx.user!, ctx.now()));
      if (avatar) ctx.update(avatar(updated)), (updated = tget(ctx.state.users, updated.id)!);
      return json(userWithAdmin(updated, view(ctx)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}',
    auth: 'user',
    params: { ...idParam(), hard_delete: bool() },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      if (!ctx.params.hard_delete && soleOwnedGroups(ctx.state, user.id).length > 0) throw soleOwner();
      ctx.update(scheduleUserDeletion(ctx.state, user, !!ctx.params.hard_delete, ctx.now()));
      return noContent();
    },
  }),
  ...STATE_ACTIONS.map((action) =>
    route({
      method: 'POST',
      path: `/users/:id{[0-9]+}/${action}`,
      auth: 'user',
      params: idParam(),
      subject: adminUser('id'),
      handler: (ctx) => {
        const user = ctx.subject;
        const next = stateChange(user, action, ctx.user!, ctx.now());
        // Users::RejectService deletes the pending user and answers it.
        if (action === 'reject') {
          ctx.update(scheduleUserDeletion(ctx.state, user, true, ctx.now()));
          return json(userListItem(user, view(ctx)), 201);
        }
        if (next === null) return json(null, 201);
        if (next === false) return json(false, 201);
        ctx.update(setState(user, next, ctx.now()));
        return json(action === 'approve' ? { message: 'Success' } : true, 201);
      },
    }),
  ),
  route({
    method: 'PATCH',
    path: '/users/:id{[0-9]+}/disable_two_factor',
    auth: 'user',
    params: idParam(),
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      if (user.admin) throw twoFactorAdmin();
      if (!user.twoFactorEnabled) throw twoFactorNotEnabled();
      ctx.update((draft) => {
        const u = tget(draft.users, user.id)!;
        u.twoFactorEnabled = false;
        u.updatedAt = ctx.now();
      });
      return noContent();
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}/identities/:provider',
    auth: 'user',
    params: { ...idParam(), provider: str().required() },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const identity = tget(ctx.state.identities, user.id) && tget(tget(ctx.state.identities, user.id)!, ctx.params.provider);
      if (!identity) throw notFound('Identity');
      ctx.update((draft) => {
        pdel(draft.identities, user.id, identity.provider);
        const key = identityKey(identity.provider, identity.externUid);
        if (tget(draft.identityOwners, key) === user.id) tdel(draft.identityOwners, key);
      });
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/users/:user_id{[0-9]+}/memberships',
    auth: 'user',
    paginated: true,
    params: { user_id: int().required(), type: str().values(['Project', 'Namespace'] as const) },
    subject: adminUser('user_id'),
    handler: (ctx) => {
      const list = membershipsOf(ctx.state, ctx.subject.id).filter((m) => !ctx.params.type || m.type === ctx.params.type);
      return json(
        ctx.paginate(list).map((m) => ({
          source_id: m.source.id,
          source_name: m.source.name,
          source_type: m.type,
          access_level: m.member.accessLevel,
        })),
      );
    },
  }),
  // Custom attributes (lib/api/custom_attributes_endpoints.rb): administrators only.
  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}/custom_attributes',
    auth: 'user',
    params: idParam(),
    subject: adminUser('id'),
    handler: (ctx) => {
      const t = tget(ctx.state.customAttributes, ctx.subject.id);
      const list = t ? [...tentries(t)].map(([key, value]) => ({ key, value })) : [];
      return json(list.sort((a, b) => (a.key < b.key ? -1 : 1)));
    },
  }),
  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}/custom_attributes/:key',
    auth: 'user',
    params: { ...idParam(), key: str().required() },
    subject: adminUser('id'),
    handler: (ctx) => {
      const t = tget(ctx.state.customAttributes, ctx.subject.id);
      const value = t ? tget(t, ctx.params.key) : undefined;
      if (value === undefined) throw notFound('Custom Attribute');
      return json({ key: ctx.params.key, value });
    },
  }),
  route({
    method: 'PUT',
    path: '/users/:id{[0-9]+}/custom_attributes/:key',
    auth: 'user',
    params: { ...idParam(), key: str().required(), value: str().required() },
    subject: adminUser('id'),
    handler: (ctx) => {
      ctx.update((draft) => pset(draft.customAttributes, ctx.subject.id, ctx.params.key, ctx.params.value));
      return json({ key: ctx.params.key, value: ctx.params.value });
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}/custom_attributes/:key',
    auth: 'user',
    params: { ...idParam(), key: str().required() },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const t = tget(ctx.state.customAttributes, user.id);
      if (!t || tget(t, ctx.params.key) === undefined) throw notFound('Custom Attribute');
      ctx.update((draft) => void pdel(draft.customAttributes, user.id, ctx.params.key));
      return noContent();
    },
  }),
];

/** The user's highest access level over their direct memberships (`highest_role`). */
function highestRole(ctx: Context, user: User): number {
  let level = 0;
  for (const m of membershipsOf(ctx.state, user.id)) level = Math.max(level, m.member.accessLevel);
  return level;
}

/** Whether another user holds the email (primary or confirmed secondary) or the username. */
function takenByOther(ctx: Context, user: User, email: string | undefined, username: string | undefined): boolean {
  if (username !== undefined) {
    const owner = tget(ctx.state.usernames, username.toLowerCase());
    if (owner !== undefined && owner !== user.id) return true;
  }
  if (email === undefined) return false;
  const owner = tget(ctx.state.emailOwners, email.toLowerCase());
  if (owner === undefined || owner === user.id) return false;
  const holder = tget(ctx.state.users, owner);
  return !!holder && verifiedEmails(ctx.state, holder).has(email.toLowerCase());
}

const allOrNone = () => grapeError(400, 'extern_uid, provider provide all or none of parameters');
function checkAllOrNone(raw: Record<string, unknown>): void {
  const given = ['extern_uid', 'provider'].filter((k) => raw[k] !== undefined);
  if (given.length === 1) throw allOrNone();
}
