// Updating and deleting milestones (lib/api/milestone_responses.rb `update_milestone_for`,
// project_milestones.rb and group_milestones.rb DELETE, Milestones::UpdateService,
// Milestones::DestroyService). The title index of the owner follows each change.
import type { Draft } from 'immer';
import { recordNotFound } from '../../core/errors.js';
import { int, str, type Constraint } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { pdel, pget, pset } from '../../store/table.js';
import { group, plain, project, route, type Change, type Context } from '../define.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import { milestoneEntity } from './entity.js';
import { milestoneNotUpdated } from './errors.js';
import type { Milestone } from './records.js';
import {
  eventOwner,
  canAdminGroupMilestones, canAdminProjectMilestones, castDate, findMilestone, groupTitleOwners, projectTitleOwners, rubyErrorsHash, validateMilestone,
  type MilestoneOwner,
} from './rules.js';

export interface MilestoneChanges {
  title?: string;
  description?: string;
  due_date?: string;
  start_date?: string;
  state_event?: 'close' | 'activate';
}

const titlesOf = (d: State, o: MilestoneOwner) => (o.projectId !== undefined ? [d.projectMilestoneTitles, o.projectId] as const : [d.groupMilestoneTitles, o.groupId] as const);
const milestonesOf = (d: State, o: MilestoneOwner) => (o.projectId !== undefined ? [d.projectMilestones, o.projectId] as const : [d.groupMilestones, o.groupId] as const);

/** Milestones::UpdateService: the attributes sent, then the state event; Timebox's validations. */
export function updateMilestone(state: State, owner: MilestoneOwner, titleOwners: readonly MilestoneOwner[], m: Milestone, p: MilestoneChanges, now: number): Change<Milestone> {
  const title = p.title !== undefined ? p.title.trim() : m.title;
  const startDate = p.start_date !== undefined ? castDate(p.start_date) : m.startDate;
  const dueDate = p.due_date !== undefined ? castDate(p.due_date) : m.dueDate;
  const taken = (t: string) =>
    titleOwners.some((o) => {
      const [index, key] = titlesOf(state, o);
      const id = pget(index, key, t);
      return id !== undefined && id !== m.id;
    });
  const errors = validateMilestone(taken, title, startDate, dueDate);
  if (Object.keys(errors).length) throw milestoneNotUpdated(rubyErrorsHash(errors));
  return (draft: Draft<State>) => {
    const d = draft as State;
    const [table, key] = milestonesOf(d, owner);
    const current = pget(table, key, m.id)!;
    const next: Milestone = {
      ...current,
      title,
      description: p.description ?? current.description,
      startDate,
      dueDate,
      state: p.state_event === 'close' ? 'closed' : p.state_event === 'activate' ? 'active' : current.state,
      updatedAt: now,
    };
    pset(table, key, m.id, next);
    if (next.state !== current.state) emit(draft, { kind: next.state === 'closed' ? 'milestone.closed' : 'milestone.reopened', ...eventOwner(owner), milestoneId: m.id });
    if (title !== current.title) {
      const [index, ikey] = titlesOf(d, owner);
      pdel(index, ikey, current.title);
      pset(index, ikey, title, m.id);
    }
    return plain(next);
  };
}

/** Milestones::DestroyService: the milestone and its title go; releases keep only milestones that exist. */
export function destroyMilestone(owner: MilestoneOwner, m: Milestone): Change<void> {
  return (draft) => {
    const d = draft as State;
    const [table, key] = milestonesOf(d, owner);
    pdel(table, key, m.id);
    const [index, ikey] = titlesOf(d, owner);
    if (pget(index, ikey, m.title) === m.id) pdel(index, ikey, m.title);
    emit(draft, { kind: 'milestone.destroyed', ...eventOwner(owner), milestoneId: m.id });
  };
}

const UPDATE_PARAMS = {
  milestone_id: int().required(),
  title: str(),
  description: str(),
  due_date: str(),
  start_date: str(),
  state_event: str().values(['close', 'activate'] as const),
};
const UPDATE_CONSTRAINTS: Constraint[] = [{ kind: 'at_least_one_of', names: ['title', 'description', 'start_date', 'due_date', 'state_event'] }];

function found(ctx: Context<unknown>, owner: MilestoneOwner, id: number): Milestone {
  const m = findMilestone(ctx.state, owner, id);
  if (!m) throw recordNotFound();
  return m;
}

function update(ctx: Context<MilestoneChanges & { milestone_id: number }>, owner: MilestoneOwner, titleOwners: readonly MilestoneOwner[]): Reply {
  const m = found(ctx, owner, ctx.params.milestone_id);
  const next = ctx.update(updateMilestone(ctx.state, owner, titleOwners, m, ctx.params, ctx.now()));
  return json(milestoneEntity(ctx.state, next, ctx, ctx.now()));
}

export const milestoneWriteRoutes = [
  route({
    method: 'PUT',
    path: '/projects/:id/milestones/:milestone_id',
    auth: 'user',
    scope: project(canAdminProjectMilestones),
    params: UPDATE_PARAMS,
    constraints: UPDATE_CONSTRAINTS,
    handler: (ctx) => update(ctx, { projectId: ctx.project.id }, projectTitleOwners(ctx.state, ctx.project)),
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/milestones/:milestone_id',
    auth: 'user',
    scope: project(canAdminProjectMilestones),
    params: { milestone_id: int().required() },
    handler: (ctx) => {
      const owner = { projectId: ctx.project.id };
      ctx.update(destroyMilestone(owner, found(ctx, owner, ctx.params.milestone_id)));
      return noContent();
    },
  }),
  route({
    method: 'PUT',
    path: '/groups/:id/milestones/:milestone_id',
    auth: 'user',
    scope: group(canAdminGroupMilestones),
    params: UPDATE_PARAMS,
    constraints: UPDATE_CONSTRAINTS,
    handler: (ctx) => update(ctx, { groupId: ctx.group.id }, groupTitleOwners(ctx.state, ctx.group)),
  }),
  route({
    method: 'DELETE',
    path: '/groups/:id/milestones/:milestone_id',
    auth: 'user',
    scope: group(canAdminGroupMilestones),
    params: { milestone_id: int().required() },
    handler: (ctx) => {
      const owner = { groupId: ctx.group.id };
      ctx.update(destroyMilestone(owner, found(ctx, owner, ctx.params.milestone_id)));
      return noContent();
    },
  }),
];
