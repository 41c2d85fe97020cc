// The instance: GET /version and /metadata (lib/api/metadata.rb), and a small GraphQL endpoint
// at /api/graphql (the application settings are their own family's).
import { projectByIdOrPath, projectFullPath } from '../../policy/paths.js';
import { canReadProject } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { any } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { isHash } from '../../http/request-params.js';
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { route, type Context } from '../define.js';
import { GraphqlFailure, execute, parseOperation, type ObjectType } from './graphql.js';
import { metadata } from './metadata.js';

const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;

function schema(ctx: Context<unknown>): ObjectType<null> {
  const user: ObjectType<User> = {
    name: 'UserCore',
    fields: {
      id: { resolve: (u) => gid('User', u.id) },
      username: { resolve: (u) => u.username },
      name: { resolve: (u) => u.name },
      state: { resolve: (u) => u.state },
      bot: { resolve: (u) => u.bot },
      publicEmail: { resolve: (u) => u.publicEmail },
      webUrl: { resolve: (u) => `${ctx.webBase}/${u.username}` },
      webPath: { resolve: (u) => `/${u.username}` },
      avatarUrl: { resolve: () => null },
    },
  };
  const project: ObjectType<Project> = {
    name: 'Project',
    fields: {
      id: { resolve: (p) => gid('Project', p.id) },
      name: { resolve: (p) => p.name },
      path: { resolve: (p) => p.path },
      fullPath: { resolve: (p) => projectFullPath(ctx.state, p) },
      nameWithNamespace: { resolve: (p) => `${tget(ctx.state.namespaces, p.namespaceId)?.name ?? ''} / ${p.name}` },
      description: { resolve: (p) => p.description || null },
      visibility: { resolve: (p) => p.visibility },
      archived: { resolve: (p) => p.archived },
      createdAt: { resolve: (p) => iso(p.createdAt) },
      lastActivityAt: { resolve: (p) => iso(p.lastActivityAt) },
      starCount: { resolve: (p) => p.starCount },
      webUrl: { resolve: (p) => `${ctx.webBase}/${projectFullPath(ctx.state, p)}` },
    },
  };
  const meta: ObjectType<ReturnType<typeof metadata>> = {
    name: 'Metadata',
    fields: {
      version: { resolve: (m) => m.version },
      revision: { resolve: (m) => m.revision },
      enterprise: { resolve: (m) => m.enterprise },
    },
  };
  return {
    name: 'Query',
    fields: {
      currentUser: { type: user, resolve: () => ctx.user },
      project: {
        type: project,
        resolve: (_, args) => {
          const p = typeof args.fullPath === 'string' ? projectByIdOrPath(ctx.state, args.fullPath) : undefined;
          return p && !/^\d+$/.test(String(args.fullPath)) && !p.pendingDelete && canReadProject(ctx.state, ctx.user, p, ctx.now()) ? p : null;
        },
      },
      metadata: { type: meta, resolve: () => (ctx.user ? metadata(ctx.state.instance) : null) },
    },
  };
}

function graphql(ctx: Context<{ query?: unknown; variables?: unknown; operationName?: unknown }>): Reply {
  const { query, operationName } = ctx.params;
  let variables: Record<string, unknown> = {};
  if (typeof ctx.params.variables === 'string' && ctx.params.variables.trim() !== '') {
    try {
      const parsed = JSON.parse(ctx.params.variables) as unknown;
      if (isHash(parsed)) variables = parsed;
    } catch {
      return json({ errors: [{ message: 'Unexpected end of input' }] }, 422);
    }
  } else if (isHash(ctx.params.variables)) variables = ctx.params.variables;
  try {
    if (typeof query !== 'string' || query.trim() === '') throw new GraphqlFailure([{ message: 'No query string was present' }]);
    // GitlabSchema: a depth of 15 for anonymous callers, 20 for signed-in ones.
    const op = parseOperation(query, typeof operationName === 'string' && operationName !== '' ? operationName : undefined, ctx.user ? 20 : 15);
    if (op.kind !== 'query') {
      throw new GraphqlFailure([{ message: `Schema is not configured for ${op.kind}s`, extensions: { code: 'missingTypeForRoot' } }]);
    }
    return json({ data: execute(schema(ctx), null, op.selections, variables, ['query']) });
  } catch (e) {
    if (e instanceof GraphqlFailure) return json({ errors: e.errors });
    throw e;
  }
}

const GRAPHQL_PARAMS = { query: any(), variables: any(), operationName: any() };

export const instanceRoutes = [
  route({ method: 'GET', path: '/metadata', auth: 'user', scopes: ['read_user', 'ai_features'], cacheable: true, handler: (ctx) => json(metadata(ctx.state.instance)) }),
  route({ method: 'GET', path: '/version', auth: 'user', scopes: ['read_user', 'ai_features'], cacheable: true, handler: (ctx) => json(metadata(ctx.state.instance)) }),
  route({ method: 'POST', path: '/api/graphql', surface: 'web', params: GRAPHQL_PARAMS, handler: (ctx) => graphql(ctx) }),
  route({ method: 'GET', path: '/api/graphql', surface: 'web', params: GRAPHQL_PARAMS, handler: (ctx) => graphql(ctx) }),
];

