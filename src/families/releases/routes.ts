// Releases (content-api.md "Releases"; lib/api/releases.rb, ee/lib/ee/api/releases.rb): list, get,
// downloads, the latest-release permalink, create, update, delete, collect evidence, and the
// group list. Every project route first needs `read_release` (the `before` hook); get,
// downloads and the permalink then need `read_code`, before the release is looked up.
import { canReadCode, findTag, refsOf } from '../repositories/index.js';
import { canReadProjectMilestones } from '../milestones/index.js';
import {
  canCreateRelease, canManageRelease, canReadReleases, collectEvidence, COLLECT_EVIDENCE, createRelease, deleteRelease,
  findRelease, findReleases, groupReleases, latestRelease, updateRelease, type LinkInput,
} from './rules.js';
import { basicReleaseDetails, releaseEntity, type ReleaseView } from './entity.js';
import type { Context } from '../define.js';
import { validFilePath } from '../../http/file-path.js';
import { customError, forbidden, grapeError, notFound } from '../../core/errors.js';
import { toQuery } from '../../http/pagination.js';
import { arr, bool, datetime, hash, int, str, type Constraint } from '../../http/params.js';
import { parseQuery } from '../../http/request-params.js';
import { findGroup, findProject } from '../../http/resolve.js';
import { created, json, type Reply } from '../../http/route.js';
import { route, schedule } from '../define.js';
import type { Project } from '../../store/state.js';
import type { Release } from './records.js';

// ---------------------------------------------------------------- shared helpers

/** The `before` of every project release route: the project (404), then `read_release` (403). */
export function releaseProject(ctx: Context<unknown>, id: string): Project {
  const project = findProject(ctx, id);
  if (!canReadReleases(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
  return project;
}

function authorizeReadCode(ctx: Context<unknown>, project: Project): void {
  if (!canReadCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
}

export function releaseView(ctx: Context<unknown>, project: Project, includeHtml = false): ReleaseView {
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
    includeHtml,
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

export async function renderRelease(ctx: Context<unknown>, v: ReleaseView, r: Release, evidenceSha?: string | null) {
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

const LINK_PARAMS = {
  name: str().required(),
  url: str().required(),
  direct_asset_path: str(),
  filepath: str(),
  link_type: str(),
};

/** Releases::Links::Params: `direct_asset_path`, else `filepath`, when either was sent (null included). */
export function linkInput(raw: Record<string, unknown>, parsed: { name?: string; url?: string; direct_asset_path?: string; filepath?: string; link_type?: string }): LinkInput {
  const given = (k: string) => Object.prototype.hasOwnProperty.call(raw, k);
  const sent = given('direct_asset_path') || given('filepath');
  return {
    name: parsed.name,
    url: parsed.url,
    filepath: sent ? (parsed.direct_asset_path ?? parsed.filepath ?? null) : undefined,
    linkType: parsed.link_type,
  };
}

const RELEASE_ID = { id: str().required(), tag_name: str().required() };

// ---------------------------------------------------------------- routes

export const releaseRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/releases',
    jobToken: true,
    params: {
      id: str().required(),
      page: int(),
      per_page: int(),
      order_by: str().values(['released_at', 'created_at'] as const).default('released_at'),
      sort: str().values(['asc', 'desc'] as const).default('desc'),
      include_html_description: bool(),
      updated_before: datetime(),
      updated_after: datetime(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const project = releaseProject(ctx, p.id);
      const all = findReleases(ctx.state, project, { orderBy: p.order_by, sort: p.sort, updatedBefore: p.updated_before, updatedAfter: p.updated_after });
      const v = releaseView(ctx, project, p.include_html_description === true);
      const out = [];
      for (const r of ctx.paginate(all)) out.push(await renderRelease(ctx, v, r));
      return json(out);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/permalink/latest',
    jobToken: true,
    params: { id: str().required() },
    handler: (ctx) => permalink(ctx, ctx.params.id, undefined),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/permalink/latest/:suffix_path{.+}',
    jobToken: true,
    params: { id: str().required(), suffix_path: str() },
    handler: (ctx) => permalink(ctx, ctx.params.id, ctx.params.suffix_path),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    params: { ...RELEASE_ID, include_html_description: bool() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const project = releaseProject(ctx, p.id);
      authorizeReadCode(ctx, project);
      const r = findRelease(ctx.state, project, p.tag_name);
      if (!r) throw notFound();
      return json(await renderRelease(ctx, releaseView(ctx, project, p.include_html_description === true), r));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/releases/:tag_name/downloads/:direct_asset_path{.+}',
    jobToken: true,
    params: { ...RELEASE_ID, direct_asset_path: str().required() },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const project = releaseProject(ctx, p.id);
      validFilePath('direct_asset_path', p.direct_asset_path);
      authorizeReadCode(ctx, project);
      const r = findRelease(ctx.state, project, p.tag_name);
      if (!r) throw notFound();
      const link = r.links.find((l) => l.filepath === `/${p.direct_asset_path}`);
      if (!link) throw customError(404, '404 Not found'); // find_by_filepath! raises RecordNotFound
      return redirect302(link.url);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/releases',
    jobToken: true,
    params: {
      id: str().required(),
      tag_name: str().required(),
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
      const project = releaseProject(ctx, p.id);
      if (!ctx.user || !canCreateRelease(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
      const rawLinks = rawAssetLinks(ctx.raw);
      const change = await createRelease(ctx.env.git.repository(project.id), ctx.state, project, ctx.user, {
        tagName: p.tag_name,
        name: p.name,
        description: p.description,
        ref: p.ref,
        tagMessage: p.tag_message,
        releasedAt: p.released_at,
        milestones: p.milestones,
        milestoneIds: p.milestone_ids,
        links: (p.assets?.links ?? []).map((l, i) => linkInput(rawLinks[i] ?? {}, l)),
      }, ctx.now());
      const { release, evidenceSha } = ctx.update(change);
      return created(await renderRelease(ctx, releaseView(ctx, project), release, evidenceSha));
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    params: { ...RELEASE_ID, name: str(), description: str(), released_at: datetime(), ...MILESTONE_PARAMS },
    constraints: MILESTONES_EXCLUSIVE,
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const project = releaseProject(ctx, p.id);
      const release = ctx.update(
        updateRelease(ctx.state, project, ctx.user, p.tag_name, {
          name: p.name, description: p.description, releasedAt: p.released_at, milestones: p.milestones, milestoneIds: p.milestone_ids,
        }, ctx.now()),
      );
      return json(await renderRelease(ctx, releaseView(ctx, project), release));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/releases/:tag_name',
    jobToken: true,
    params: RELEASE_ID,
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const project = releaseProject(ctx, p.id);
      // The deleted release is presented as it was, to a viewer who could manage it.
      const view = releaseView(ctx, project);
      const release = ctx.update(deleteRelease(ctx.state, project, ctx.user, p.tag_name, ctx.now()));
      return json(await renderRelease(ctx, view, release));
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/releases/:tag_name/evidence',
    jobToken: true,
    tier: 'premium',
    offering: 'self-managed',
    params: RELEASE_ID,
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const project = findProject(ctx, p.id);
      if (!canCreateRelease(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
      const r = findRelease(ctx.state, project, p.tag_name);
      if (!r) return { status: 404, body: 404 };
      const { summary, sha } = await collectEvidence(ctx.state, project, r);
      const now = ctx.now();
      ctx.update((draft) => schedule(draft, COLLECT_EVIDENCE, now, { projectId: project.id, tagName: r.tagName, summary, sha }));
      return { status: 202, body: 202 };
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/releases',
    params: {
      id: str().required(),
      sort: str().values(['asc', 'desc'] as const).default('desc'),
      simple: bool().default(false),
      page: int(),
      per_page: int(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const group = findGroup(ctx, p.id);
      const rows = ctx.paginate(groupReleases(ctx.state, ctx.user, group, p.sort, ctx.now()));
      if (p.simple) return json(rows.map((row) => basicReleaseDetails(row.release, ctx.now())));
      const out = [];
      for (const row of rows) out.push(await renderRelease(ctx, releaseView(ctx, row.project), row.release));
      return json(out);
    },
  }),
];

/** `assets[links][]` as sent, to tell a `filepath: null` from one that was left out. */
function rawAssetLinks(raw: Record<string, unknown>): Record<string, unknown>[] {
  const assets = raw.assets;
  if (typeof assets !== 'object' || assets === null) return [];
  const links = (assets as Record<string, unknown>).links;
  const list = Array.isArray(links) ? links : typeof links === 'object' && links !== null ? Object.values(links) : [];
  return list.map((l) => (typeof l === 'object' && l !== null ? (l as Record<string, unknown>) : {}));
}

/**
 * GET permalink/latest[/suffix]: 302 to the latest release's route (relative, by numeric id),
 * the suffix kept, and the query string kept but for `order_by`.
 */
function permalink(ctx: Context<unknown>, id: string, suffix: string | undefined): Reply {
  const project = releaseProject(ctx, id);
  if (suffix !== undefined && suffix !== '') validFilePath('suffix_path', suffix);
  authorizeReadCode(ctx, project);
  const latest = latestRelease(ctx.state, project);
  if (!latest) throw notFound();
  let url = `/api/v4/projects/${project.id}/releases/${urlEncode(latest.tagName)}`;
  if (suffix) url += `/${suffix}`;
  const query = parseQuery(ctx.url.search);
  delete query.order_by;
  if (Object.keys(query).length > 0) url += `?${toQuery(query)}`;
  return redirect302(url);
}
