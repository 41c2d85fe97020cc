// Gitignore templates: GET /templates/gitignores, GET /templates/gitignores/:key
// (lib/api/templates.rb, lib/gitlab/template/gitignore_template.rb, lib/api/entities/templates_list.rb,
// lib/api/entities/template.rb). The templates are fixed data built from fixtures/gitignore/.
//
// These routes never touch `current_user` (`skip_granular_token_authorization: :public_endpoint`,
// no authenticate!), so credentials are not read: anonymous callers and callers with a bad
// token alike get 200.
import { notFound, routeNotFound } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { route } from '../define.js';

/** The .gitignore templates, a chunk loaded at the first request for one, not at the package's import. */
const gitignores = async () => (await import('./data.js')).GITIGNORE_TEMPLATES;

/**
 * The route's `requirements: { name: /[\w\.-]+/ }`. Mustermann applies it to the path as sent,
 * before any decoding, so a key with any other character (`C++`, or `%2F`) does not reach the
 * endpoint at all: the catch-all answers `{"error":"404 Not Found"}`.
 */
const KEY_REQUIREMENT = /^[A-Za-z0-9_.-]+$/;

/** The last path segment exactly as the client sent it (Grape drops trailing slashes). */
function rawLastSegment(pathname: string): string {
  const path = pathname.replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

export const templateRoutes = [
  route({
    method: 'GET',
    path: '/templates/gitignores',
    cacheable: true,
    auth: 'none',
    paginated: true,
    handler: async (ctx) => json(ctx.paginate(await gitignores()).map((t) => ({ key: t.key, name: t.name }))),
  }),
  route({
    method: 'GET',
    path: '/templates/gitignores/:key',
    cacheable: true,
    auth: 'none',
    params: { key: str().required() },
    handler: async (ctx) => {
      if (!KEY_REQUIREMENT.test(rawLastSegment(ctx.url.pathname))) throw routeNotFound();
      // Languages are searched before Global; lookups are case-sensitive, as on disk.
      const template = (await gitignores()).find((t) => t.key === ctx.params.key);
      if (!template) throw notFound('gitignore');
      return json({ name: template.name, content: template.content });
    },
  }),
];
