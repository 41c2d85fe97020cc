// Tags: GET/POST /projects/:id/repository/tags, GET/DELETE .../tags/:tag_name, and
// .../tags/:tag_name/signature (lib/api/tags.rb, app/finders/tags_finder.rb,
// lib/gitlab/pagination/gitaly_keyset_pager.rb).
import { canUseFeature } from '../../policy/access.js';
import { canReadCode, findTag as tagNamed, refsOf } from '../repositories/index.js';
import { findRelease } from '../releases/index.js';
import { canAdminTags, canDeleteTag, createTag, deleteTag, filterTagNames, isProtectedTag, sortedTagNames } from './rules.js';
import { projectWebUrl } from '../projects/index.js';
import { tagEntity, tagSignatureEntity } from './entity.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import type { Context } from '../define.js';
import { customError, forbidden, notFound, unprocessable } from '../../core/errors.js';
import { offsetHeaders, pageRequest, toQuery } from '../../http/pagination.js';
import { int, str } from '../../http/params.js';
import { findProject } from '../../http/resolve.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { route } from '../define.js';
import type { Project } from '../../store/state.js';

/** The `before` of every tag route: authorize_read_code! (a disabled repository is 403 here). */
function readable(ctx: Context<unknown>, id: string): { project: Project; repo: RepositoryObjects } {
  const project = findProject(ctx, id);
  if (!canReadCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
  return { project, repo: ctx.env.git.repository(project.id) };
}

function findTag(ctx: Context<unknown>, project: Project, name: string) {
  const tag = tagNamed(refsOf(ctx.state, project.id), name);
  if (!tag) throw notFound('Tag');
  return tag;
}

async function render(ctx: Context<unknown>, project: Project, repo: RepositoryObjects, names: readonly string[]) {
  const web = projectWebUrl(ctx.state, project, ctx);
  const showReleases = canUseFeature(ctx.state, ctx.user, project, 'releases', ctx.now());
  const refs = refsOf(ctx.state, project.id);
  const out = [];
  for (const name of names) {
    const tag = refs.tags[name]!;
    const release = findRelease(ctx.state, project, name);
    out.push(
      tagEntity(web, {
        name,
        tag,
        commit: { sha: tag.commit, commit: await repo.readCommit(tag.commit) },
        tagger: tag.target === tag.commit ? null : (await repo.readTag(tag.target)).tagger,
        release: showReleases ? (release ?? null) : undefined,
        protected: isProtectedTag(refs, name),
      }),
    );
  }
  return out;
}

interface ListParams {
  id: string;
  sort: 'asc' | 'desc';
  order_by: 'name' | 'updated' | 'version';
  search?: string;
  page_token?: string;
  pagination?: string;
  page?: number;
  per_page?: number;
}

/**
 * GitalyKeysetPager: keyset pages (`pagination=keyset`) and the first offset page come from
 * Gitaly, after `page_token`; the first page gets offset headers built from the repository's
 * tag count. Later pages are plain offset pages of the whole list.
 */
async function listTags(ctx: Context<ListParams>): Promise<Reply> {
  const p = ctx.params;
  const { project, repo } = readable(ctx, p.id);
  const { page, perPage } = pageRequest(p);
  const all = await sortedTagNames(repo, refsOf(ctx.state, project.id), p.order_by, p.sort);
  const search = p.search || undefined;
  const keyset = p.pagination === 'keyset';
  if (!keyset && page > 1) {
    const names = search ? filterTagNames(all, search) : all;
    return json(await render(ctx, project, repo, ctx.paginate(names)));
  }
  let names: string[];
  if (search) names = filterTagNames(all, search);
  else {
    let start = 0;
    if (p.page_token !== undefined) {
      start = all.indexOf(p.page_token) + 1;
      if (start === 0) throw unprocessable(`Invalid page token: refs/tags/${p.page_token}`);
    }
    names = all.slice(start, start + perPage);
  }
  if (keyset) {
    if (names.length === perPage) {
      const params = { ...ctx.linkBase.params, page_token: names[names.length - 1] };
      ctx.responseHeaders.Link = `<${ctx.linkBase.base}?${toQuery(params)}>; rel="next"`;
    }
  } else {
    const total = all.length;
    Object.assign(ctx.responseHeaders, offsetHeaders(total, { page: 1, per_page: p.per_page }, ctx.linkBase));
  }
  return json(await render(ctx, project, repo, names));
}

export const tagRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/tags',
    jobToken: true,
    cacheable: true,
    params: {
      id: str().required(),
      sort: str().values(['asc', 'desc']).default('desc'),
      order_by: str().values(['name', 'updated', 'version']).default('updated'),
      search: str(),
      page_token: str(),
      pagination: str(),
      page: int(),
      per_page: int(),
    },
    handler: (ctx) => listTags(ctx as Context<ListParams>),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/tags/:tag_name',
    cacheable: true,
    params: { id: str().required(), tag_name: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const { project, repo } = readable(ctx, ctx.params.id);
      findTag(ctx, project, ctx.params.tag_name);
      return json((await render(ctx, project, repo, [ctx.params.tag_name]))[0]);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/tags',
    params: { id: str().required(), tag_name: str().required(), ref: str().required(), message: str() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      if (!ctx.user || !canAdminTags(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
      // The spec answers every failure of the tag service with 405 and its message.
      const change = await createTag(repo, ctx.state, project, ctx.user, p.tag_name, p.ref, p.message, ctx.now(), (m) => customError(405, m));
      ctx.update(change);
      return created((await render(ctx, findProject(ctx, String(project.id)), repo, [p.tag_name]))[0]);
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/repository/tags/:tag_name',
    params: { id: str().required(), tag_name: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      const tag = findTag(ctx, project, p.tag_name);
      if (!ctx.user || !canDeleteTag(ctx.state, ctx.user, project, p.tag_name, ctx.now())) throw forbidden();
      // destroy_conditionally! compares If-Unmodified-Since with the tagged commit's authored date.
      checkUnmodifiedSince(ctx, (await repo.readCommit(tag.commit)).author.timestamp * 1000);
      ctx.update(deleteTag(ctx.state, project, p.tag_name, ctx.now()));
      return noContent();
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/tags/:tag_name/signature',
    cacheable: true,
    params: { id: str().required(), tag_name: str().required() },
    handler: (ctx): Reply => {
      const { project } = readable(ctx, ctx.params.id);
      const tag = findTag(ctx, project, ctx.params.tag_name);
      if (!tag.signature) throw notFound('Signature');
      return json(tagSignatureEntity(tag.signature));
    },
  }),
];
