// lib/api/custom_attributes_endpoints.rb, mounted on users, projects and groups: administrators
// list, read, set and delete a resource's custom attributes (404 for a resource not found, 403
// for anyone else, as `authorize! :read_custom_attribute` has it).
import { notFound } from '../../core/errors.js';
import { str, type ParamSpec } from '../../http/params.js';
import { json, noContent } from '../../http/route.js';
import { forbidden } from '../../core/errors.js';
import type { Scope } from '../../http/route.js';
import type { User } from '../../store/state.js';
import { findUserByIdOrUsername } from '../users/index.js';
import { group, project, route, subject, type Context } from '../define.js';
import { attributesOf, deleteAttribute, findAttribute, isAdmin, setAttribute, type Kind } from './rules.js';

const KEY = { key: str().required() };

/** `find_by!(key:)`: ActiveRecord::RecordNotFound. */
function found(ctx: Context<unknown>, kind: Kind, id: number, key: string) {
  const a = findAttribute(ctx.state, kind, id, key);
  if (!a) throw notFound();
  return a;
}

/** `find_user(params[:id])` (an id or a username; 404 User Not Found), then `authorize! :read_custom_attribute`. */
const attributedUser = subject<User>((ctx) => {
  const user = findUserByIdOrUsername(ctx.state, String((ctx.params as { id: string }).id));
  if (!user) throw notFound('User');
  if (!ctx.user?.admin) throw forbidden();
  return user;
});

function endpoints(kind: Kind, base: string, target: { scope?: Scope; subject?: typeof attributedUser }, idOf: (ctx: Context<unknown, never>) => number) {
  // A user is named by `:id` (an id or a username); a project or group by its scope.
  const USER_ID: ParamSpec = kind === 'user' ? { id: str().required() } : {};
  return [
    route({
      method: 'GET', path: `${base}/:id/custom_attributes`, auth: 'user', ...target, params: { ...USER_ID },
      handler: (ctx) => json(attributesOf(ctx.state, kind, idOf(ctx as never))),
    }),
    route({
      method: 'GET', path: `${base}/:id/custom_attributes/:key`, auth: 'user', ...target, params: { ...USER_ID, ...KEY },
      handler: (ctx) => json(found(ctx, kind, idOf(ctx as never), ctx.params.key)),
    }),
    route({
      method: 'PUT', path: `${base}/:id/custom_attributes/:key`, auth: 'user', ...target, params: { ...USER_ID, ...KEY, value: str().required() },
      handler: (ctx) => json(ctx.update(setAttribute(kind, idOf(ctx as never), ctx.params.key, ctx.params.value))),
    }),
    route({
      method: 'DELETE', path: `${base}/:id/custom_attributes/:key`, auth: 'user', ...target, params: { ...USER_ID, ...KEY },
      handler: (ctx) => {
        const id = idOf(ctx as never);
        found(ctx, kind, id, ctx.params.key);
        ctx.update(deleteAttribute(kind, id, ctx.params.key));
        return noContent();
      },
    }),
  ];
}

export const customAttributeRoutes = [
  ...endpoints('user', '/users', { subject: attributedUser }, (ctx) => (ctx as unknown as Context<unknown, { id: number }>).subject.id),
  ...endpoints('project', '/projects', { scope: project(isAdmin) }, (ctx) => (ctx as unknown as Context<unknown>).project.id),
  ...endpoints('group', '/groups', { scope: group(isAdmin) }, (ctx) => (ctx as unknown as Context<unknown>).group.id),
];
