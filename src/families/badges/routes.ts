// lib/api/badges.rb, for projects and groups alike: anyone who sees the source reads its badges;
// those who administer it (a project's maintainers, a group's owners) add, change and remove them.
import { int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import type { Project } from '../../store/state.js';
import { canOwnGroup } from '../groups/index.js';
import { canAdminProject } from '../projects/index.js';
import { group, project, route, type Context } from '../define.js';
import { badgeEntity, basicBadgeDetails } from './entity.js';
import { badgeNotFound, groupBadgeThroughProject } from './errors.js';
import { badgesOf, buildBadge, createBadge, deleteBadge, findBadge, updateBadge, type Source } from './rules.js';

const BADGE_ID = { badge_id: int().required() };
const URLS = { link_url: str().required(), image_url: str().required() };

type SourceOf = (ctx: Context<unknown>) => Source;
const projectSource: SourceOf = (ctx) => ({ kind: 'project', project: ctx.project });
const groupSource: SourceOf = (ctx) => ({ kind: 'group', group: ctx.group });

const hostOf = (ctx: Context<unknown>) => new URL(ctx.webBase).host;
const shownOn = (s: Source): Project | undefined => (s.kind === 'project' ? s.project : undefined);

function found(ctx: Context<unknown>, source: Source, id: number) {
  const b = findBadge(ctx.state, source, id);
  if (!b) throw badgeNotFound();
  return b;
}

function sourceRoutes(base: string, sourceOf: SourceOf, read: ReturnType<typeof project>, admin: ReturnType<typeof project>) {
  const render = (ctx: Context<unknown>, b: Parameters<typeof badgeEntity>[1]) => badgeEntity(ctx.state, b, shownOn(sourceOf(ctx)), hostOf(ctx));
  return [
    route({
      method: 'GET', path: `${base}/:id/badges`, scope: read, paginated: true, params: { name: str() },
      handler: (ctx) => {
        const all = badgesOf(ctx.state, sourceOf(ctx)).filter((b) => ctx.params.name === undefined || b.name === ctx.params.name);
        return json(ctx.paginate(all).map((b) => render(ctx, b)));
      },
    }),
    route({
      method: 'GET', path: `${base}/:id/badges/render`, auth: 'user', scope: admin, params: URLS,
      handler: (ctx) => {
        const source = sourceOf(ctx);
        return json(basicBadgeDetails(ctx.state, buildBadge(source, ctx.params, ctx.now()), shownOn(source), hostOf(ctx)));
      },
    }),
    route({
      method: 'GET', path: `${base}/:id/badges/:badge_id`, scope: read, params: BADGE_ID,
      handler: (ctx) => json(render(ctx, found(ctx, sourceOf(ctx), ctx.params.badge_id))),
    }),
    route({
      method: 'POST', path: `${base}/:id/badges`, auth: 'user', scope: admin, params: { ...URLS, name: str() },
      handler: (ctx) => created(render(ctx, ctx.update(createBadge(sourceOf(ctx), ctx.params, ctx.now())))),
    }),
    route({
      method: 'PUT', path: `${base}/:id/badges/:badge_id`, auth: 'user', scope: admin, params: { ...BADGE_ID, link_url: str(), image_url: str(), name: str() },
      handler: (ctx) => json(render(ctx, ctx.update(updateBadge(found(ctx, sourceOf(ctx), ctx.params.badge_id), ctx.params)))),
    }),
    route({
      method: 'DELETE', path: `${base}/:id/badges/:badge_id`, auth: 'user', scope: admin, params: BADGE_ID,
      handler: (ctx) => {
        const source = sourceOf(ctx);
        const b = found(ctx, source, ctx.params.badge_id);
        if (b.kind === 'group' && source.kind === 'project') throw groupBadgeThroughProject();
        ctx.update(deleteBadge(b));
        return noContent();
      },
    }),
  ];
}

export const badgeRoutes = [
  ...sourceRoutes('/projects', projectSource, project(), project(canAdminProject)),
  ...sourceRoutes('/groups', groupSource, group(), group(canOwnGroup)),
];
