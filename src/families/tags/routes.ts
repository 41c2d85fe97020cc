// Tags: GET/POST /projects/:id/repository/tags, GET/DELETE .../tags/:tag_name, and
// .../tags/:tag_name/signature (lib/api/tags.rb, app/finders/tags_finder.rb,
// lib/gitlab/pagination/gitaly_keyset_pager.rb). Every route is scoped by `authorize_read_code!`
// (a disabled repository is 403 here).
import { pget } from '../../store/table.js';
import { canUseFeature } from '../../policy/access.js';
import { canReadCode, findTag as tagNamed, refsOf, type TagRef } from '../repositories/index.js';
import { canAdminTags, canDeleteTag, createTag, deleteTag, filterTagNames, isProtectedTag, sortedTagNames } from './rules.js';
import { projectWebUrl } from '../projects/index.js';
import { tagEntity, tagSignatureEntity } from './entity.js';
import { invalidPageToken, signatureNotFound, tagNotCreated, tagNotFound } from './errors.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { forbidden } from '../../core/errors.js';
import { offsetHeaders, pageRequest, pageTokenKeyset, type Keyset } from '../../http/pagination.js';
import { str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, subject, type Ability, type Context } from '../define.js';
import type { Project, User } from '../../store/state.js';

const repoOf = (ctx: Context<unknown>): RepositoryObjects => ctx.env.git.repository(ctx.project.id);

/** A tag of the scoped project, as the routes of one tag act on it. */
interface NamedTag {
  project: Project;
  name: string;
  tag: TagRef;
}

/** The tag `:tag_name` names in the scoped project (404 Tag Not Found), then each ability. */
const namedTag = (...abilities: Ability<NamedTag>[]) =>
  subject<NamedTag, { tag_name: string }>((ctx) => {
    const tag = tagNamed(refsOf(ctx.state, ctx.project.id), ctx.params.tag_name);
    if (!tag) throw tagNotFound();
    return { project: ctx.project, name: ctx.params.tag_name, tag };
  }, ...abilities);

/** `delete_tag`: `admin_tag`, and a protected tag only to maintainers. */
const deletable: Ability<NamedTag> = (state, user, t, now) => canDeleteTag(state, user, t.project, t.name, now);

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
    // The tag's release, read from the releases' slice (that family sits above this one).
    const release = pget(ctx.state.releases, ctx.project.id, name);
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
type ListParams = {
  page?: number;
  per_page?: number;
  sort: 'asc' | 'desc';
  order_by: 'name' | 'updated' | 'version';
  search?: string;
  page_token?: string;
  pagination?: string;
};

/** Gitaly's page of tags: the ones after the tag `page_token` names (422 for a name it does not know), a full page announcing the next. */
const AFTER_TOKEN = pageTokenKeyset<string>({
  token: (name) => name,
  start(all, token) {
    const start = all.indexOf(token) + 1;
    if (start === 0) throw invalidPageToken(token);
    return start;
  },
  announce: 'full',
});

/** Keyset pages of tags (`pagination=keyset`): Gitaly's, or with `search` every tag that matches, at once. */
const TAG_KEYSET: Keyset<string> = {
  cursor: AFTER_TOKEN.cursor,
  page(names, input, size, state) {
    if (!input.search) return AFTER_TOKEN.page(names, input, size, state);
    return { items: [...names], next: names.length === size.perPage ? { page_token: names[names.length - 1] } : undefined };
  },
};

/**
 * GitalyKeysetPager: keyset pages (`pagination=keyset`) and the first offset page are Gitaly's
 * page (`TAG_KEYSET`); the first offset page gets offset headers built from the repository's
 * tag count. Later pages are plain offset pages of the whole list.
 */
async function listTags(ctx: Context<ListParams>): Promise<Reply> {
  const p = ctx.params;
  const size = pageRequest(p);
  const all = await sortedTagNames(repoOf(ctx), refsOf(ctx.state, ctx.project.id), p.order_by, p.sort);
  const names = p.search ? filterTagNames(all, p.search) : all;
  if (ctx.keyset || size.page > 1) return json(await render(ctx, named(ctx, ctx.paginate(names))));
  const first = TAG_KEYSET.page(names, p, size, ctx.state).items;
  Object.assign(ctx.responseHeaders, offsetHeaders(all.length, { page: 1, per_page: p.per_page }, ctx.linkBase));
  return json(await render(ctx, named(ctx, first)));
}

export const tagRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/tags',
    jobToken: true,
    cacheable: true,
    scope: project(canReadCode),
    paginated: { keyset: TAG_KEYSET },
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
    subject: namedTag(),
    handler: async (ctx): Promise<Reply> => json((await render(ctx, [ctx.subject]))[0]),
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
    // The tag's 404 comes before `delete_tag`'s 403: the ability is the subject's, not the scope's.
    subject: namedTag(deletable),
    handler: async (ctx): Promise<Reply> => {
      const { name, tag } = ctx.subject;
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
    subject: namedTag(),
    handler: (ctx): Reply => {
      const { tag } = ctx.subject;
      if (!tag.signature) throw signatureNotFound();
      return json(tagSignatureEntity(tag.signature));
    },
  }),
];
