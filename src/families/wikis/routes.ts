// lib/api/wikis.rb for projects, and EE's same routes for groups (wiki_resource_kinds): list,
// get (`render_html`, `version`), create, update, delete and attachments. Group wikis are the
// higher tier's; project wikis every tier's.
import { grapeError } from '../../core/errors.js';
import { any, bool, hash, str, type Constraint, type ParamSpec } from '../../http/params.js';
import { created, json, noContent, type Reply, type Scope } from '../../http/route.js';
import { gitWork, group, project, route, type Context } from '../define.js';
import { wikiAttachmentEntity, wikiPageBasic, wikiPageEntity, renderPage } from './entity.js';
import { pageNotFound } from './errors.js';
import { WIKI_FORMATS } from './records.js';
import {
  canAdminGroupWiki, canAdminProjectWiki, canCreateGroupWiki, canCreateProjectWiki, canReadGroupWiki, canReadProjectWiki, findPage, groupOwner,
  listPages, objectsKey, projectOwner, wikiRepo, type WikiOwner,
} from './rules.js';
import { createAttachment, createPage, deletePage, pageAt, readWikiFile, updatePage } from './service.js';
import { splitFrontMatter } from './front-matter.js';
import type { WikiPage } from './records.js';

const FORMAT = str().values(WIKI_FORMATS);
/** `front_matter[title]`: the only key GitLab declares. */
const FRONT_MATTER = hash({ title: str() });
const frontMatterOf = (fm: { title?: string } | undefined): Record<string, string> | undefined =>
  fm ? (fm.title === undefined ? {} : { title: fm.title }) : undefined;
// GitLab's `requirements: { slug: /.+/ }`: a slug may hold a plain `/` (`dir/My-Page`) as well
// as an encoded one (`dir%2FMy-Page`).
const SLUG_PATH = ':slug{.+}';
// The spec: `content` is required without `title`, `title` without `content` (GitLab's code also
// counts `format` alone).
const UPDATE_CONSTRAINTS: Constraint[] = [{ kind: 'at_least_one_of', names: ['content', 'title'] }];

interface Kind {
  base: '/projects/:id' | '/groups/:id';
  owner: (ctx: Context<unknown>) => WikiOwner;
  read: Scope;
  create: Scope;
  admin: Scope;
  tier?: 'premium';
}

const KINDS: Kind[] = [
  {
    base: '/projects/:id',
    owner: (ctx) => projectOwner(ctx.project),
    read: project(canReadProjectWiki),
    create: project(canCreateProjectWiki),
    admin: project(canAdminProjectWiki),
  },
  {
    base: '/groups/:id',
    owner: (ctx) => groupOwner(ctx.group),
    read: group(canReadGroupWiki),
    create: group(canCreateGroupWiki),
    admin: group(canAdminGroupWiki),
    tier: 'premium',
  },
];

function pageOf(ctx: Context<unknown>, o: WikiOwner, slug: string): WikiPage {
  const page = findPage(ctx.state, o, slug);
  if (!page) throw pageNotFound();
  return page;
}

/** The wiki's objects in this request. */
const repoOf = (ctx: Context<unknown>, o: WikiOwner) => ctx.env.git.repository(objectsKey(o));

async function full(ctx: Context<unknown>, o: WikiOwner, page: WikiPage, raw?: string, html = false) {
  const text = raw ?? (await readWikiFile(repoOf(ctx, o), wikiRepo(ctx.state, o)!.head, page.path)) ?? '';
  const body = splitFrontMatter(page.format, text);
  return wikiPageEntity(page, body, html ? await renderPage(page.format, body.content) : undefined);
}

function routesOf(k: Kind) {
  const common = { tier: k.tier } as const;
  const SLUG = { slug: str().required() } satisfies ParamSpec;
  return [
    route({
      ...common,
      method: 'GET',
      path: `${k.base}/wikis`,
      scope: k.read,
      // The spec pages every list, the group wiki's among them (GitLab's project wiki list is not paged).
      paginated: k.base.startsWith('/groups'),
      params: { with_content: bool().default(false) },
      handler: async (ctx): Promise<Reply> => {
        const o = k.owner(ctx);
        const all = listPages(ctx.state, o);
        const pages = k.base.startsWith('/groups') ? ctx.paginate(all) : all;
        if (!ctx.params.with_content) return json(pages.map(wikiPageBasic));
        const out = [];
        for (const page of pages) out.push(await full(ctx, o, page));
        return json(out);
      },
    }),
    route({
      ...common,
      method: 'GET',
      path: `${k.base}/wikis/${SLUG_PATH}`,
      scope: k.read,
      params: { ...SLUG, render_html: bool().default(false), version: str() },
      handler: async (ctx): Promise<Reply> => {
        const o = k.owner(ctx);
        const found = await pageAt(ctx.state, repoOf(ctx, o), o, ctx.params.slug, ctx.params.version);
        if (!found) throw pageNotFound();
        return json(await full(ctx, o, found.page, found.raw, ctx.params.render_html));
      },
    }),
    route({
      ...common,
      method: 'POST',
      path: `${k.base}/wikis`,
      auth: 'user',
      scope: k.create,
      params: { title: str().required(), front_matter: FRONT_MATTER, content: str().required(), format: FORMAT.default('markdown') },
      handler: async (ctx): Promise<Reply> => {
        const o = k.owner(ctx);
        const { title, content, format } = ctx.params;
        const page = ctx.update(await createPage(gitWork(ctx), o, { title, content, format, frontMatter: frontMatterOf(ctx.params.front_matter) }));
        return created(await full(ctx, o, page));
      },
    }),
    route({
      ...common,
      method: 'PUT',
      path: `${k.base}/wikis/${SLUG_PATH}`,
      auth: 'user',
      scope: k.create,
      params: { ...SLUG, title: str(), front_matter: FRONT_MATTER, content: str(), format: FORMAT },
      constraints: UPDATE_CONSTRAINTS,
      handler: async (ctx): Promise<Reply> => {
        const o = k.owner(ctx);
        const page = pageOf(ctx, o, ctx.params.slug);
        const { title, content, format } = ctx.params;
        const updated = ctx.update(await updatePage(gitWork(ctx), o, page, { title, content, format, frontMatter: frontMatterOf(ctx.params.front_matter) }));
        return json(await full(ctx, o, updated));
      },
    }),
    route({
      ...common,
      method: 'DELETE',
      path: `${k.base}/wikis/${SLUG_PATH}`,
      auth: 'user',
      scope: k.admin,
      params: SLUG,
      handler: async (ctx): Promise<Reply> => {
        const o = k.owner(ctx);
        ctx.update(await deletePage(gitWork(ctx), o, pageOf(ctx, o, ctx.params.slug)));
        return noContent();
      },
    }),
    route({
      ...common,
      method: 'POST',
      path: `${k.base}/wikis/attachments`,
      auth: 'user',
      scope: k.create,
      params: { file: any().required(), branch: str() },
      handler: async (ctx): Promise<Reply> => {
        const file = ctx.params.file;
        if (!(file instanceof Blob)) throw grapeError(400, 'file is invalid');
        const o = k.owner(ctx);
        return created(wikiAttachmentEntity(ctx.update(await createAttachment(gitWork(ctx), o, file, ctx.params.branch))));
      },
    }),
  ];
}

export const wikiRoutes = KINDS.flatMap(routesOf);
