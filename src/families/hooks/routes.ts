// lib/api/project_hooks.rb, group_hooks.rb (ee), system_hooks.rb and lib/api/hooks/*: one set of
// routes per kind of hook, over one model. Project hooks are a maintainer's, group hooks an
// owner's (Premium), system hooks an administrator's.
import { arr, bool, hash, int, str, type Parsed } from '../../http/params.js';
import { created, json, noContent, type AnyParam, type Reply, type Scope } from '../../http/route.js';
import type { Tier } from '../../store/state.js';
import { group, project, route, type Context } from '../define.js';
import { canAdminProject } from '../projects/index.js';
import { canOwnGroup } from '../groups/index.js';
import type { State } from '../world.js';
import { hookEntity } from './entity.js';
import { customHeaderNotFound, hookNotFound, illegalKeyOrValue, noParameters, urlVariableNotFound } from './errors.js';
import { BRANCH_FILTER_STRATEGIES, EVENT_FLAGS, SYSTEM_FLAGS, type EventFlag, type Hook, type HookKind } from './records.js';
import { createHook, deleteHook, hookOf, hooksOf, updateHook, type HookInput } from './rules.js';
import { logRoutes } from './log-routes.js';
import { testRoutes } from './test-routes.js';

const PAIR = hash({ key: str().required(), value: str().required() });

const PROJECT_FLAGS: readonly EventFlag[] = [
  'push_events', 'issues_events', 'confidential_issues_events', 'merge_requests_events', 'tag_push_events', 'note_events', 'confidential_note_events',
  'job_events', 'pipeline_events', 'wiki_page_events', 'deployment_events', 'feature_flag_events', 'releases_events', 'milestone_events', 'emoji_events',
  'resource_access_token_events', 'vulnerability_events',
];
const GROUP_FLAGS: readonly EventFlag[] = [...PROJECT_FLAGS, 'subgroup_events', 'member_events', 'project_events'];

/** The parameters every kind takes, and its event flags. */
function fieldsOf(flags: readonly EventFlag[]) {
  const out: Record<string, AnyParam> = {
    name: str(), description: str(), token: str(), enable_ssl_verification: bool(), push_events_branch_filter: str(),
    branch_filter_strategy: str().values(BRANCH_FILTER_STRATEGIES), custom_webhook_template: str(), url_variables: arr(PAIR), custom_headers: arr(PAIR),
  };
  for (const f of flags) out[f] = bool();
  return out;
}

type Given = Record<string, unknown> & { url?: string; url_variables?: { key: string; value: string }[]; custom_headers?: { key: string; value: string }[] };

/** The declared parameters as the model's input (create_hook_params). */
function input(p: Given): HookInput {
  const events: Partial<Record<EventFlag, boolean>> = {};
  for (const f of EVENT_FLAGS) if (typeof p[f] === 'boolean') events[f] = p[f] as boolean;
  const text = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  return {
    url: p.url, name: text('name'), description: text('description'), token: text('token'), events,
    enableSslVerification: typeof p.enable_ssl_verification === 'boolean' ? p.enable_ssl_verification : undefined,
    pushEventsBranchFilter: text('push_events_branch_filter'), branchFilterStrategy: text('branch_filter_strategy') as HookInput['branchFilterStrategy'],
    customWebhookTemplate: text('custom_webhook_template'),
    customHeaders: p.custom_headers?.map((h) => [h.key, h.value] as [string, string]),
    urlVariables: p.url_variables?.map((v) => [v.key, v.value] as [string, string]),
  };
}

/** update_hook_params: URL variables and custom headers merge into the hook's; nothing given is 400. */
function updateInput(hook: Hook, p: Given): HookInput {
  const given = input(p);
  const defined = Object.entries(given).filter(([k, v]) => v !== undefined && !(k === 'events' && Object.keys(v as object).length === 0));
  if (defined.length === 0) throw noParameters();
  if (given.urlVariables?.length) given.urlVariables = [...hook.urlVariables, ...given.urlVariables];
  else delete given.urlVariables;
  if (given.customHeaders?.length) given.customHeaders = [...hook.customHeaders, ...given.customHeaders];
  else delete given.customHeaders;
  return given;
}

/** Where a kind's hooks live and who may manage them. */
export interface HookPlace {
  kind: HookKind;
  /** The routes' prefix: `/projects/:id/hooks`. */
  base: string;
  scope?: Scope;
  auth: 'user' | 'admin';
  tier?: Tier;
  owner(ctx: Context<unknown>): number | null;
}

const HOOK_ID = { hook_id: int().required() };

export function foundHook(ctx: Context<unknown>, place: HookPlace, id: number): Hook {
  const hook = hookOf(ctx.state as State, place.kind, place.owner(ctx), id);
  if (!hook) throw hookNotFound();
  return hook;
}

function kindRoutes(place: HookPlace, flags: readonly EventFlag[]) {
  const { base, scope, auth, tier } = place;
  const common = { auth, ...(scope ? { scope } : {}), ...(tier ? { tier } : {}) } as const;
  const FIELDS = fieldsOf(flags);
  const render = (ctx: Context<unknown>, hook: Hook) => hookEntity(hook, ctx.now());
  return [
    route({
      method: 'GET', path: base, ...common, paginated: true,
      handler: (ctx) => json(ctx.paginate(hooksOf(ctx.state, place.kind, place.owner(ctx))).map((h) => render(ctx, h))),
    }),
    route({
      method: 'GET', path: `${base}/:hook_id`, ...common, params: HOOK_ID,
      handler: (ctx) => json(render(ctx, foundHook(ctx, place, ctx.params.hook_id))),
    }),
    route({
      method: 'POST', path: base, ...common, params: { ...FIELDS, url: str().required() },
      handler: (ctx) => created(render(ctx, ctx.update(createHook(ctx.state, place.kind, place.owner(ctx), input(ctx.params as Given), ctx.now())))),
    }),
    route({
      method: 'PUT', path: `${base}/:hook_id`, ...common, params: { ...FIELDS, ...HOOK_ID, url: str() },
      handler: (ctx) => {
        const hook = foundHook(ctx, place, ctx.params.hook_id);
        const { hook_id: _, ...rest } = ctx.params as Given & { hook_id: number };
        return json(render(ctx, ctx.update(updateHook(ctx.state, hook, updateInput(hook, rest)))));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:hook_id`, ...common, params: HOOK_ID,
      handler: (ctx) => {
        ctx.update(deleteHook(foundHook(ctx, place, ctx.params.hook_id)));
        return noContent();
      },
    }),
    ...pairRoutes(place, 'url_variables', common),
    ...pairRoutes(place, 'custom_headers', common),
  ];
}

/** lib/api/hooks/url_variables.rb and custom_headers.rb: set or unset one by key. */
function pairRoutes(place: HookPlace, which: 'url_variables' | 'custom_headers', common: object) {
  const field = which === 'url_variables' ? 'urlVariables' : 'customHeaders';
  const params = { ...HOOK_ID, key: str().required() };
  const change = (ctx: Context<Parsed<typeof params>>, hook: Hook, list: [string, string][]): Reply => {
    try {
      ctx.update(updateHook(ctx.state, hook, { [field]: list }));
    } catch {
      throw illegalKeyOrValue();
    }
    return noContent();
  };
  return [
    route({
      method: 'PUT', path: `${place.base}/:hook_id/${which}/:key`, ...common, params: { ...params, value: str().required() },
      handler: (ctx) => {
        const hook = foundHook(ctx, place, ctx.params.hook_id);
        return change(ctx, hook, [...hook[field], [ctx.params.key, ctx.params.value]]);
      },
    }),
    route({
      method: 'DELETE', path: `${place.base}/:hook_id/${which}/:key`, ...common, params,
      handler: (ctx) => {
        const hook = foundHook(ctx, place, ctx.params.hook_id);
        if (!hook[field].some(([k]) => k === ctx.params.key)) throw which === 'url_variables' ? urlVariableNotFound() : customHeaderNotFound();
        return change(ctx, hook, hook[field].filter(([k]) => k !== ctx.params.key));
      },
    }),
  ];
}

export const PROJECT_HOOKS: HookPlace = { kind: 'project', base: '/projects/:id/hooks', scope: project(canAdminProject), auth: 'user', owner: (ctx) => ctx.project.id };
export const GROUP_HOOKS: HookPlace = { kind: 'group', base: '/groups/:id/hooks', scope: group(canOwnGroup), auth: 'user', tier: 'premium', owner: (ctx) => ctx.group.id };
export const SYSTEM_HOOKS: HookPlace = { kind: 'system', base: '/hooks', auth: 'admin', owner: () => null };

export const hookRoutes = [
  ...kindRoutes(PROJECT_HOOKS, PROJECT_FLAGS),
  ...kindRoutes(GROUP_HOOKS, GROUP_FLAGS),
  ...kindRoutes(SYSTEM_HOOKS, SYSTEM_FLAGS),
  ...logRoutes([PROJECT_HOOKS, GROUP_HOOKS]),
  ...testRoutes([PROJECT_HOOKS, GROUP_HOOKS, SYSTEM_HOOKS]),
];
