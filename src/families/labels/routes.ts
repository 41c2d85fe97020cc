// Project and group labels (lib/api/labels.rb, group_labels.rb, helpers/labels_helpers.rb):
// list, get, create, update and delete. Labels of a project include its groups' by default.
import type { Draft } from 'immer';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { hasGroupRole, hasProjectRole, isWithin } from '../../policy/access.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { int, bool, str, type Constraint } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { messageError, validationFailed } from '../../core/errors.js';
import { group, project, route, type Change, type Context } from '../define.js';
import type { State } from '../world.js';
import { labelEntity } from './entity.js';
import { labelExists, labelNotFound } from './errors.js';
import type { Label } from './records.js';
import { createLabel, groupLabelOwners, labelById, labelByTitle, normalizeColor, ownLabels, projectLabelOwners, validateLabel } from './rules.js';
import { ownerKey, type LabelOwner } from './store.js';
import { unlabelAll } from './uses.js';
import { promoteLabel } from './promote.js';

/** `admin_label`: Planners and above (and administrators). */
const canAdminProjectLabels = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.planner, now);
const canAdminGroupLabels = (state: State, user: User | null, g: Namespace, now: number) => hasGroupRole(state, user, g, ACCESS.planner, now);
/** `read_label`: any reader of the project. */
const canReadProjectLabels = (_state: State, _user: User | null, _p: Project, _now: number) => true;

const byTitle = (a: Label, b: Label) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id);

function search(list: Label[], q: string | undefined): Label[] {
  if (!q) return list;
  const t = q.toLowerCase();
  return list.filter((l) => l.title.toLowerCase().includes(t) || l.description.toLowerCase().includes(t));
}

/** A label of the owners by id or by title. */
function findLabel(state: State, owners: LabelOwner[], key: string): Label | undefined {
  if (/^\d+$/.test(key)) {
    const l = labelById(state, Number(key));
    if (l && owners.some((o) => (o.projectId !== undefined ? l.projectId === o.projectId : l.groupId === o.groupId))) return l;
  }
  for (const o of owners) {
    const l = labelByTitle(state, o, key);
    if (l) return l;
  }
  return undefined;
}

const CREATE = { name: str().required(), color: str().required(), description: str(), priority: int().nullable() };
const UPDATE = { label_id: str().required(), new_name: str(), color: str(), description: str(), priority: int().nullable() };
const UPDATE_ONE: Constraint[] = [{ kind: 'at_least_one_of', names: ['new_name', 'color', 'description', 'priority'] }];

function create(ctx: Context<unknown>, owner: LabelOwner, p: { name: string; color: string; description?: string; priority?: number | null }): Label {
  const title = p.name.trim();
  if (labelByTitle(ctx.state, owner, title)) throw labelExists();
  const color = normalizeColor(p.color);
  const errors = validateLabel(ctx.state, owner, title, color);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return ctx.update((draft) => createLabel(draft, owner, { title, color: color!, description: p.description, priority: owner.projectId !== undefined ? p.priority ?? null : null }, ctx.now()));
}

function update(ctx: Context<unknown>, owner: LabelOwner, label: Label, p: { new_name?: string; color?: string; description?: string; priority?: number | null }): Label {
  const title = p.new_name !== undefined ? p.new_name.trim() : label.title;
  const color = p.color !== undefined ? normalizeColor(p.color) : label.color;
  const errors = validateLabel(ctx.state, owner, title, color, label.id);
  if (Object.keys(errors).length) throw validationFailed(errors);
  const next: Label = { ...label, title, color: color!, description: p.description ?? label.description, priority: p.priority !== undefined ? p.priority : label.priority };
  const change: Change<Label> = (draft) => {
    tset(draft.labels, label.id, next);
    const titles = tget(draft.labelTitles, ownerKey(owner))!;
    tdel(titles, label.title);
    tset(titles, title, label.id);
    return next;
  };
  return ctx.update(change);
}

/** Deleting a label takes it off every record that carries it. */
function remove(label: Label): Change {
  return (draft: Draft<State>) => {
    unlabelAll(draft, label);
    tdel(draft.labels, label.id);
    const titles = tget(draft.labelTitles, label.projectId !== null ? `p${label.projectId}` : `g${label.groupId}`);
    if (titles) tdel(titles, label.title);
  };
}

/** Subscribe or unsubscribe the caller (lib/api/subscriptions.rb): 201 with the label, 304 when already so. */
function subscription(ctx: Context<{ subscribable_id: string }>, owners: LabelOwner[], on: boolean, asProject: boolean): Reply {
  const l = findLabel(ctx.state, owners, ctx.params.subscribable_id);
  if (!l) throw labelNotFound();
  const user = ctx.user!;
  const key = `${l.id}:${user.id}`;
  if ((tget(ctx.state.labelSubscriptions, key) === true) === on) return { status: 304 };
  ctx.update((draft) => void (on ? tset(draft.labelSubscriptions, key, true) : tdel(draft.labelSubscriptions, key)));
  return created(labelEntity(ctx.state, l, false, asProject, user));
}

/**
 * The deprecated forms (GitLab 12.4): PUT and DELETE on the collection, the label named by
 * `label_id` or `name` (exactly one), as python-gitlab still sends them.
 */
const LEGACY_KEY = { label_id: int(), name: str() };
const LEGACY_ONE: Constraint[] = [{ kind: 'exactly_one_of', names: ['label_id', 'name'] }];
const legacyKey = (p: { label_id?: number; name?: string }) => (p.label_id !== undefined ? String(p.label_id) : p.name!);
const LEGACY_UPDATE = { ...LEGACY_KEY, new_name: str(), color: str(), description: str(), priority: int().nullable() };

/** promote_label: the project must be in a group; the label is the project's own (404 otherwise). */
function promote(ctx: Context<{ name: string }>): Reply {
  const ns = tget(ctx.state.namespaces, ctx.project.namespaceId);
  if (!ns || ns.kind !== 'group') throw messageError(400, 'Failed to promote project label to group label');
  const l = findLabel(ctx.state, [{ projectId: ctx.project.id }], ctx.params.name);
  if (!l) throw labelNotFound();
  const groupLabel = ctx.update(promoteLabel(l, ns, ctx.now()));
  return json(labelEntity(ctx.state, groupLabel, false, false, ctx.user));
}

export const labelRoutes = [
  ...(['subscribe', 'unsubscribe'] as const).flatMap((action) => [
    route({
      method: 'POST', path: `/projects/:id/labels/:subscribable_id/${action}`, auth: 'user', scope: project(canReadProjectLabels), params: { subscribable_id: str().required() },
      handler: (ctx): Reply => subscription(ctx, projectLabelOwners(ctx.state, ctx.project), action === 'subscribe', true),
    }),
    route({
      method: 'POST', path: `/groups/:id/labels/:subscribable_id/${action}`, auth: 'user', scope: group(), params: { subscribable_id: str().required() },
      handler: (ctx): Reply => subscription(ctx, groupLabelOwners(ctx.state, ctx.group), action === 'subscribe', false),
    }),
  ]),
  route({
    method: 'GET', path: '/projects/:id/labels', cacheable: true, scope: project(canReadProjectLabels), paginated: true,
    params: { with_counts: bool().default(false), include_ancestor_groups: bool().default(true), search: str() },
    handler: (ctx): Reply => {
      const owners = ctx.params.include_ancestor_groups ? projectLabelOwners(ctx.state, ctx.project) : [{ projectId: ctx.project.id }];
      const list = search(owners.flatMap((o) => ownLabels(ctx.state, o)), ctx.params.search).sort(byTitle);
      return json(ctx.paginate(list).map((l) => labelEntity(ctx.state, l, ctx.params.with_counts, true, ctx.user)));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/labels/:label_id', cacheable: true, scope: project(canReadProjectLabels),
    params: { label_id: str().required(), include_ancestor_groups: bool().default(true) },
    handler: (ctx): Reply => {
      const owners = ctx.params.include_ancestor_groups ? projectLabelOwners(ctx.state, ctx.project) : [{ projectId: ctx.project.id }];
      const l = findLabel(ctx.state, owners, ctx.params.label_id);
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, l, false, true, ctx.user));
    },
  }),
  route({
    method: 'POST', path: '/projects/:id/labels', auth: 'user', scope: project(canAdminProjectLabels), params: CREATE,
    handler: (ctx): Reply => created(labelEntity(ctx.state, create(ctx, { projectId: ctx.project.id }, ctx.params), false, true, ctx.user)),
  }),
  route({
    method: 'PUT', path: '/projects/:id/labels/:label_id', auth: 'user', scope: project(canAdminProjectLabels), params: UPDATE, constraints: UPDATE_ONE,
    handler: (ctx): Reply => {
      const owner = { projectId: ctx.project.id };
      const l = findLabel(ctx.state, [owner], ctx.params.label_id);
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, update(ctx, owner, l, ctx.params), false, true, ctx.user));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/labels/:label_id', auth: 'user', scope: project(canAdminProjectLabels), params: { label_id: str().required() },
    handler: (ctx): Reply => {
      const l = findLabel(ctx.state, [{ projectId: ctx.project.id }], ctx.params.label_id);
      if (!l) throw labelNotFound();
      ctx.update(remove(l));
      return noContent();
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/labels', cacheable: true, scope: group(), paginated: true,
    params: { with_counts: bool().default(false), include_ancestor_groups: bool().default(true), include_descendant_groups: bool().default(false), only_group_labels: bool().default(true), search: str() },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const owners: LabelOwner[] = p.include_ancestor_groups ? groupLabelOwners(ctx.state, ctx.group) : [{ groupId: ctx.group.id }];
      if (p.include_descendant_groups) {
        for (const ns of tvalues(ctx.state.namespaces)) if (ns.kind === 'group' && ns.id !== ctx.group.id && isWithin(ctx.state, ns.id, ctx.group.id)) owners.push({ groupId: ns.id });
        if (!p.only_group_labels) for (const pr of tvalues(ctx.state.projects)) if (isWithin(ctx.state, pr.namespaceId, ctx.group.id)) owners.push({ projectId: pr.id });
      }
      const list = search(owners.flatMap((o) => ownLabels(ctx.state, o)), p.search).sort(byTitle);
      return json(ctx.paginate(list).map((l) => labelEntity(ctx.state, l, p.with_counts, false, ctx.user)));
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/labels/:label_id', cacheable: true, scope: group(), params: { label_id: str().required() },
    handler: (ctx): Reply => {
      const l = findLabel(ctx.state, groupLabelOwners(ctx.state, ctx.group), ctx.params.label_id);
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, l, false, false, ctx.user));
    },
  }),
  route({
    method: 'POST', path: '/groups/:id/labels', auth: 'user', scope: group(canAdminGroupLabels), params: CREATE,
    handler: (ctx): Reply => created(labelEntity(ctx.state, create(ctx, { groupId: ctx.group.id }, ctx.params), false, false, ctx.user)),
  }),
  route({
    method: 'PUT', path: '/groups/:id/labels/:label_id', auth: 'user', scope: group(canAdminGroupLabels), params: UPDATE, constraints: UPDATE_ONE,
    handler: (ctx): Reply => {
      const owner = { groupId: ctx.group.id };
      const l = findLabel(ctx.state, [owner], ctx.params.label_id);
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, update(ctx, owner, l, ctx.params), false, false, ctx.user));
    },
  }),
  route({
    method: 'DELETE', path: '/groups/:id/labels/:label_id', auth: 'user', scope: group(canAdminGroupLabels), params: { label_id: str().required() },
    handler: (ctx): Reply => {
      const l = findLabel(ctx.state, [{ groupId: ctx.group.id }], ctx.params.label_id);
      if (!l) throw labelNotFound();
      ctx.update(remove(l));
      return noContent();
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/labels', auth: 'user', scope: project(canAdminProjectLabels), params: LEGACY_UPDATE, constraints: [...LEGACY_ONE, ...UPDATE_ONE],
    handler: (ctx): Reply => {
      const owner = { projectId: ctx.project.id };
      const l = findLabel(ctx.state, [owner], legacyKey(ctx.params));
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, update(ctx, owner, l, ctx.params), false, true, ctx.user));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/labels', auth: 'user', scope: project(canAdminProjectLabels), params: LEGACY_KEY, constraints: LEGACY_ONE,
    handler: (ctx): Reply => {
      const l = findLabel(ctx.state, [{ projectId: ctx.project.id }], legacyKey(ctx.params));
      if (!l) throw labelNotFound();
      ctx.update(remove(l));
      return noContent();
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/labels/promote', auth: 'user', scope: project(canAdminProjectLabels), params: { name: str().required() },
    handler: (ctx): Reply => promote(ctx),
  }),
  route({
    method: 'PUT', path: '/projects/:id/labels/:name/promote', auth: 'user', scope: project(canAdminProjectLabels), params: { name: str().required() },
    handler: (ctx): Reply => promote(ctx),
  }),
  route({
    method: 'PUT', path: '/groups/:id/labels', auth: 'user', scope: group(canAdminGroupLabels), params: LEGACY_UPDATE, constraints: [...LEGACY_ONE, ...UPDATE_ONE],
    handler: (ctx): Reply => {
      const owner = { groupId: ctx.group.id };
      const l = findLabel(ctx.state, [owner], legacyKey(ctx.params));
      if (!l) throw labelNotFound();
      return json(labelEntity(ctx.state, update(ctx, owner, l, ctx.params), false, false, ctx.user));
    },
  }),
  route({
    method: 'DELETE', path: '/groups/:id/labels', auth: 'user', scope: group(canAdminGroupLabels), params: LEGACY_KEY, constraints: LEGACY_ONE,
    handler: (ctx): Reply => {
      const l = findLabel(ctx.state, [{ groupId: ctx.group.id }], legacyKey(ctx.params));
      if (!l) throw labelNotFound();
      ctx.update(remove(l));
      return noContent();
    },
  }),
];
