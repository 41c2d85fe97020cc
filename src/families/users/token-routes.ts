// Token endpoints: personal access tokens (lib/api/personal_access_tokens.rb and its self_*
// parts, lib/api/users.rb :personal_access_tokens and :impersonation_tokens,
// lib/api/user_personal_access_tokens), project and group access tokens
// (lib/api/resource_access_tokens.rb). The secret is shown only on create and rotate.
import { badRequest, notAllowed, notFound, recordNotFound, unauthorized } from '../../core/errors.js';
import { arr, bool, date, datetime, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { groupAccess, projectAccess } from '../../policy/access.js';
import { ACCESS, type Token, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { group, project, route, subject, type Ability, type Context } from '../define.js';
import { tokenEntity } from './entity.js';
import { adminUser, requireAdmin, userOr404 } from './resolvers.js';
import { tokenById } from './rules.js';
import {
  ALL_SCOPES,
  RESOURCE_SCOPES,
  TOKEN_SORTS,
  findTokens,
  newImpersonationToken,
  newPersonalToken,
  newResourceToken,
  resourceTokens,
  revokeResourceToken,
  revokeToken,
  rotateToken,
  tokenAccessLevel,
  type Resource,
} from './tokens.js';

/** `Array[String]` with `values:`: Grape checks each element against the list. */
const scopesParam = (values: readonly string[]) => arr(str().values(values), { commaSeparated: true });

const LIST_FILTERS = {
  revoked: bool(),
  state: str().values(['active', 'inactive'] as const),
  created_before: datetime(),
  created_after: datetime(),
  last_used_before: datetime(),
  last_used_after: datetime(),
  expires_before: date(),
  expires_after: date(),
  search: str(),
  sort: str(),
};

const isPat = (t: Token | undefined): t is Token => !!t && t.kind !== 'job' && t.kind !== 'oauth';

/** The PersonalAccessToken the request authenticated with, or GitLab's 400. */
function ownToken(ctx: Context): Token {
  const t = ctx.caller.token;
  if (!isPat(t) || ctx.caller.sudoFrom) throw badRequest('This endpoint requires token type to be a personal access token');
  return t;
}

/** `read_user_personal_access_tokens` / `manage_user_personal_access_token`: the owner or an administrator. */
const mayManage = (viewer: User | null, token: Token): boolean => !!viewer && (viewer.admin || token.userId === viewer.id);

/** The token `:id` names if the caller may manage it; else 404 to an administrator, 401 to anyone else. */
const managedToken = subject<Token, { id: number }>((ctx) => {
  const t = tokenById(ctx.state, ctx.params.id);
  if (!t || !mayManage(ctx.user, t)) throw ctx.user!.admin ? notFound() : unauthorized();
  return t;
});

/** The token `:id` names (404 Not found), which only its owner or an administrator may revoke (400). */
const revocable: Ability<Token> = (_state, viewer, t) => {
  if (!mayManage(viewer, t)) throw badRequest('Not permitted to revoke');
  return true;
};
const revocableToken = subject<Token, { id: number }>((ctx) => {
  const t = tokenById(ctx.state, ctx.params.id);
  if (!t) throw recordNotFound();
  return t;
}, revocable);

/** An administrator, the user `:user_id`, and their impersonation token `:impersonation_token_id` (404 Impersonation Token Not Found). */
const impersonationToken = subject<Token, { user_id: number; impersonation_token_id: number }>((ctx) => {
  requireAdmin(ctx);
  const user = userOr404(ctx, ctx.params.user_id);
  const t = tokenById(ctx.state, ctx.params.impersonation_token_id);
  if (!t || t.kind !== 'impersonation' || t.userId !== user.id) throw notFound('Impersonation Token');
  return t;
});

const ACCESS_LEVELS = [ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];

function resourceOfCtx(ctx: Context, kind: 'project' | 'group'): Resource {
  return kind === 'project' ? { kind, record: ctx.project } : { kind, record: ctx.group };
}

/** What the caller's role allows on the resource's tokens: maintainers of projects, owners of groups. */
function levelOn(ctx: Context, r: Resource): number {
  const user = ctx.user!;
  if (user.admin) return ACCESS.owner;
  return r.kind === 'project' ? projectAccess(ctx.state, user, r.record, ctx.now()) : groupAccess(ctx.state, user, r.record, ctx.now());
}
const mayManageResource = (ctx: Context, r: Resource) => levelOn(ctx, r) >= (r.kind === 'project' ? ACCESS.maintainer : ACCESS.owner);

function findResourceToken(ctx: Context, r: Resource, tokenId: string): Token | undefined {
  if (!/^\d+$/.test(tokenId)) return undefined;
  return resourceTokens(ctx.state, r).find((t) => t.id === Number(tokenId));
}

/** The resource's token `:token_id` names, else 404 `<kind> Access Token Not Found`. */
function resourceTokenOr404(ctx: Context<{ token_id: string }>, r: Resource): Token {
  const t = findResourceToken(ctx, r, ctx.params.token_id);
  if (!t) throw notFound(`${r.kind} Access Token`);
  return t;
}

/** The tokens of the scoped project or group, as each route finds and authorizes them. */
function resourceTokenSubjects(kind: 'project' | 'group') {
  type P = { token_id: string };
  return {
    /** Shown to those who manage the resource's tokens (else 401), then found. */
    read: subject<Token, P>((ctx) => {
      const r = resourceOfCtx(ctx, kind);
      if (!mayManageResource(ctx, r)) throw unauthorized();
      return resourceTokenOr404(ctx, r);
    }),
    /** Found, then revoked by those who manage the resource's tokens only (400 naming the bot). */
    revoke: subject<Token, P>((ctx) => {
      const r = resourceOfCtx(ctx, kind);
      const t = resourceTokenOr404(ctx, r);
      if (!mayManageResource(ctx, r)) {
        const bot = tget(ctx.state.users, t.userId);
        throw badRequest(`${ctx.user!.name} cannot delete ${bot?.name ?? 'the bot user'}`);
      }
      return t;
    }),
    /** Rotated by those who manage the resource's tokens, or by the token itself; else 404 to an administrator, 401 to anyone else. */
    rotate: subject<Token, P>((ctx) => {
      const r = resourceOfCtx(ctx, kind);
      const self = ctx.caller.token && String(ctx.caller.token.id) === ctx.params.token_id;
      const t = mayManageResource(ctx, r) || self ? findResourceToken(ctx, r, ctx.params.token_id) : undefined;
      if (!t) throw ctx.user!.admin ? notFound() : unauthorized();
      return t;
    }),
  };
}

function resourceRoutes(kind: 'project' | 'group') {
  const base = kind === 'project' ? '/projects/:id/access_tokens' : '/groups/:id/access_tokens';
  const scope = () => (kind === 'project' ? project() : group());
  const token = resourceTokenSubjects(kind);
  const render = (ctx: Context, r: Resource, t: Token, withToken = false) =>
    tokenEntity(t, ctx.now(), { withToken, accessLevel: tokenAccessLevel(ctx.state, r, t) });
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      scope: scope(),
      paginated: true,
      params: LIST_FILTERS,
      handler: (ctx) => {
        const r = resourceOfCtx(ctx, kind);
        if (!mayManageResource(ctx, r)) throw unauthorized();
        const list = findTokens(ctx.state, { ...ctx.params, impersonation: false }, ctx.now(), resourceTokens(ctx.state, r));
        return json(ctx.paginate(list).map((t) => render(ctx, r, t)));
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:token_id`,
      auth: 'user',
      scope: scope(),
      params: { token_id: str().required() },
      subject: token.read,
      handler: (ctx) => json(render(ctx, resourceOfCtx(ctx, kind), ctx.subject)),
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      scope: scope(),
      params: {
        name: str().required(),
        description: str(),
        expires_at: date(),
        scopes: scopesParam(RESOURCE_SCOPES).required(),
        access_level: int().values(ACCESS_LEVELS).default(ACCESS.maintainer),
      },
      handler: (ctx) => {
        const r = resourceOfCtx(ctx, kind);
        if (ctx.caller.method === 'project' || ctx.caller.method === 'group' || !mayManageResource(ctx, r))
          throw badRequest(`User does not have permission to create ${kind} access token`);
        const host = new URL(ctx.webBase).hostname;
        const token = ctx.update(newResourceToken(ctx.state, r, ctx.user!, levelOn(ctx, r), ctx.params, ctx.now(), host));
        return created(render(ctx, r, token, true));
      },
    }),
    route({
      method: 'DELETE',
      path: `${base}/:token_id`,
      auth: 'user',
      scope: scope(),
      params: { token_id: str().required() },
      subject: token.revoke,
      handler: (ctx) => {
        ctx.update(revokeResourceToken(resourceOfCtx(ctx, kind), ctx.subject));
        return noContent();
      },
    }),
    route({
      method: 'POST',
      path: `${base}/:token_id/rotate`,
      auth: 'user',
      scope: scope(),
      params: { token_id: str().required(), expires_at: date() },
      subject: token.rotate,
      handler: (ctx) => {
        const fresh = ctx.update(rotateToken(ctx.state, ctx.subject, ctx.params.expires_at, ctx.now()));
        return json(render(ctx, resourceOfCtx(ctx, kind), fresh, true));
      },
    }),
  ];
}

export const tokenRoutes = [
  // ---- Personal access tokens ----
  route({
    method: 'GET',
    path: '/personal_access_tokens',
    auth: 'user',
    paginated: true,
    params: { user_id: int(), ...LIST_FILTERS },
    handler: (ctx) => {
      const me = ctx.user!;
      const p = ctx.params;
      if (p.sort !== undefined && !TOKEN_SORTS.includes(p.sort)) delete p.sort;
      if (!me.admin) {
        if (p.user_id !== undefined && p.user_id !== me.id) throw unauthorized();
        return json(ctx.paginate(findTokens(ctx.state, { ...p, user_id: me.id, impersonation: false }, ctx.now())).map((t) => tokenEntity(t, ctx.now())));
      }
      if (p.user_id !== undefined && !tget(ctx.state.users, p.user_id)) throw notFound();
      return json(ctx.paginate(findTokens(ctx.state, p, ctx.now())).map((t) => tokenEntity(t, ctx.now())));
    },
  }),
  route({
    method: 'GET',
    path: '/personal_access_tokens/self',
    auth: 'user',
    scopes: ALL_SCOPES,
    handler: (ctx) => json(tokenEntity(ownToken(ctx), ctx.now())),
  }),
  route({
    method: 'DELETE',
    path: '/personal_access_tokens/self',
    auth: 'user',
    anyMethodScopes: ALL_SCOPES,
    handler: (ctx) => {
      ctx.update(revokeToken(ownToken(ctx)));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/personal_access_tokens/self/rotate',
    auth: 'user',
    anyMethodScopes: ['self_rotate'],
    params: { expires_at: date() },
    handler: (ctx) => {
      const t = ctx.caller.token;
      if (!isPat(t) || ctx.caller.sudoFrom) throw notAllowed();
      const fresh = ctx.update(rotateToken(ctx.state, t, ctx.params.expires_at, ctx.now()));
      return json(tokenEntity(fresh, ctx.now(), { withToken: true }));
    },
  }),
  route({
    method: 'GET',
    path: '/personal_access_tokens/:id{[0-9]+}',
    auth: 'user',
    params: { id: int().required() },
    subject: managedToken,
    handler: (ctx) => json(tokenEntity(ctx.subject, ctx.now())),
  }),
  route({
    method: 'DELETE',
    path: '/personal_access_tokens/:id{[0-9]+}',
    auth: 'user',
    params: { id: int().required() },
    subject: revocableToken,
    handler: (ctx) => {
      ctx.update(revokeToken(ctx.subject));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/personal_access_tokens/:id{[0-9]+}/rotate',
    auth: 'user',
    params: { id: int().required(), expires_at: date() },
    subject: managedToken,
    handler: (ctx) => {
      const fresh = ctx.update(rotateToken(ctx.state, ctx.subject, ctx.params.expires_at, ctx.now()));
      return json(tokenEntity(fresh, ctx.now(), { withToken: true }));
    },
  }),
  route({
    method: 'POST',
    path: '/users/:user_id{[0-9]+}/personal_access_tokens',
    auth: 'user',
    params: { user_id: int().required(), name: str().required(), scopes: scopesParam(ALL_SCOPES).required(), expires_at: date(), description: str() },
    subject: adminUser('user_id'),
    handler: (ctx) => {
      const token = ctx.update(newPersonalToken(ctx.state, ctx.subject, ctx.params, ctx.now()));
      return created(tokenEntity(token, ctx.now(), { withToken: true }));
    },
  }),
  route({
    method: 'POST',
    path: '/user/personal_access_tokens',
    auth: 'user',
    params: { name: str().required(), scopes: scopesParam(['k8s_proxy']).required(), expires_at: date(), description: str() },
    handler: (ctx) => {
      const token = ctx.update(newPersonalToken(ctx.state, ctx.user!, ctx.params, ctx.now(), { selfService: true }));
      return created(tokenEntity(token, ctx.now(), { withToken: true }));
    },
  }),

  // ---- Impersonation tokens (administrators) ----
  route({
    method: 'GET',
    path: '/users/:user_id{[0-9]+}/impersonation_tokens',
    auth: 'user',
    paginated: true,
    params: { user_id: int().required(), state: str().values(['all', 'active', 'inactive'] as const).default('all') },
    subject: adminUser('user_id'),
    handler: (ctx) => {
      const state = ctx.params.state === 'all' ? undefined : ctx.params.state;
      const list = findTokens(ctx.state, { user_id: ctx.subject.id, state, impersonation: true }, ctx.now());
      return json(ctx.paginate(list).map((t) => tokenEntity(t, ctx.now())));
    },
  }),
  route({
    method: 'POST',
    path: '/users/:user_id{[0-9]+}/impersonation_tokens',
    auth: 'user',
    params: { user_id: int().required(), name: str().required(), expires_at: date(), scopes: arr(str(), { commaSeparated: true }), description: str() },
    subject: adminUser('user_id'),
    handler: (ctx) => {
      const token = ctx.update(newImpersonationToken(ctx.state, ctx.subject, ctx.params, ctx.now()));
      return created(tokenEntity(token, ctx.now(), { withToken: true }));
    },
  }),
  ...(['GET', 'DELETE'] as const).map((method) =>
    route({
      method,
      path: '/users/:user_id{[0-9]+}/impersonation_tokens/:impersonation_token_id{[0-9]+}',
      auth: 'user',
      params: { user_id: int().required(), impersonation_token_id: int().required() },
      subject: impersonationToken,
      handler: (ctx) => {
        if (method === 'GET') return json(tokenEntity(ctx.subject, ctx.now()));
        ctx.update(revokeToken(ctx.subject));
        return noContent();
      },
    }),
  ),
  ...resourceRoutes('project'),
  ...resourceRoutes('group'),
];
