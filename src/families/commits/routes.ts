// Commits: GET /projects/:id/repository/commits and .../commits/:sha (lib/api/commits.rb).
// The list is paginated without a count: GitLab pretends one more commit follows each page,
// so there are no X-Total headers and "next" appears whenever a page is full.
import { branchEntries, canReadCode, defaultBranchName, refsOf, repoView, repositoryEnabled, resolveCommit, tagEntries } from '../repositories/index.js';
import { commitDetail, commitEntity, commitWithStats } from './entity.js';
import { refNameInvalid } from './errors.js';
import { projectWebUrl } from '../projects/index.js';
import { commitPipelineFields } from '../ci/index.js';
import { commitStats, log } from '../../git/history.js';
import { notFound } from '../../core/errors.js';
import { offsetHeaders, pageRequest } from '../../http/pagination.js';
import { bool, datetime, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { project, route } from '../define.js';
import { CREATE_COMMIT_PARAMS, createCommit } from './create.js';

/** The `before` of every commit route: require_repository_enabled!, then read_code. */
const READ = project(repositoryEnabled, canReadCode);

export const commitRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/commits',
    cacheable: true,
    scope: READ,
    paginated: true,
    params: {
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
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      if (p.ref_name?.startsWith('-')) throw refNameInvalid();
      let tips: string[];
      if (p.all) {
        const refs = refsOf(ctx.state, ctx.project.id);
        tips = [...new Set([...[...branchEntries(refs)].map(([, sha]) => sha), ...[...tagEntries(refs)].map(([, t]) => t.commit)])];
      } else {
        const sha = await resolveCommit(repo, repoView(ctx.state, ctx.project), p.ref_name || defaultBranchName(ctx.project));
        tips = sha ? [sha] : [];
      }
      const all = tips.length ? await log(repo, tips, { path: p.path, since: p.since, until: p.until, author: p.author, firstParent: p.first_parent, order: p.order as 'default' | 'topo' }) : [];
      // `paginated: true` declares and checks page and per_page; they are not in the typed params.
      const paging = ctx.params;
      const { page, perPage } = pageRequest(paging);
      const offset = (page - 1) * perPage;
      const items = all.slice(offset, offset + perPage);
      // Kaminari is told there is one commit more than it was given: a full page has a next.
      Object.assign(ctx.responseHeaders, offsetHeaders(offset + items.length + 1, paging, ctx.linkBase, { excludeTotalHeaders: true }));
      const web = projectWebUrl(ctx.state, ctx.project, ctx);
      const out = [];
      for (const c of items) {
        out.push(p.with_stats ? commitWithStats(web, c, await commitStats(repo, c.sha), { trailers: p.trailers }) : commitEntity(web, c, { trailers: p.trailers }));
      }
      return json(out);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/commits',
    auth: 'user',
    scope: READ,
    params: CREATE_COMMIT_PARAMS,
    handler: (ctx) => createCommit(ctx),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha',
    jobToken: true,
    cacheable: true,
    scope: READ,
    params: { sha: str().required(), stats: bool().default(true) },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await resolveCommit(repo, repoView(ctx.state, ctx.project), ctx.params.sha);
      if (!sha) throw notFound('Commit');
      const ref = { sha, commit: await repo.readCommit(sha) };
      const stats = ctx.params.stats ? await commitStats(repo, sha) : null;
      return json(commitDetail(projectWebUrl(ctx.state, ctx.project, ctx), ref, ctx.project.id, stats, commitPipelineFields(ctx, ctx.project, sha)));
    },
  }),
];
