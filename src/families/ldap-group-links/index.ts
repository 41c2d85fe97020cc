// A group's LDAP group links (ee/lib/api/ldap_group_links.rb, Entities::LdapGroupLink): owners link
// an LDAP group (by `cn` or by `filter`) of a provider to an access level, list and remove them.
// The emulator has no LDAP server, so a sync is refused as GitLab refuses it without LDAP.
import { messageError, notFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { hasGroupRole } from '../../policy/access.js';
import { emptyTable, plist, pset, pdel, tdel, type Partitioned } from '../../store/table.js';
import { ACCESS, sequences, type Namespace, type User } from '../../store/state.js';
import { defineFamily, group, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface LdapGroupLink {
  id: number;
  provider: string;
  cn: string | null;
  filter: string | null;
  groupAccess: number;
  memberRoleId: number | null;
}

export interface LdapGroupLinksSlice {
  /** Group id -> its LDAP group links by id. */
  ldapGroupLinks: Partitioned<LdapGroupLink>;
}

declare module '../world.js' {
  interface Slices extends LdapGroupLinksSlice {}
}

const ids = sequences(['ldap_group_link']);

/** `admin_ldap_group_links`: owners. */
const canAdmin = (state: State, user: User | null, g: Namespace, now: number) => hasGroupRole(state, user, g, ACCESS.owner, now);

const entity = (l: LdapGroupLink) => ({ cn: l.cn, group_access: l.groupAccess, provider: l.provider, filter: l.filter, member_role_id: l.memberRoleId });

const LEVELS = [ACCESS.minimal, ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];

/** LdapFilterValidator: a parenthesised LDAP filter. */
const FILTER = /^\(.*\)$/s;

function links(ctx: Context<unknown>): LdapGroupLink[] {
  return plist(ctx.state.ldapGroupLinks, ctx.group.id).sort((a, b) => a.id - b.id);
}

function remove(ctx: Context<unknown>, match: (l: LdapGroupLink) => boolean): Reply {
  const found = links(ctx).find(match);
  if (!found) throw notFound('LDAP group link');
  const groupId = ctx.group.id;
  ctx.update((draft) => void pdel((draft as State).ldapGroupLinks, groupId, found.id));
  return noContent();
}

const BASE = '/groups/:id/ldap_group_links';
const scope = group(canAdmin);

const routes = [
  route({
    method: 'GET', path: BASE, tier: 'premium', auth: 'user', scope,
    handler: (ctx): Reply => {
      const all = links(ctx);
      if (all.length === 0) throw messageError(404, 'No linked LDAP groups found');
      return json(all.map(entity));
    },
  }),
  route({
    method: 'POST', path: BASE, tier: 'premium', auth: 'user', scope,
    params: { group_access: int().required().values(LEVELS), provider: str().required(), cn: str(), filter: str(), member_role_id: int() },
    constraints: [{ kind: 'exactly_one_of', names: ['cn', 'filter'] }],
    handler: (ctx): Reply => {
      const p = ctx.params;
      if (p.filter !== undefined && !FILTER.test(p.filter)) throw messageError(409, 'Filter must be a valid filter');
      if (links(ctx).some((l) => l.provider === p.provider && (p.cn !== undefined ? l.cn === p.cn : l.filter === p.filter))) {
        throw messageError(409, p.cn !== undefined ? 'Cn has already been taken' : 'Filter has already been taken');
      }
      const groupId = ctx.group.id;
      const link = ctx.update((draft) => {
        const l: LdapGroupLink = { id: ids.next(draft as State, 'ldap_group_link'), provider: p.provider, cn: p.cn ?? null, filter: p.filter ?? null, groupAccess: p.group_access, memberRoleId: p.member_role_id ?? null };
        pset((draft as State).ldapGroupLinks, groupId, l.id, l);
        return l;
      });
      return created(entity(link));
    },
  }),
  route({
    method: 'DELETE', path: BASE, tier: 'premium', auth: 'user', scope, params: { provider: str().required(), cn: str(), filter: str() },
    constraints: [{ kind: 'exactly_one_of', names: ['cn', 'filter'] }],
    handler: (ctx): Reply => remove(ctx, (l) => l.provider === ctx.params.provider && (ctx.params.cn !== undefined ? l.cn === ctx.params.cn : l.filter === ctx.params.filter)),
  }),
  route({
    method: 'DELETE', path: `${BASE}/:cn`, tier: 'premium', auth: 'user', scope, params: { cn: str().required() },
    handler: (ctx): Reply => remove(ctx, (l) => l.cn === ctx.params.cn),
  }),
  route({
    method: 'DELETE', path: `${BASE}/:provider/:cn`, tier: 'premium', auth: 'user', scope, params: { provider: str().required(), cn: str().required() },
    handler: (ctx): Reply => remove(ctx, (l) => l.provider === ctx.params.provider && l.cn === ctx.params.cn),
  }),
  route({
    // Gitlab::Auth::Ldap::Config.group_sync_enabled? is false: there is no LDAP server to sync with.
    method: 'POST', path: '/groups/:id/ldap_sync', tier: 'premium', auth: 'user', scope,
    handler: (): Reply => {
      throw notFound();
    },
  }),
];

export const ldapGroupLinks: Family<LdapGroupLinksSlice> = defineFamily({
  name: 'ldap-group-links',
  state: () => ({ ldapGroupLinks: emptyTable() }),
  routes,
  forget: { group: (draft, id) => void tdel((draft as State).ldapGroupLinks, id) },
});
