// Tags: GET/POST /projects/:id/repository/tags, GET/DELETE .../tags/:tag_name, and
// .../tags/:tag_name/signature (lib/api/tags.rb, app/finders/tags_finder.rb,
// lib/gitlab/pagination/gitaly_keyset_pager.rb). Every route is scoped by `authorize_read_code!`
// (a disabled repository is 403 here).
import { canUseFeature } from '../../policy/access.js';
import { canReadCode, findTag as tagNamed, refsOf, type TagRef } from '../repositories/index.js';
import { findRelease } from '../releases/index.js';
import { canAdminTags, canDeleteTag, createTag, deleteTag, filterTagNames, isProtectedTag, sortedTagNames } from './rules.js';
import { projectWebUrl } from '../projects/index.js';
import { tagEntity, tagSignatureEntity } from './entity.js';
import { invalidPageToken, signatureNotFound, tagNotCreated, tagNotFound } from './errors.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { forbidden } from '../../core/errors.js';
import { keysetNextHeaders, offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';
import type { User } from '../../store/state.js';

const repoOf = (ctx: Context<unknown>): RepositoryObjects => ctx.env.git.repository(ctx.project.id);

function findTag(ctx: Context<unknown>, name: string): TagRef {
  const tag = tagNamed(refsOf(ctx.state, ctx.project.id), name);
  if (!tag) throw tagNotFound();
  return tag;
}

/** The caller an `admin_tag` scope admitted: a member, so never anonymous. */
function member(ctx: Context<unknown>): User {
  if (!ctx.user) throw forbidden();
  return ctx.user;
}

/** Tags of the scoped project as the API renders them, each with its release when the caller may read releases. */
async function render(ctx: Context<unknown>, tags: readonly { name: string; tag: TagRef }[]) {
  const repo = repoOf(ctx);
  const web = projectWebUrl(ctx.state, ctx.project, ctx);
  const showReleases = canUseFeature(ctx.state, ctx.user, ctx.project, 'releases', ctx.now());
  const refs = refsOf(ctx.state, ctx.project.id);
  const out = [];
  for (const { name, tag } of tags) {
    const release = findRelease(ctx.state, ctx.project, name);
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

/** Tags of the scoped project by name, as the world has them. */
function named(ctx: Context<unknown>, names: readonly string[]): { name: string; tag: TagRef }[] {
  const refs = refsOf(ctx.state, ctx.project.id);
  return names.map((name) => ({ name, tag: tagNamed(refs, name)! }));
}

/** The list's parameters; `page` and `per_page` come with `paginated`. */
interface ListParams extends PageInput {
  sort: 'asc' | 'desc';
  order_by: 'name' | 'updated' | 'version';
  search?: string;
  page_token?: string;
  pagination?: string;
}

/**
 * GitalyKeysetPager: keyset pages (`pagination=keyset`) and the first offset page come from
 * Gitaly, after `page_token`; the first page gets offset headers built from the repository's
 * tag count. Later pages are plain offset pages of the whole list.
 */
async function listTags(ctx: Context<ListParams>): Promise<Reply> {
  const p = ctx.params;
  const { page, perPage } = pageRequest(p);
  const all = await sortedTagNames(repoOf(ctx), refsOf(ctx.state, ctx.project.id), p.order_by, p.sort);
  const search = p.search || undefined;
  const keyset = p.pagination === 'keyset';
  if (!keyset && page > 1) {
    const names = search ? filterTagNames(all, search) : all;
    return json(await render(ctx, named(ctx, ctx.paginate(names))));
  }
  let names: string[];
  if (search) names = filterTagNames(all, search);
  else {
    let start = 0;
    if (p.page_token !== undefined) {
      start = all.indexOf(p.page_token) + 1;
      if (start === 0) throw invalidPageToken(p.page_token);
    }
    names = all.slice(start, start + perPage);
  }
  if (keyset) {
    if (names.length === perPage) {
      Object.assign(ctx.responseHeaders, keysetNextHeaders(ctx.linkBase, { page_token: names[names.length - 1] }));
    }
  } else {
    const total = all.length;
    Object.assign(ctx.responseHeaders, offsetHeaders(total, { page: 1, per_page: p.per_page }, ctx.linkBase));
  }
  return json(await render(ctx, named(ctx, names)));
}

export const tagRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/tags',
    jobToken: true,
    cacheable: true,
    scope: project(canReadCode),
    paginated: true,
    params: {
      sort: str().values(['asc', 'desc']).default('desc'),
      order_by: str().values(['name', 'updated', 'version']).default('updated'),
      search: str(),
      page_token: str(),
      pagination: str(),
    },
    handler: (ctx) => listTags(ctx),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/tags/:tag_name',
    cacheable: true,
    scope: project(canReadCode),
    params: { tag_name: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const name = ctx.params.tag_name;
      return json((await render(ctx, [{ name, tag: findTag(ctx, name) }]))[0]);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/tags',
    scope: project(canReadCode, canAdminTags),
    params: { tag_name: str().required(), ref: str().required(), message: str() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const change = await createTag(repoOf(ctx), ctx.state, ctx.project, member(ctx), p.tag_name, p.ref, p.message, ctx.now(), tagNotCreated);
      const tag = ctx.update(change);
      return created((await render(ctx, [{ name: p.tag_name, tag }]))[0]);
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/repository/tags/:tag_name',
    scope: project(canReadCode),
    params: { tag_name: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const name = ctx.params.tag_name;
      const tag = findTag(ctx, name);
      // The tag's 404 comes before `delete_tag`'s 403, so that ability cannot be part of the scope.
      if (!canDeleteTag(ctx.state, ctx.user, ctx.project, name, ctx.now())) throw forbidden();
      // destroy_conditionally! compares If-Unmodified-Since with the tagged commit's authored date.
      checkUnmodifiedSince(ctx, (await repoOf(ctx).readCommit(tag.commit)).author.timestamp * 1000);
      ctx.update(deleteTag(ctx.state, ctx.project, name, ctx.now()));
      return noContent();
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/tags/:tag_name/signature',
    cacheable: true,
    scope: project(canReadCode),
    params: { tag_name: str().required() },
    handler: (ctx): Reply => {
      const tag = findTag(ctx, ctx.params.tag_name);
      if (!tag.signature) throw signatureNotFound();
      return json(tagSignatureEntity(tag.signature));
    },
  }),
];
