// Protected tags (lib/api/protected_tags.rb, Entities::ProtectedTag): list, get, protect, unprotect.
import { canReadCode, findProtectedTag, protectedTagEntries, protectTag, refsOf, repositoryEnabled, unprotectTag, type ProtectedTag } from '../repositories/index.js';
import { ALLOWED_ACCESS_LEVELS, canAdminProtections, refAccess } from '../branches/index.js';
import { ACCESS } from '../../store/state.js';
import { messageError, recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';

const ADMIN = project(repositoryEnabled, canReadCode, canAdminProtections);

const entity = (ctx: Context<unknown>, name: string, t: ProtectedTag) => ({
  name,
  create_access_levels: [refAccess(t.accessId, t.createAccessLevel, ctx.state.instance.tier !== 'free')],
});

function find(ctx: Context<{ name: string }>): ProtectedTag {
  const t = findProtectedTag(refsOf(ctx.state, ctx.project.id), ctx.params.name);
  if (!t) throw recordNotFound();
  return t;
}

export const protectedTagRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/protected_tags',
    scope: ADMIN,
    cacheable: true,
    paginated: true,
    handler: (ctx): Reply => {
      const list = [...protectedTagEntries(refsOf(ctx.state, ctx.project.id))].sort(([, a], [, b]) => (a.accessId ?? 0) - (b.accessId ?? 0));
      return json(ctx.paginate(list).map(([name, t]) => entity(ctx, name, t)));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/protected_tags/:name',
    scope: ADMIN,
    cacheable: true,
    params: { name: str().required() },
    handler: (ctx): Reply => json(entity(ctx, ctx.params.name, find(ctx))),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/protected_tags',
    auth: 'user',
    scope: ADMIN,
    params: { name: str().required(), create_access_level: int().values([...ALLOWED_ACCESS_LEVELS]) },
    handler: (ctx): Reply => {
      const p = ctx.params;
      // ProtectedTag's validations: a name, unique in the project.
      if (p.name.trim() === '') throw messageError(422, ["Name can't be blank"]);
      if (findProtectedTag(refsOf(ctx.state, ctx.project.id), p.name)) throw messageError(422, ['Name has already been taken']);
      const made = ctx.update(protectTag(ctx.project.id, p.name, p.create_access_level ?? ACCESS.maintainer));
      return created(entity(ctx, p.name, made));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/protected_tags/:name',
    auth: 'user',
    scope: ADMIN,
    params: { name: str().required() },
    handler: (ctx): Reply => {
      find(ctx);
      ctx.update(unprotectTag(ctx.project.id, ctx.params.name));
      return noContent();
    },
  }),
];
