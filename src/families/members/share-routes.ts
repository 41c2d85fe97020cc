// Sharing a project or a group with a group (lib/api/projects.rb and groups.rb `:id/share`,
// Projects::GroupLinks::CreateService, Groups::GroupLinks::CreateService): the invited group's
// members get at most `group_access` in what is shared.
import { forbidden, notFound } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { date, int } from '../../http/params.js';
import { created, noContent } from '../../http/route.js';
import { canReadGroup, isWithin } from '../../policy/access.js';
import { removeShare, setShare, shareOf, type GroupShare } from '../../store/members.js';
import { coreIds, type Namespace, type Project, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { groupDetail } from '../groups/index.js';
import { group, project, route, type Change } from '../define.js';
import type { State } from '../world.js';
import { projectShareEntity } from './entity.js';
import { shareNotFound, shareTaken } from './errors.js';
import { canAdminMembers, checkGrant, type Source } from './rules.js';

const SHARE_LEVELS = [10, 15, 20, 30, 40, 50] as const;
const GROUP_SHARE_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

/** The invited group, if the caller may see it. */
function invitedGroup(state: State, user: User, id: number, now: number): Namespace | undefined {
  const g = tget(state.namespaces, id);
  return g && g.kind === 'group' && canReadGroup(state, user, g, now) ? g : undefined;
}

/** A new share, or a changed one. */
export function shareWith(source: Source, groupId: number, groupAccess: number, expiresAt: string | null, now: number): Change<GroupShare> {
  return (draft) => {
    const share: GroupShare = { id: coreIds.next(draft as State, 'group_link'), groupId, groupAccess, expiresAt, createdAt: now };
    setShare(draft as State, source, share);
    return share;
  };
}

export const shareRoutes = [
  route({
    method: 'POST', path: '/projects/:id/share', auth: 'user', scope: project(),
    params: { group_id: int().required(), group_access: int().required().values(SHARE_LEVELS), expires_at: date() },
    handler: (ctx) => {
      const now = ctx.now();
      const p: Project = ctx.project;
      if (!canAdminMembers(ctx.state, ctx.user, p, now)) throw forbidden();
      const g = invitedGroup(ctx.state, ctx.user!, ctx.params.group_id, now);
      if (!g) throw shareNotFound();
      checkGrant(ctx.state, ctx.user!, p, ctx.params.group_access, now);
      if (shareOf(ctx.state, p, g.id)) throw shareTaken('Group already shared with this group');
      if (isWithin(ctx.state, p.namespaceId, g.id)) throw shareTaken('Project cannot be shared with the group it is in or one of its ancestors.');
      const share = ctx.update(shareWith(p, g.id, ctx.params.group_access, ctx.params.expires_at ?? null, now));
      return created(projectShareEntity(p.id, share));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/share/:group_id', auth: 'user', scope: project(), params: { group_id: int().required() },
    handler: (ctx) => {
      const p = ctx.project;
      if (!canAdminMembers(ctx.state, ctx.user, p, ctx.now())) throw forbidden();
      const share = shareOf(ctx.state, p, ctx.params.group_id);
      if (!share) throw notFound('Group Link');
      checkUnmodifiedSince(ctx, share.createdAt);
      ctx.update((draft) => void removeShare(draft as State, p, share.groupId));
      return noContent();
    },
  }),
  route({
    method: 'POST', path: '/groups/:id/share', auth: 'user', scope: group(),
    params: { group_id: int().required(), group_access: int().required().values(GROUP_SHARE_LEVELS), expires_at: date() },
    handler: (ctx) => {
      const now = ctx.now();
      const shared = ctx.group;
      const target = tget(ctx.state.namespaces, ctx.params.group_id);
      if (!target || target.kind !== 'group' || !canReadGroup(ctx.state, ctx.user, target, now)) throw notFound('Group');
      // Groups::GroupLinks::CreateService: Owners of the shared group, who may read the invited one.
      if (!canAdminMembers(ctx.state, ctx.user, shared, now)) throw shareNotFound();
      if (shareOf(ctx.state, shared, target.id)) throw shareTaken('Shared with group has already been taken');
      if (target.id === shared.id) throw shareTaken('Shared with group cannot be the same as the shared group');
      ctx.update(shareWith(shared, target.id, ctx.params.group_access, ctx.params.expires_at ?? null, now));
      const after = tget(ctx.state.namespaces, shared.id)!;
      return created(groupDetail(ctx.state, after, ctx));
    },
  }),
  route({
    method: 'DELETE', path: '/groups/:id/share/:group_id', auth: 'user', scope: group(), params: { group_id: int().required() },
    handler: (ctx) => {
      const shared = ctx.group;
      if (!canAdminMembers(ctx.state, ctx.user, shared, ctx.now())) throw forbidden();
      const share = shareOf(ctx.state, shared, ctx.params.group_id);
      if (!share) throw notFound();
      ctx.update((draft) => void removeShare(draft as State, shared, share.groupId));
      return noContent();
    },
  }),
];
