// The other project events hooks take: Release Hook (Gitlab::HookData::ReleaseBuilder),
// Milestone Hook (Gitlab::DataBuilder::Milestone), Wiki Page Hook (Gitlab::DataBuilder::WikiPage)
// and Feature Flag Hook (Gitlab::DataBuilder::FeatureFlag).
import { entryAt } from '../../git/tree.js';
import { pget, tget } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { projectFullPath, projectHookAttrs, userHookAttrs, utcTime, type Json } from './payloads.js';
import { sendToProject as send } from './subscribers.js';

const ACTIONS = { created: 'create', updated: 'update', deleted: 'delete', closed: 'close', reopened: 'reopen', destroyed: 'delete' } as const;
const actionOf = (kind: string) => ACTIONS[kind.split('.')[1] as keyof typeof ACTIONS];

/** Release Hook. */
function onRelease(ctx: Context<unknown>, e: StoredEvent<'release.created' | 'release.updated' | 'release.deleted'>): void {
  const state = e.kind === 'release.deleted' ? (ctx.initial as State) : ctx.state;
  const release = pget(state.releases, e.projectId, e.tag);
  const project = tget(state.projects, e.projectId);
  if (!release || !project) return;
  send(ctx, e.projectId, 'release_hooks', async (env) => {
    const p = projectHookAttrs(state, project, env.webBase);
    let commit: Json | null = null;
    if (release.sha) {
      try {
        const c = await env.repo(project.id).readCommit(release.sha);
        commit = {
          id: release.sha, message: c.message, title: c.message.split(/\r?\n/, 1)[0], timestamp: new Date(c.committer.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          url: `${p.web_url}/-/commit/${release.sha}`, author: { name: c.author.name, email: c.author.email },
        };
      } catch {
        commit = null;
      }
    }
    const sources = ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((format) => ({ format, url: `${p.web_url}/-/archive/${release.tagName}/${project.path}-${release.tagName}.${format}` }));
    return {
      id: release.id,
      created_at: utcTime(release.createdAt),
      description: release.description,
      name: release.name,
      released_at: utcTime(release.releasedAt),
      tag: release.tagName,
      object_kind: 'release',
      project: p,
      url: `${p.web_url}/-/releases/${encodeURIComponent(release.tagName)}`,
      action: actionOf(e.kind),
      assets: {
        count: release.links.length + sources.length,
        links: release.links.map((l) => ({ id: l.id, link_type: l.linkType, name: l.name, url: l.url })),
        sources,
      },
      commit,
    };
  });
}

/** Milestone Hook: a project's milestones. */
function onMilestone(ctx: Context<unknown>, e: StoredEvent<'milestone.created' | 'milestone.closed' | 'milestone.reopened' | 'milestone.destroyed'>): void {
  if (e.projectId === undefined) return;
  const state = e.kind === 'milestone.destroyed' ? (ctx.initial as State) : ctx.state;
  const m = pget(state.projectMilestones, e.projectId, e.milestoneId);
  const project = tget(state.projects, e.projectId);
  if (!m || !project) return;
  send(ctx, e.projectId, 'milestone_hooks', (env) => ({
    object_kind: 'milestone',
    event_type: 'milestone',
    project: projectHookAttrs(state, project, env.webBase),
    object_attributes: {
      id: m.id, iid: m.iid, title: m.title, description: m.description, state: m.state, created_at: utcTime(m.createdAt), updated_at: utcTime(m.updatedAt),
      due_date: m.dueDate, start_date: m.startDate, project_id: m.projectId, group_id: m.groupId,
    },
    action: actionOf(e.kind),
  }));
}

/** Wiki Page Hook: a project's wiki pages. */
function onWikiPage(ctx: Context<unknown>, e: StoredEvent<'wiki_page.created' | 'wiki_page.updated' | 'wiki_page.deleted'>): void {
  if (e.projectId === undefined) return;
  const project = tget(ctx.state.projects, e.projectId);
  const user = e.actorId === null ? undefined : tget(ctx.state.users, e.actorId);
  if (!project || !user) return;
  const wiki = tget(ctx.state.projectWikis, e.projectId);
  const page = pget(ctx.state.projectWikiPages, e.projectId, e.slug.toLowerCase()) ?? pget((ctx.initial as State).projectWikiPages, e.projectId, e.slug.toLowerCase());
  const state = ctx.state;
  send(ctx, e.projectId, 'wiki_page_hooks', async (env) => {
    const p = projectHookAttrs(state, project, env.webBase);
    const full = projectFullPath(state, project);
    let content = '';
    if (wiki && page && e.kind !== 'wiki_page.deleted') {
      try {
        const repo = env.repo(project.id);
        const entry = await entryAt(repo, (await repo.readCommit(wiki.head)).tree, page.path);
        if (entry) content = new TextDecoder().decode(await repo.readBlob(entry.oid));
      } catch {
        content = '';
      }
    }
    const url = `${p.web_url}/-/wikis/${e.slug}`;
    return {
      object_kind: 'wiki_page',
      user: userHookAttrs(user),
      project: p,
      wiki: { web_url: `${p.web_url}/-/wikis/home`, git_ssh_url: p.git_ssh_url.replace(/\.git$/, '.wiki.git'), git_http_url: p.git_http_url.replace(/\.git$/, '.wiki.git'), path_with_namespace: `${full}.wiki`, default_branch: wiki?.branch ?? 'main' },
      object_attributes: {
        slug: e.slug, title: e.title, format: e.format, content, message: '', url, action: actionOf(e.kind),
        diff_url: `${url}/diff?version_id=${wiki?.head ?? ''}`, version_id: wiki?.head ?? null,
      },
    };
  });
}

/** Feature Flag Hook (FeatureFlags::HookService, Gitlab::DataBuilder::FeatureFlag): a flag switched on or off. */
function onFeatureFlag(ctx: Context<unknown>, e: StoredEvent<'feature_flag.toggled'>): void {
  const flag = pget(ctx.state.featureFlags, e.projectId, e.flagId);
  const project = tget(ctx.state.projects, e.projectId);
  const user = e.actorId === null ? undefined : tget(ctx.state.users, e.actorId);
  if (!flag || !project || !user) return;
  const state = ctx.state;
  send(ctx, e.projectId, 'feature_flag_hooks', (env) => ({
    object_kind: 'feature_flag',
    project: projectHookAttrs(state, project, env.webBase),
    user: userHookAttrs(user),
    user_url: `${env.webBase}/${user.username}`,
    object_attributes: { id: flag.id, name: flag.name, description: flag.description, active: flag.active },
  }));
}

export const moreSubscribers = {
  'feature_flag.toggled': onFeatureFlag,
  'release.created': onRelease,
  'release.updated': onRelease,
  'release.deleted': onRelease,
  'milestone.created': onMilestone,
  'milestone.closed': onMilestone,
  'milestone.reopened': onMilestone,
  'milestone.destroyed': onMilestone,
  'wiki_page.created': onWikiPage,
  'wiki_page.updated': onWikiPage,
  'wiki_page.deleted': onWikiPage,
};

