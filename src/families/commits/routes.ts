// Commits: GET /projects/:id/repository/commits and .../commits/:sha (lib/api/commits.rb).
// The list is paginated without a count: GitLab pretends one more commit follows each page,
// so there are no X-Total headers and "next" appears whenever a page is full.
import { canReadCode, defaultBranchName, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { commitDetail, commitEntity, commitWithStats } from './entity.js';
import { projectWebUrl } from '../projects/index.js';
import { commitStats, log } from '../../git/history.js';
import type { RepositoryObjects } from '../../git/objects.js';
import type { Context } from '../define.js';
import { customError, forbidden, notFound } from '../../core/errors.js';
import { offsetHeaders, pageRequest } from '../../http/pagination.js';
import { bool, datetime, int, str } from '../../http/params.js';
import { findProject } from '../../http/resolve.js';
import { json, type Reply } from '../../http/route.js';
import { route } from '../define.js';
import type { Project } from '../../store/state.js';

function readable(ctx: Context<unknown>, id: string): { project: Project; repo: RepositoryObjects } {
  const project = findProject(ctx, id);
  if (project.features.repository === 'disabled') throw notFound();
  if (!canReadCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
  return { project, repo: ctx.env.git.repository(project.id) };
}

export const commitRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/commits',
    cacheable: true,
    params: {
      id: str().required(),
      ref_name: str(),
      since: datetime(),
      until: datetime(),
      path: str(),
      author: str(),
      all: bool(),
      with_stats: bool(),
      first_parent: bool(),
      order: str().values(['default', 'topo']).default('default'),
      trailers: bool().default(false),
      page: int(),
      per_page: int(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      if (p.ref_name?.startsWith('-')) throw customError(400, 'ref_name is invalid');
      let tips: string[];
      if (p.all) {
        const { branches, tags } = refsOf(ctx.state, project.id);
        tips = [...new Set([...Object.values(branches), ...Object.values(tags).map((t) => t.commit)])];
      } else {
        const sha = await resolveCommit(repo, repoView(ctx.state, project), p.ref_name || defaultBranchName(project));
        tips = sha ? [sha] : [];
      }
      const all = tips.length ? await log(repo, tips, { path: p.path, since: p.since, until: p.until, author: p.author, firstParent: p.first_parent, order: p.order as 'default' | 'topo' }) : [];
      const { page, perPage } = pageRequest(p);
      const offset = (page - 1) * perPage;
      const items = all.slice(offset, offset + perPage);
      // Kaminari is told there is one commit more than it was given: a full page has a next.
      Object.assign(ctx.responseHeaders, offsetHeaders(offset + items.length + 1, p, ctx.linkBase, { excludeTotalHeaders: true }));
      const web = projectWebUrl(ctx.state, project, ctx);
      const out = [];
      for (const c of items) {
        out.push(p.with_stats ? commitWithStats(web, c, await commitStats(repo, c.sha), { trailers: p.trailers }) : commitEntity(web, c, { trailers: p.trailers }));
      }
      return json(out);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha',
    jobToken: true,
    cacheable: true,
    params: { id: str().required(), sha: str().required(), stats: bool().default(true) },
    handler: async (ctx): Promise<Reply> => {
      const { project, repo } = readable(ctx, ctx.params.id);
      const sha = await resolveCommit(repo, repoView(ctx.state, project), ctx.params.sha);
      if (!sha) throw notFound('Commit');
      const ref = { sha, commit: await repo.readCommit(sha) };
      const stats = ctx.params.stats ? await commitStats(repo, sha) : null;
      return json(commitDetail(projectWebUrl(ctx.state, project, ctx), ref, project.id, stats));
    },
  }),
];
