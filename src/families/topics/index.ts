// Topics (lib/api/topics.rb): anyone lists and reads them; administrators create, change (with
// an avatar), merge and delete them. A topic given to a project is made as it is given.
import { recordNotFound } from '../../core/errors.js';
import { any, bool, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { emptyTable, type Table } from '../../store/table.js';
import { avatarChange, avatarUrl } from '../avatars/index.js';
import { defineFamily, route, type Context, type Family, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import {
  createTopic, deleteTopic, findTopic, listTopics, makeMissing, mergeTopics, missingTopics, missingTopicsSince, totalProjects, updateTopic, type Topic,
} from './rules.js';

export interface TopicsSlice {
  /** Topics by id. */
  topics: Table<Topic>;
}

declare module '../world.js' {
  interface Slices extends TopicsSlice {}
}

/** Entities::Projects::Topic. */
const entity = (ctx: Context<unknown>, t: Topic) => ({
  id: t.id,
  name: t.name,
  title: t.title,
  description: t.description,
  total_projects_count: totalProjects(ctx.state, t),
  organization_id: 1,
  avatar_url: avatarUrl(ctx.state, ctx.webBase, 'topic', t.id),
});

function found(ctx: Context<unknown>, id: number): Topic {
  const t = findTopic(ctx.state, id);
  if (!t) throw recordNotFound();
  return t;
}

const FIELDS = { name: str(), title: str(), description: str(), avatar: any().nullable() };

/**
 * Topics a request gave projects become topics in the same change (Projects::CreateService and
 * UpdateService assign them): only a write to the projects API gives a project topics.
 */
function adoptTopics(ctx: Context<unknown>): void {
  if (ctx.request.method === 'GET' || ctx.request.method === 'HEAD' || !/\/api\/v4\/projects(\/|$)/.test(ctx.url.pathname)) return;
  const names = missingTopicsSince(ctx.initial.projects, ctx.state);
  if (names.length) ctx.update(makeMissing(names, ctx.now()));
}

export const topics: Family<TopicsSlice> = defineFamily({
  name: 'topics',
  state: () => ({ topics: emptyTable() }),
  seed: {
    after: ['projects'],
    run: (s: SeedRun) => s.update((draft) => makeMissing(missingTopics(draft as State), s.now)(draft)),
  },
  on: { request: adoptTopics },
  routes: [
    route({
      method: 'GET', path: '/topics', paginated: true, params: { search: str(), without_projects: bool().default(false), organization_id: int() },
      handler: (ctx) => json(ctx.paginate(listTopics(ctx.state, ctx.params.search, ctx.params.without_projects)).map((t) => entity(ctx, t))),
    }),
    route({
      method: 'GET', path: '/topics/:id', params: { id: int().required() },
      handler: (ctx) => json(entity(ctx, found(ctx, ctx.params.id))),
    }),
    route({
      method: 'POST', path: '/topics', auth: 'admin', params: { ...FIELDS, name: str().required(), title: str().required(), organization_id: int() },
      handler: async (ctx) => {
        const p = ctx.params;
        const t = ctx.update(createTopic(ctx.state, { name: p.name, title: p.title, description: p.description }, ctx.now()));
        const avatar = await avatarChange(ctx, 'topic', t.id, p.avatar);
        if (avatar) ctx.update(avatar);
        return created(entity(ctx, t));
      },
    }),
    route({
      method: 'PUT', path: '/topics/:id', auth: 'admin', params: { id: int().required(), ...FIELDS },
      handler: async (ctx) => {
        const topic = found(ctx, ctx.params.id);
        const avatar = await avatarChange(ctx, 'topic', topic.id, ctx.params.avatar);
        const t = ctx.update(updateTopic(ctx.state, topic, ctx.params));
        if (avatar) ctx.update(avatar);
        return json(entity(ctx, t));
      },
    }),
    route({
      method: 'DELETE', path: '/topics/:id', auth: 'admin', params: { id: int().required() },
      handler: (ctx) => {
        const t = found(ctx, ctx.params.id);
        ctx.update(deleteTopic(t));
        return noContent();
      },
    }),
    route({
      method: 'POST', path: '/topics/merge', auth: 'admin', params: { source_topic_id: int().required(), target_topic_id: int().required() },
      handler: (ctx) => {
        const source = found(ctx, ctx.params.source_topic_id);
        const target = found(ctx, ctx.params.target_topic_id);
        return created(entity(ctx, ctx.update(mergeTopics(source, target))));
      },
    }),
  ],
});
