// Project and group milestones (lib/api/project_milestones.rb, group_milestones.rb,
// milestone_responses.rb, lib/api/concerns/milestones/group_project_params.rb): list, get and
// create. Every route needs a signed-in caller (`before { authenticate! }`).
import {
  canAdminGroupMilestones, canAdminProjectMilestones, canReadProjectMilestones, castDate, createMilestone, findMilestone, findMilestones,
  groupListScope, groupTitleOwners, projectListScope, projectTitleOwners, rubyErrorsHash, titleTaken, validateMilestone, type MilestoneOwner,
} from './rules.js';
import type { Milestone } from './records.js';
import { milestoneEntity } from './entity.js';
import { milestoneNotCreated } from './errors.js';
import { recordNotFound } from '../../core/errors.js';
import { arr, bool, datetime, int, str, type Constraint } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { group, project, route, type Context } from '../define.js';
import { forbidden } from '../../core/errors.js';
import { tget } from '../../store/table.js';
import { promoteMilestone } from './promote.js';
import type { State } from '../world.js';

const LIST_PARAMS = {
  state: str().values(['active', 'closed', 'all'] as const).default('all'),
  iids: arr(int(), { commaSeparated: true }),
  title: str(),
  search: str(),
  include_parent_milestones: bool(),
  include_ancestors: bool(),
  updated_before: datetime(),
  updated_after: datetime(),
};
const LIST_CONSTRAINTS: Constraint[] = [{ kind: 'mutually_exclusive', names: ['include_ancestors', 'include_parent_milestones'] }];

const CREATE_PARAMS = { title: str().required(), description: str(), due_date: str(), start_date: str() };

interface ListInput {
  state: 'active' | 'closed' | 'all';
  iids?: number[];
  title?: string;
  search?: string;
  include_parent_milestones?: boolean;
  include_ancestors?: boolean;
  updated_before?: number;
  updated_after?: number;
}

/** `include_parent_milestones` is the deprecated name of `include_ancestors`. */
const ancestorsAsked = (p: ListInput) => (p.include_parent_milestones ?? p.include_ancestors) === true;

function list(ctx: Context<unknown>, scope: readonly Milestone[], p: ListInput): Reply {
  const found = findMilestones(scope, {
    state: p.state, iids: p.iids, title: p.title, search: p.search, updatedBefore: p.updated_before, updatedAfter: p.updated_after,
    includeAncestors: ancestorsAsked(p),
  });
  return json(ctx.paginate(found).map((m) => milestoneEntity(ctx.state, m, ctx, ctx.now())));
}

interface CreateInput {
  title: string;
  description?: string;
  due_date?: string;
  start_date?: string;
}

/**
 * Milestones::CreateService: the title stripped, dates cast as Rails casts them; an invalid
 * milestone is `Failed to create milestone {...}` with ActiveModel's errors.
 */
function create(ctx: Context<unknown>, owner: MilestoneOwner, titleOwners: readonly MilestoneOwner[], p: CreateInput): Milestone {
  const title = p.title.trim();
  const startDate = castDate(p.start_date);
  const dueDate = castDate(p.due_date);
  const errors = validateMilestone((t) => titleTaken(ctx.state, titleOwners, t), title, startDate, dueDate);
  if (Object.keys(errors).length) throw milestoneNotCreated(rubyErrorsHash(errors));
  const now = ctx.now();
  return ctx.update((draft) => createMilestone(draft as State, owner, { title, description: p.description ?? '', dueDate, startDate }, now));
}

function milestoneOf(ctx: Context<unknown>, owner: MilestoneOwner, id: number): Milestone {
  const m = findMilestone(ctx.state, owner, id);
  if (!m) throw recordNotFound();
  return m;
}

export const milestoneRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/milestones',
    auth: 'user',
    cacheable: true,
    scope: project(canReadProjectMilestones),
    paginated: true,
    params: LIST_PARAMS,
    constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => list(ctx, projectListScope(ctx.state, ctx.project, ancestorsAsked(ctx.params)), ctx.params),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/milestones/:milestone_id',
    auth: 'user',
    cacheable: true,
    scope: project(canReadProjectMilestones),
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => json(milestoneEntity(ctx.state, milestoneOf(ctx, { projectId: ctx.project.id }, ctx.params.milestone_id), ctx, ctx.now())),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/milestones',
    auth: 'user',
    scope: project(canAdminProjectMilestones),
    params: CREATE_PARAMS,
    handler: (ctx): Reply => {
      const m = create(ctx, { projectId: ctx.project.id }, projectTitleOwners(ctx.state, ctx.project), ctx.params);
      return created(milestoneEntity(ctx.state, m, ctx, ctx.now()));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/milestones',
    auth: 'user',
    cacheable: true,
    scope: group(),
    paginated: true,
    params: { ...LIST_PARAMS, include_descendants: bool() },
    constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => {
      const opts = { ancestors: ancestorsAsked(ctx.params), descendants: ctx.params.include_descendants === true };
      return list(ctx, groupListScope(ctx.state, ctx.user, ctx.group, opts, ctx.now()), ctx.params);
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/milestones/:milestone_id',
    auth: 'user',
    cacheable: true,
    scope: group(),
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => json(milestoneEntity(ctx.state, milestoneOf(ctx, { groupId: ctx.group.id }, ctx.params.milestone_id), ctx, ctx.now())),
  }),

  route({
    method: 'POST',
    path: '/groups/:id/milestones',
    auth: 'user',
    scope: group(canAdminGroupMilestones),
    params: CREATE_PARAMS,
    handler: (ctx): Reply => {
      const m = create(ctx, { groupId: ctx.group.id }, groupTitleOwners(ctx.state, ctx.group), ctx.params);
      return created(milestoneEntity(ctx.state, m, ctx, ctx.now()));
    },
  }),
  route({
    // authorize! :admin_milestone on the project, then on its group (none: refused as well).
    method: 'POST', path: '/projects/:id/milestones/:milestone_id/promote', auth: 'user', scope: project(canAdminProjectMilestones),
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => {
      const ns = tget(ctx.state.namespaces, ctx.project.namespaceId);
      if (!ns || ns.kind !== 'group' || !canAdminGroupMilestones(ctx.state, ctx.user, ns, ctx.now())) throw forbidden();
      const m = findMilestone(ctx.state, { projectId: ctx.project.id }, ctx.params.milestone_id);
      if (!m) throw recordNotFound();
      ctx.update(promoteMilestone(ctx.state, m, ns, ctx.now()));
      return json(200);
    },
  }),
];
