// Award emoji on a project's snippets and on their notes (lib/api/award_emoji.rb's `snippet`
// awardable, found by id): the issuables' award routes, with the snippet found among the
// project's (`user_project.snippets.find`: 404 Not found) and read as `read_snippet` allows.
// Personal snippets have no award routes in the API.
import { recordNotFound } from '../../core/errors.js';
import { int } from '../../http/params.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';
import { awardableRoutes } from '../issuables/index.js';
import { canReadSnippet } from './rules.js';

function snippetOf(ctx: Context<unknown>) {
  const s = tget(ctx.state.snippets, (ctx.params as { snippet_id: number }).snippet_id);
  if (!s || s.projectId !== ctx.project.id) throw recordNotFound();
  return s;
}

export const snippetAwardRoutes = awardableRoutes(
  '/projects/:id/snippets/:snippet_id',
  { snippet_id: int().required() },
  (ctx) => ({ type: 'Snippet', id: snippetOf(ctx).id, projectId: ctx.project.id }),
  (ctx) => canReadSnippet(ctx.state, ctx.user, snippetOf(ctx), ctx.now()),
);
