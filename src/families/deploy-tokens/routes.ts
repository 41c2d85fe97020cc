// lib/api/deploy_tokens.rb: the instance's deploy tokens for administrators, a project's and a
// group's for those who manage them.
import { arr, bool, datetime, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { group, project, route, subject, type Context } from '../define.js';
import { deployTokenEntity, deployTokenWithToken } from './entity.js';
import { deployTokenNotFound } from './errors.js';
import { DEPLOY_TOKEN_SCOPES, type DeployToken } from './records.js';
import {
  canManageGroupTokens, canManageProjectTokens, canReadGroupTokens, createToken, destroyToken, findToken, findTokens, type Owner,
} from './rules.js';

const LIST = { active: bool() };
const CREATE = {
  name: str().required(),
  scopes: arr(str().values(DEPLOY_TOKEN_SCOPES), { commaSeparated: true }).required(),
  expires_at: datetime(),
  username: str(),
};
const TOKEN_ID = { token_id: int().required() };

type OwnerOf = (ctx: Context<unknown>) => Owner;
const projectOwner: OwnerOf = (ctx) => ({ projectId: ctx.project.id });
const groupOwner: OwnerOf = (ctx) => ({ groupId: ctx.group.id });

function ownerRoutes(base: string, ownerOf: OwnerOf, scopeRead: ReturnType<typeof project>, scopeWrite: ReturnType<typeof project>) {
  const ownedToken = subject<DeployToken, { token_id: number }>((ctx) => {
    const t = findToken(ctx.state, ownerOf(ctx), ctx.params.token_id);
    if (!t) throw deployTokenNotFound();
    return t;
  });
  return [
    route({
      method: 'GET', path: `${base}/:id/deploy_tokens`, auth: 'user', scope: scopeRead, paginated: true, params: LIST,
      handler: (ctx) => json(ctx.paginate(findTokens(ctx.state, ownerOf(ctx), ctx.params.active, ctx.now())).map((t) => deployTokenEntity(t, ctx.now()))),
    }),
    route({
      method: 'POST', path: `${base}/:id/deploy_tokens`, auth: 'user', scope: scopeWrite, params: CREATE,
      handler: (ctx) => created(deployTokenWithToken(ctx.update(createToken(ownerOf(ctx), ctx.user!, ctx.params, ctx.now())), ctx.now())),
    }),
    route({
      method: 'GET', path: `${base}/:id/deploy_tokens/:token_id`, auth: 'user', scope: scopeRead, params: TOKEN_ID, subject: ownedToken,
      handler: (ctx) => json(deployTokenEntity(ctx.subject, ctx.now())),
    }),
    route({
      method: 'DELETE', path: `${base}/:id/deploy_tokens/:token_id`, auth: 'user', scope: scopeWrite, params: TOKEN_ID, subject: ownedToken,
      handler: (ctx) => {
        ctx.update(destroyToken(ctx.subject));
        return noContent();
      },
    }),
  ];
}

export const deployTokenRoutes = [
  route({
    method: 'GET', path: '/deploy_tokens', auth: 'admin', paginated: true, params: LIST,
    handler: (ctx) => json(ctx.paginate(findTokens(ctx.state, 'all', ctx.params.active, ctx.now())).map((t) => deployTokenEntity(t, ctx.now()))),
  }),
  ...ownerRoutes('/projects', projectOwner, project(canManageProjectTokens), project(canManageProjectTokens)),
  ...ownerRoutes('/groups', groupOwner, group(canReadGroupTokens), group(canManageGroupTokens)),
];
