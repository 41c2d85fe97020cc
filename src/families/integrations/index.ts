// Project integrations (lib/api/integrations.rb, Entities::ProjectIntegrationBasic and
// ProjectIntegration), at `/projects/:id/integrations` and the older `/projects/:id/services`:
// maintainers list the active ones, set one up or change it (PUT, which activates it), read one
// set up before, and disable one (its settings cleared, its row kept, as GitLab does).
import { notFound } from '../../core/errors.js';
import { bool, str, type ParamSpec } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { emptyTable, pget, plist, pset, tdel, type Partitioned } from '../../store/table.js';
import { ACCESS, sequences, type Project, type User } from '../../store/state.js';
import { defineFamily, project, route, type Family } from '../define.js';
import type { State } from '../world.js';
import { EVENT_DEFAULTS, INTEGRATION_KINDS } from './catalog.js';

export interface Integration {
  id: number;
  slug: string;
  active: boolean;
  /** The settings given, by field name. */
  settings: Record<string, string | boolean | null>;
  events: Record<string, boolean>;
  createdAt: number;
  updatedAt: number;
}

export interface IntegrationsSlice {
  /** Project id -> its integrations by slug (set up once, never removed: disabled). */
  integrations: Partitioned<Integration>;
}

declare module '../world.js' {
  interface Slices extends IntegrationsSlice {}
}

const ids = sequences(['integration']);

/** `admin_project`: maintainers. */
const canAdminProject = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.maintainer, now);

function basicEntity(i: Integration) {
  return {
    id: i.id,
    title: INTEGRATION_KINDS[i.slug]!.title,
    slug: i.slug,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    active: i.active,
    ...i.events,
    inherited: false,
  };
}

/** ProjectIntegration: the basic fields and the settings that are not secret. */
function integrationEntity(i: Integration) {
  const properties: Record<string, unknown> = {};
  for (const f of INTEGRATION_KINDS[i.slug]!.fields) if (!f.secret && !Object.hasOwn(EVENT_DEFAULTS, f.name)) properties[f.name] = i.settings[f.name] ?? null;
  return { ...basicEntity(i), properties };
}

const EVENT_PARAMS: ParamSpec = Object.fromEntries(Object.keys(EVENT_DEFAULTS).map((e) => [e, bool()]));

function paramsOf(slug: string): ParamSpec {
  const out: ParamSpec = { ...EVENT_PARAMS };
  for (const f of INTEGRATION_KINDS[slug]!.fields) {
    const p = f.type === 'boolean' ? bool() : str();
    out[f.name] = f.required ? p.required() : p;
  }
  return out;
}

const SLUGS = Object.keys(INTEGRATION_KINDS);

const routesAt = (base: string) => [
  route({
    method: 'GET', path: `/projects/:id/${base}`, auth: 'user', scope: project(canAdminProject),
    handler: (ctx): Reply => json(plist(ctx.state.integrations, ctx.project.id).filter((i) => i.active).sort((a, b) => a.id - b.id).map(basicEntity)),
  }),
  ...SLUGS.map((slug) =>
    route({
      method: 'PUT', path: `/projects/:id/${base}/${slug}`, auth: 'user', scope: project(canAdminProject), params: paramsOf(slug),
      handler: (ctx): Reply => {
        const given = ctx.params as Record<string, unknown>;
        const now = ctx.now();
        const projectId = ctx.project.id;
        const saved = ctx.update((draft) => {
          const before = pget(draft.integrations as State['integrations'], projectId, slug);
          const settings = { ...(before?.settings ?? {}) };
          const events = { ...EVENT_DEFAULTS, ...(before?.events ?? {}) };
          for (const [k, v] of Object.entries(given)) {
            if (v === undefined) continue;
            if (Object.hasOwn(EVENT_DEFAULTS, k)) events[k] = v as boolean;
            else settings[k] = v as string | boolean;
          }
          const next: Integration = {
            id: before?.id ?? ids.next(draft as State, 'integration'), slug, active: true, settings, events, createdAt: before?.createdAt ?? now, updatedAt: now,
          };
          pset(draft.integrations, projectId, slug, next);
          return next;
        });
        return json(integrationEntity(saved));
      },
    }),
  ),
  route({
    method: 'GET', path: `/projects/:id/${base}/:slug`, auth: 'user', scope: project(canAdminProject), params: { slug: str().required().values(SLUGS) },
    handler: (ctx): Reply => {
      const i = pget(ctx.state.integrations, ctx.project.id, ctx.params.slug);
      if (!i) throw notFound('Integration');
      return json(integrationEntity(i));
    },
  }),
  route({
    method: 'DELETE', path: `/projects/:id/${base}/:slug`, auth: 'user', scope: project(canAdminProject), params: { slug: str().required().values(SLUGS) },
    handler: (ctx): Reply => {
      const slug = ctx.params.slug;
      const projectId = ctx.project.id;
      const now = ctx.now();
      // find_or_initialize_integration: disabling one never set up makes its (inactive) row.
      ctx.update((draft) => {
        const before = pget(draft.integrations as State['integrations'], projectId, slug);
        pset(draft.integrations, projectId, slug, {
          id: before?.id ?? ids.next(draft as State, 'integration'), slug, active: false, settings: {}, events: { ...EVENT_DEFAULTS, ...(before?.events ?? {}) },
          createdAt: before?.createdAt ?? now, updatedAt: now,
        });
      });
      return noContent();
    },
  }),
];

export const integrations: Family<IntegrationsSlice> = defineFamily({
  name: 'integrations',
  state: () => ({ integrations: emptyTable() }),
  routes: [...routesAt('integrations'), ...routesAt('services')],
  forget: { project: (draft, id) => void tdel((draft as State).integrations, id) },
});
