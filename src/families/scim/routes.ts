// The group SCIM API (ee/lib/api/scim/group_scim.rb), on the SCIM surface: /api/scim/v2/groups/:group/Users.
// Hosted offering, higher tiers. A group's SCIM token (Bearer) is the credential.
import { unauthorized } from '../../core/errors.js';
import { any, int, str } from '../../http/params.js';
import { noContent, type Reply } from '../../http/route.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import type { Namespace } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { route, type Context } from '../define.js';
import {
  SCIM_LIST,
  SCIM_USER,
  deprovision,
  findIdentity,
  patchAttributes,
  provision,
  resourceAttributes,
  rubyInspect,
  scimFailure,
  scimNotFound,
  searchIdentities,
  updateIdentity,
  type Provisioned,
} from './rules.js';

const CONTENT_TYPE = 'application/scim+json';
const scim = (body: unknown, status = 200): Reply => ({ status, body, contentType: CONTENT_TYPE });

/** EE::API::Entities::Scim::User. */
const userEntity = (p: Provisioned) => ({
  schemas: [SCIM_USER],
  id: p.externUid,
  active: p.active,
  'name.formatted': p.user.name,
  userName: p.user.username,
  meta: { resourceType: 'User' },
  emails: [{ type: 'work', value: p.user.email, primary: true }],
});

/** find_and_authenticate_group!: the group (404 in SCIM's envelope), then its token (401). */
function authenticatedGroup(ctx: Context, path: string): Namespace {
  const group = namespaceByIdOrPath(ctx.state, path);
  if (!group || group.kind !== 'group') throw scimNotFound(`Group ${path} not found`);
  const tokens = ctx.state.scimTokens;
  let configured = false;
  for (const id of tvalues(tokens)) if (id === group.id) configured = true;
  if (!configured) throw scimNotFound(`Group ${path} does not have SAML SSO configured`);
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.request.headers.get('authorization') ?? '');
  const given = m?.[1] ?? (typeof ctx.raw.access_token === 'string' ? ctx.raw.access_token : undefined);
  if (!given || tget(tokens, given) !== group.id) throw unauthorized();
  return group;
}

function identityOr404(ctx: Context, group: Namespace, id: string): Provisioned {
  const p = findIdentity(ctx.state, group, id);
  if (!p) throw scimNotFound(`Resource ${id} not found`);
  return p;
}

const BASE = '/groups/:group/Users';
const common = { surface: 'scim' as const, auth: 'none' as const, tier: 'premium' as const, offering: 'hosted' as const };

/** The request's SCIM resource: every parameter but the path's. */
function bodyOf(ctx: Context): Record<string, unknown> {
  const { group: _g, id: _i, ...rest } = ctx.raw;
  return rest;
}

export const scimRoutes = [
  route({
    ...common,
    method: 'GET',
    path: BASE,
    params: { group: str().required(), filter: str(), startIndex: int(), count: int() },
    handler: (ctx) => {
      const group = authenticatedGroup(ctx, ctx.params.group);
      const all = searchIdentities(ctx.state, group, ctx.params.filter);
      // ScimPagination: 1-based startIndex (below 1 is 1), count at most 100, 20 by default.
      const start = Math.max(1, ctx.params.startIndex ?? 1);
      const count = Math.min(100, Math.max(0, ctx.params.count ?? 20));
      const page = all.slice(start - 1, start - 1 + count);
      return scim({ schemas: [SCIM_LIST], totalResults: all.length, itemsPerPage: count, startIndex: start, Resources: page.map(userEntity) });
    },
  }),
  route({
    ...common,
    method: 'GET',
    path: `${BASE}/:id`,
    params: { group: str().required(), id: str().required() },
    handler: (ctx) => scim(userEntity(identityOr404(ctx, authenticatedGroup(ctx, ctx.params.group), ctx.params.id))),
  }),
  route({
    ...common,
    method: 'POST',
    path: BASE,
    params: { group: str().required(), externalId: any(), userName: any(), emails: any(), name: any(), active: any() },
    handler: (ctx) => {
      const group = authenticatedGroup(ctx, ctx.params.group);
      const body = bodyOf(ctx);
      const made = ctx.update(provision(ctx.state, group, resourceAttributes(body), body, ctx.now()));
      return scim(userEntity(made), 201);
    },
  }),
  route({
    ...common,
    method: 'PATCH',
    path: `${BASE}/:id`,
    params: { group: str().required(), id: str().required(), Operations: any() },
    handler: (ctx) => {
      const group = authenticatedGroup(ctx, ctx.params.group);
      const p = identityOr404(ctx, group, ctx.params.id);
      const body = bodyOf(ctx);
      if (!Array.isArray(ctx.params.Operations)) throw scimFailure(`Error updating ${p.user.name} with ${rubyInspect(body)}`);
      ctx.update(updateIdentity(ctx.state, group, p, patchAttributes(ctx.params.Operations), body, ctx.now()));
      return noContent();
    },
  }),
  route({
    ...common,
    method: 'PUT',
    path: `${BASE}/:id`,
    params: { group: str().required(), id: str().required() },
    handler: (ctx) => {
      const group = authenticatedGroup(ctx, ctx.params.group);
      const p = identityOr404(ctx, group, ctx.params.id);
      const body = bodyOf(ctx);
      const attrs = resourceAttributes(body);
      // A replaced resource keeps its id: the external id changes only through PATCH.
      const change = updateIdentity(ctx.state, group, p, { ...attrs, externUid: undefined }, body, ctx.now());
      ctx.update(change);
      return scim(userEntity(findIdentity(ctx.state, group, p.externUid)!));
    },
  }),
  route({
    ...common,
    method: 'DELETE',
    path: `${BASE}/:id`,
    params: { group: str().required(), id: str().required() },
    handler: (ctx) => {
      const group = authenticatedGroup(ctx, ctx.params.group);
      const p = identityOr404(ctx, group, ctx.params.id);
      ctx.update(deprovision(group, p));
      return noContent();
    },
  }),
];
