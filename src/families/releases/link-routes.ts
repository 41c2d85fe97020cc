// Release asset links (lib/api/release/links.rb, app/services/releases/links/*): list, create,
// get, update and delete the links of a release. An unknown release or link is ActiveRecord's
// RecordNotFound (`404 Not found`); DELETE answers 200 with the deleted link.
import { canReadReleases, createLink, deleteLink, findLink, findRelease, sortedLinks, updateLink } from './rules.js';
import { releaseLinkEntity } from './entity.js';
import { recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';
import type { Project } from '../../store/state.js';
import type { Release, ReleaseLink } from './records.js';
import { LINK_PATH_PARAMS, linkInput } from './routes.js';

const LINK_TYPE = str().values(['other', 'runbook', 'image', 'package'] as const).default('other');

/** `find_by_tag!` after `after_validation { authorize! :read_release, user_project }` (the scope). */
function releaseOf(ctx: Context<unknown>, tagName: string): Release {
  const release = findRelease(ctx.state, ctx.project, tagName);
  if (!release) throw recordNotFound();
  return release;
}

function linkOf(release: Release, id: number): ReleaseLink {
  const link = findLink(release, id);
  if (!link) throw recordNotFound();
  return link;
}

const render = (ctx: Context<unknown>, project: Project, r: Release, l: ReleaseLink) => releaseLinkEntity({ state: ctx.state, project, webBase: ctx.webBase }, r, l);

const LINK_PATH = '/projects/:id/releases/:tag_name/assets/links/:link_id';
const TAG_NAME = { tag_name: str().required() };
const LINK_ID = { ...TAG_NAME, link_id: int().required() };

export const releaseLinkRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/releases/:tag_name/assets/links',
    jobToken: true,
    scope: project(canReadReleases),
    paginated: true,
    params: TAG_NAME,
    handler: (ctx): Reply => {
      const release = releaseOf(ctx, ctx.params.tag_name);
      return json(ctx.paginate(sortedLinks(release)).map((l) => render(ctx, ctx.project, release, l)));
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/releases/:tag_name/assets/links',
    jobToken: true,
    scope: project(canReadReleases),
    params: { ...TAG_NAME, name: str().required(), url: str().required(), ...LINK_PATH_PARAMS, link_type: LINK_TYPE },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const release = releaseOf(ctx, p.tag_name);
      const made = ctx.update(createLink(ctx.state, ctx.project, ctx.user, release, linkInput(p), ctx.now()));
      return created(render(ctx, ctx.project, made.release, made.link));
    },
  }),

  route({
    method: 'GET',
    path: LINK_PATH,
    jobToken: true,
    scope: project(canReadReleases),
    params: LINK_ID,
    handler: (ctx): Reply => {
      const release = releaseOf(ctx, ctx.params.tag_name);
      return json(render(ctx, ctx.project, release, linkOf(release, ctx.params.link_id)));
    },
  }),

  route({
    method: 'PUT',
    path: LINK_PATH,
    jobToken: true,
    scope: project(canReadReleases),
    params: { ...LINK_ID, name: str(), url: str(), ...LINK_PATH_PARAMS, link_type: LINK_TYPE },
    constraints: [{ kind: 'at_least_one_of', names: ['name', 'url'] }],
    handler: (ctx): Reply => {
      const p = ctx.params;
      const release = releaseOf(ctx, p.tag_name);
      const link = linkOf(release, p.link_id);
      // `link_type` defaults to `other`, so an update that leaves it out resets it, as GitLab's does.
      const changed = ctx.update(updateLink(ctx.state, ctx.project, ctx.user, release, link, linkInput(p), ctx.now()));
      return json(render(ctx, ctx.project, changed.release, changed.link));
    },
  }),

  route({
    method: 'DELETE',
    path: LINK_PATH,
    jobToken: true,
    scope: project(canReadReleases),
    params: LINK_ID,
    handler: (ctx): Reply => {
      const p = ctx.params;
      const release = releaseOf(ctx, p.tag_name);
      const gone = ctx.update(deleteLink(ctx.state, ctx.project, ctx.user, release, linkOf(release, p.link_id), ctx.now()));
      return json(render(ctx, ctx.project, gone.release, gone.link));
    },
  }),
];
