// Releases (content-api.md "Releases"; lib/api/releases.rb, ee/lib/ee/api/releases.rb): list, get,
// downloads, the latest-release permalink, create, update, delete, collect evidence, and the
// group list. Every project route first needs `read_release` (the `before` hook); get,
// downloads and the permalink then need `read_code`, before the release is looked up.
import { canReadCode, findTag, refsOf } from '../repositories/index.js';
import { canReadProjectMilestones } from '../milestones/index.js';
import {
  canCreateRelease, canManageRelease, canReadReleases, createRelease, deleteRelease, findRelease, findReleases, groupReleases, latestRelease,
  requestEvidence, updateRelease, type LinkInput,
} from './rules.js';
import { basicReleaseDetails, markdownRenderer, releaseEntity, type ReleaseView } from './entity.js';
import { validFilePath } from '../../http/file-path.js';
import { forbidden, notFound, recordNotFound } from '../../core/errors.js';
import { toQuery } from '../../http/pagination.js';
import { arr, bool, datetime, hash, int, str, type Constraint } from '../../http/params.js';
import { parseQuery } from '../../http/request-params.js';
import { created, json, type Reply } from '../../http/route.js';
import { group, project, route, type Context } from '../define.js';
import type { Project, User } from '../../store/state.js';
import type { Release } from './records.js';

// ---------------------------------------------------------------- shared helpers

/** `authorize_read_code!` where a parameter check comes first, so it cannot be part of the scope. */
function authorizeReadCode(ctx: Context<unknown>): void {
  if (!canReadCode(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
}

/** The caller a `create_release` scope admitted: a member, so never anonymous. */
function member(ctx: Context<unknown>): User {
  if (!ctx.user) throw forbidden();
  return ctx.user;
}

function releaseView(ctx: Context<unknown>, project: Project, html?: (markdown: string) => string): ReleaseView {
  const { state, user } = ctx;
  const now = ctx.now();
  return {
    state,
    viewer: user,
    now,
    webBase: ctx.webBase,
    project,
    readCode: canReadCode(state, user, project, now),
    readMilestones: canReadProjectMilestones(state, user, project, now),
    canUpdate: (tag) => canManageRelease(state, user, project, tag, now),
    html,
  };
}

/** Release#commit: the sha kept with the release, else the tag's commit; null when git has neither. */
async function commitOf(ctx: Context<unknown>, project: Project, r: Release) {
  const sha = r.sha ?? findTag(refsOf(ctx.state, project.id), r.tagName)?.commit;
  if (!sha) return null;
  try {
    return { sha, commit: await ctx.env.git.repository(project.id).readCommit(sha) };
  } catch {
    return null;
  }
}

async function renderRelease(ctx: Context<unknown>, v: ReleaseView, r: Release, evidenceSha?: string | null) {
  return releaseEntity(v, r, { commit: v.readCode ? await commitOf(ctx, v.project, r) : null, evidenceSha });
}

const redirect302 = (url: string): Reply => ({
  status: 302,
  headers: { Location: url },
  raw: `This resource has been moved temporarily to ${url}.`,
  contentType: 'text/plain',
});

/** ERB::Util.url_encode: everything but unreserved characters is escaped. */
const urlEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const MILESTONE_PARAMS = {
  milestones: arr(str(), { commaSeparated: true }),
  milestone_ids: arr(int(), { commaSeparated: true }),
};
const MILESTONES_EXCLUSIVE: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['milestones', 'milestone_ids'], message: 'Cannot specify milestones and milestone_ids at the same time' },
];

/** A link's path parameters: nullable, since a `null` one is sent (it clears the path) where an absent one is not. */
export const LINK_PATH_PARAMS = { direct_asset_path: str().nullable(), filepath: str().nullable() };

const LINK_PARAMS = { name: str().required(), url: str().required(), ...LINK_PATH_PARAMS, link_type: str() };

interface LinkParams {
  name?: string;
  url?: string;
  direct_asset_path?: string | null;
  filepath?: string | null;
  link_type?: string;
}

/** Releases::Links::Params: `direct_asset_path`, else `filepath`, when either was sent (null included). */
export function linkInput(p: LinkParams): LinkInput {
  const sent = Object.hasOwn(p, 'direct_asset_path') || Object.hasOwn(p, 'filepath');
  return { name: p.name, url: p.url, filepath: sent ? (p.direct_asset_path ?? p.filepath ?? null) : undefined, linkType: p.link_type };
}

const TAG_NAME = { tag_name: str().required() };

// ---------------------------------------------------------------- routes

export const releaseRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/releases',
    jobToken: true,
    scope: project(canReadReleases),
    paginated: true,
    params: {
      order_by: str().values(['released_at', 'created_at'] as const).default('released_at'),
      sort: str().values(['asc', 'desc'] as const).default('desc'),
      include_html_description: bool(),
      updated_before: datetime(),
      updated_after: datetime(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const all = findReleases(ctx.state, ctx.project, { orderBy: p.order_by, sort: p.sort, updatedBefore: p.updated_before, updatedAfter: p.updated_after });
      const v = releaseView(ctx, ctx.project, p.include_html_description ? await markdownRenderer() : undefined);
      const out = [];
      for (const r of ctx.paginate(all)) out.push(await renderRelease(ctx, v, r));
      return json(out);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/permalink/latest',
    jobToken: true,
    scope: project(canReadReleases, canReadCode),
    handler: (ctx) => permalink(ctx, undefined),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/permalink/latest/:suffix_path{.+}',
    jobToken: true,
    scope: project(canReadReleases),
    params: { suffix_path: str() },
    handler: (ctx) => {
      const suffix = ctx.params.suffix_path;
      if (suffix !== undefined && suffix !== '') validFilePath('suffix_path', suffix);
      authorizeReadCode(ctx);
      return permalink(ctx, suffix);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    scope: project(canReadReleases, canReadCode),
    params: { ...TAG_NAME, include_html_description: bool() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const r = findRelease(ctx.state, ctx.project, p.tag_name);
      if (!r) throw notFound();
      return json(await renderRelease(ctx, releaseView(ctx, ctx.project, p.include_html_description ? await markdownRenderer() : undefined), r));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/:tag_name/downloads/:direct_asset_path{.+}',
    jobToken: true,
    scope: project(canReadReleases),
    params: { ...TAG_NAME, direct_asset_path: str().required() },
    handler: (ctx): Reply => {
      const p = ctx.params;
      validFilePath('direct_asset_path', p.direct_asset_path);
      authorizeReadCode(ctx);
      const r = findRelease(ctx.state, ctx.project, p.tag_name);
      if (!r) throw notFound();
      const link = r.links.find((l) => l.filepath === `/${p.direct_asset_path}`);
      if (!link) throw recordNotFound(); // find_by_filepath! raises RecordNotFound
      return redirect302(link.url);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/releases',
    jobToken: true,
    scope: project(canReadReleases, canCreateRelease),
    params: {
      ...TAG_NAME,
      tag_message: str(),
      name: str(),
      description: str(),
      ref: str(),
      assets: hash({ links: arr(hash(LINK_PARAMS)) }),
      ...MILESTONE_PARAMS,
      released_at: datetime(),
      legacy_catalog_publish: bool(),
    },
    constraints: MILESTONES_EXCLUSIVE,
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const change = await createRelease(ctx.env.git.repository(ctx.project.id), ctx.state, ctx.project, member(ctx), {
        tagName: p.tag_name,
        name: p.name,
        description: p.description,
        ref: p.ref,
        tagMessage: p.tag_message,
        releasedAt: p.released_at,
        milestones: p.milestones,
        milestoneIds: p.milestone_ids,
        links: (p.assets?.links ?? []).map(linkInput),
      }, ctx.now());
      const { release, evidenceSha } = ctx.update(change);
      return created(await renderRelease(ctx, releaseView(ctx, ctx.project), release, evidenceSha));
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    scope: project(canReadReleases),
    params: { ...TAG_NAME, name: str(), description: str(), released_at: datetime(), ...MILESTONE_PARAMS },
    constraints: MILESTONES_EXCLUSIVE,
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const release = ctx.update(
        updateRelease(ctx.state, ctx.project, ctx.user, p.tag_name, {
          name: p.name, description: p.description, releasedAt: p.released_at, milestones: p.milestones, milestoneIds: p.milestone_ids,
        }, ctx.now()),
      );
      return json(await renderRelease(ctx, releaseView(ctx, ctx.project), release));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    scope: project(canReadReleases),
    params: TAG_NAME,
    handler: async (ctx): Promise<Reply> => {
      // The deleted release is presented as it was, to a viewer who could manage it.
      const view = releaseView(ctx, ctx.project);
      const release = ctx.update(deleteRelease(ctx.state, ctx.project, ctx.user, ctx.params.tag_name, ctx.now()));
      return json(await renderRelease(ctx, view, release));
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/releases/:tag_name/evidence',
    jobToken: true,
    tier: 'premium',
    offering: 'self-managed',
    scope: project(canCreateRelease),
    params: TAG_NAME,
    handler: async (ctx): Promise<Reply> => {
      const r = findRelease(ctx.state, ctx.project, ctx.params.tag_name);
      // EE's evidence endpoint answers with a bare status code for a body, not the message envelope.
      if (!r) return { status: 404, body: 404 };
      ctx.update(await requestEvidence(ctx.state, ctx.project, r, ctx.now()));
      return { status: 202, body: 202 };
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/releases',
    scope: group(),
    paginated: true,
    params: {
      sort: str().values(['asc', 'desc'] as const).default('desc'),
      simple: bool().default(false),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const rows = ctx.paginate(groupReleases(ctx.state, ctx.user, ctx.group, p.sort, ctx.now()));
      if (p.simple) return json(rows.map((row) => basicReleaseDetails(row.release, ctx.now())));
      const out = [];
      for (const row of rows) out.push(await renderRelease(ctx, releaseView(ctx, row.project), row.release));
      return json(out);
    },
  }),
];

/**
 * GET permalink/latest[/suffix]: 302 to the latest release's route (relative, by numeric id),
 * the suffix kept, and the query string kept but for `order_by`.
 */
function permalink(ctx: Context<unknown>, suffix: string | undefined): Reply {
  const latest = latestRelease(ctx.state, ctx.project);
  if (!latest) throw notFound();
  let url = `/api/v4/projects/${ctx.project.id}/releases/${urlEncode(latest.tagName)}`;
  if (suffix) url += `/${suffix}`;
  const query = parseQuery(ctx.url.search);
  delete query.order_by;
  if (Object.keys(query).length > 0) url += `?${toQuery(query)}`;
  return redirect302(url);
}
