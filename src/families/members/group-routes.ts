// The group-only member endpoints of the paid tiers (ee/lib/ee/api/members.rb): membership
// state, LDAP overrides, and billable members of a top-level group.
import { badRequest, forbidden, notFound, unprocessable } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { json, noContent } from '../../http/route.js';
import { today } from '../../policy/access.js';
import { membersOf, setMembership, sharesOf, sourceRef, type SourceRef } from '../../store/members.js';
import { ACCESS, type Member, type Namespace, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { fullName } from '../namespaces/index.js';
import { plain, group, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { billableMemberEntity, billableMembershipEntity, memberEntity, type MembershipType } from './entity.js';
import { billableNotRemovable, billableRefused } from './errors.js';
import { viewOf } from './routes.js';
import {
  canAdminMembers, directMemberOr404, hierarchyMemberships, isLastOwner, removeMember, setMemberState, sourceOf, userById,
} from './rules.js';

const BILLABLE_SORTS = [
  'access_level_asc', 'access_level_desc', 'last_joined', 'name_asc', 'name_desc', 'oldest_joined', 'oldest_sign_in', 'recent_sign_in',
  'last_activity_on_asc', 'last_activity_on_desc',
] as const;

interface Billable {
  user: User;
  type: MembershipType;
  level: number;
  joinedAt: number;
}

const TYPE_RANK: Record<MembershipType, number> = { group_member: 0, project_member: 1, group_invite: 2, project_invite: 3 };

/** The groups and projects of a top-level group's hierarchy, as member sources. */
function hierarchy(state: State, top: Namespace): SourceRef[] {
  const groups = new Set<number>();
  for (const ns of tvalues(state.namespaces)) {
    if (ns.kind !== 'group') continue;
    let g: Namespace | undefined = ns;
    while (g && g.id !== top.id) g = g.parentId === null ? undefined : tget(state.namespaces, g.parentId);
    if (g) groups.add(ns.id);
  }
  const out: SourceRef[] = [...groups].map((id) => ({ type: 'namespace', id }));
  for (const p of tvalues(state.projects)) if (groups.has(p.namespaceId)) out.push({ type: 'project', id: p.id });
  return out;
}

/**
 * BilledUsersFinder: the humans with a membership (direct, or through a group invited into the
 * hierarchy) that counts; on Ultimate, Guests take no seat.
 */
export function billableMembers(state: State, top: Namespace, now: number): Map<number, Billable> {
  const t = today(now);
  const out = new Map<number, Billable>();
  const counts = (m: Member) => !(m.expiresAt !== null && m.expiresAt <= t) && m.state !== 'awaiting' && m.accessLevel > ACCESS.minimal;
  const offer = (m: Member, type: MembershipType, level: number) => {
    const user = tget(state.users, m.userId);
    if (!user || user.bot || user.state !== 'active') return;
    const had = out.get(user.id);
    if (!had) return void out.set(user.id, { user, type, level, joinedAt: m.createdAt });
    if (TYPE_RANK[type] < TYPE_RANK[had.type]) had.type = type;
    had.level = Math.max(had.level, level);
    had.joinedAt = Math.min(had.joinedAt, m.createdAt);
  };
  for (const ref of hierarchy(state, top)) {
    for (const m of membersOf(state, ref)) if (counts(m)) offer(m, ref.type === 'project' ? 'project_member' : 'group_member', m.accessLevel);
    for (const share of sharesOf(state, ref)) {
      if (share.expiresAt !== null && share.expiresAt <= t) continue;
      for (const m of membersOf(state, { type: 'namespace', id: share.groupId })) {
        if (counts(m)) offer(m, ref.type === 'project' ? 'project_invite' : 'group_invite', Math.min(m.accessLevel, share.groupAccess));
      }
    }
  }
  if (state.instance.tier === 'ultimate') for (const [id, b] of out) if (b.level <= ACCESS.guest) out.delete(id);
  return out;
}

function sortBillable(list: Billable[], sort: string | undefined): Billable[] {
  const by = (f: (b: Billable) => number | string, dir: 1 | -1) => (a: Billable, b: Billable) => {
    const x = f(a);
    const y = f(b);
    return (x < y ? -dir : x > y ? dir : 0) || a.user.id - b.user.id;
  };
  const signIn = (b: Billable) => b.user.lastSignInAt ?? 0;
  const activity = (b: Billable) => b.user.lastActivityOn ?? '';
  const cmp: Record<string, (a: Billable, b: Billable) => number> = {
    access_level_asc: by((b) => b.level, 1),
    access_level_desc: by((b) => b.level, -1),
    last_joined: by((b) => b.joinedAt, -1),
    oldest_joined: by((b) => b.joinedAt, 1),
    name_asc: by((b) => b.user.name.toLowerCase(), 1),
    name_desc: by((b) => b.user.name.toLowerCase(), -1),
    oldest_sign_in: by(signIn, 1),
    recent_sign_in: by(signIn, -1),
    last_activity_on_asc: by(activity, 1),
    last_activity_on_desc: by(activity, -1),
  };
  return list.sort(cmp[sort ?? ''] ?? ((a, b) => a.user.id - b.user.id));
}

/** Billable members are a top-level group's, for those who administer its members (else 400, as GitLab answers). */
function checkBillable(ctx: Context<unknown>): void {
  if (ctx.group.parentId !== null || !canAdminMembers(ctx.state, ctx.user, ctx.group, ctx.now())) throw billableRefused();
}

function membersUrl(state: State, ref: SourceRef, webBase: string): { id: number; fullName: string; membersUrl: string } {
  if (ref.type === 'namespace') {
    const g = tget(state.namespaces, ref.id)!;
    return { id: g.id, fullName: fullName(state, g), membersUrl: `${webBase}/groups/${g.fullPath}/-/group_members` };
  }
  const p = tget(state.projects, ref.id)!;
  const ns = tget(state.namespaces, p.namespaceId)!;
  return { id: p.id, fullName: `${fullName(state, ns)} / ${p.name}`, membersUrl: `${webBase}/${ns.fullPath}/${p.path}/-/project_members` };
}

const USER_ID = { user_id: int().required() };

export const groupMemberRoutes = [
  route({
    method: 'PUT', path: '/groups/:id/members/:user_id/state', auth: 'user', tier: 'premium', scope: group(),
    params: { ...USER_ID, state: str().required().values(['awaiting', 'active'] as const) },
    handler: (ctx) => {
      if (ctx.group.parentId !== null) throw badRequest();
      if (!canAdminMembers(ctx.state, ctx.user, ctx.group, ctx.now())) throw forbidden();
      userById(ctx.state, ctx.params.user_id);
      const changed = ctx.update(setMemberState(ctx.group, ctx.params.user_id, ctx.params.state, ctx.now()));
      if (changed === 0) throw unprocessable('No memberships found');
      return json({ success: true });
    },
  }),
  ...(['POST', 'DELETE'] as const).map((method) =>
    route({
      method, path: '/groups/:id/members/:user_id/override', auth: 'user', tier: 'premium', scope: group(), params: USER_ID,
      handler: (ctx) => {
        const member = directMemberOr404(ctx.state, ctx.group, ctx.params.user_id, ctx.now());
        // override_group_member: Owners, for members synced from LDAP.
        if (!member.ldap || !canAdminMembers(ctx.state, ctx.user, ctx.group, ctx.now())) throw forbidden();
        const group = ctx.group;
        const updated = ctx.update((draft) => {
          setMembership(draft as State, group, { ...member, override: method === 'POST', updatedAt: ctx.now() });
          return plain(member);
        });
        return json(memberEntity(viewOf(ctx), { ...updated, override: method === 'POST' }, sourceRef(group)));
      },
    }),
  ),
  route({
    method: 'GET', path: '/groups/:id/billable_members', auth: 'user', tier: 'premium', scope: group(), paginated: true,
    params: { search: str(), sort: str().values(BILLABLE_SORTS) },
    handler: (ctx) => {
      checkBillable(ctx);
      const q = ctx.params.search?.toLowerCase();
      const list = [...billableMembers(ctx.state, ctx.group, ctx.now()).values()].filter(
        (b) => !q || b.user.name.toLowerCase().includes(q) || b.user.username.toLowerCase().includes(q) || b.user.publicEmail?.toLowerCase() === q,
      );
      const v = viewOf(ctx);
      return json(ctx.paginate(sortBillable(list, ctx.params.sort)).map((b) => billableMemberEntity(v, b.user, b.type)));
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/billable_members/:user_id/memberships', auth: 'user', tier: 'premium', scope: group(), paginated: true,
    params: USER_ID,
    handler: (ctx) => {
      if (ctx.group.parentId !== null) throw billableRefused();
      if (!canAdminMembers(ctx.state, ctx.user, ctx.group, ctx.now())) throw forbidden();
      const found = hierarchyMemberships(ctx.state, ctx.group, ctx.params.user_id);
      if (!tget(ctx.state.users, ctx.params.user_id) || found.length === 0) throw notFound('User');
      return json(ctx.paginate(found).map(({ ref, member }) => billableMembershipEntity(member, membersUrl(ctx.state, ref, ctx.webBase))));
    },
  }),
  route({
    method: 'DELETE', path: '/groups/:id/billable_members/:user_id', auth: 'user', tier: 'premium', scope: group(), params: USER_ID,
    handler: (ctx) => {
      if (ctx.group.parentId !== null) throw billableRefused();
      if (!canAdminMembers(ctx.state, ctx.user, ctx.group, ctx.now())) throw forbidden();
      const found = hierarchyMemberships(ctx.state, ctx.group, ctx.params.user_id);
      if (found.length === 0) throw billableNotRemovable('Only active billable users can be removed');
      for (const { ref, member } of found) {
        const source = sourceOf(ctx.state, ref);
        if (source && isLastOwner(ctx.state, source, member, ctx.now())) throw billableNotRemovable('Members who are the last owner of a group cannot be removed');
      }
      const refs = found.map((f) => f.ref);
      ctx.update((draft) => {
        for (const ref of refs) {
          const source = sourceOf(draft as State, ref);
          if (source) removeMember(source, ctx.params.user_id, true)(draft);
        }
      });
      return noContent();
    },
  }),
];

