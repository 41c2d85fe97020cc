// Groups: namespaces of kind `group`, nested by `parentId`, with their own members; who may
// create and change them.
import { hasGroupRole, isWithin } from '../../policy/access.js';
import { ACCESS, coreIds, type Namespace, type Project, type User, type Visibility } from '../../store/state.js';
import type { Draft } from 'immer';
import type { State } from '../world.js';
import { defineTask, type TaskContext } from '../define.js';
import { destroyProject, projectsIn } from '../projects/index.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { forgetSource, setMembership } from '../../store/members.js';
import {
  GROUP_NAME_MESSAGE, MAX_LENGTH, NAMESPACE_PATH_MESSAGE, OCI_PATH_MESSAGE, isOciPath, isPathTaken, isReservedTopLevel,
  isValidGroupName, isValidNamespacePath, tooLong,
} from '../../policy/paths.js';
import { VISIBILITY_ORDER } from '../../policy/visibility.js';

export type Errors = Record<string, string[]>;

export interface GroupInput {
  name: string;
  path: string;
  parentId?: number | null;
  visibility?: Visibility;
  description?: string;
  /** Becomes the group's Owner. */
  creatorId?: number | null;
  requestAccessEnabled?: boolean;
  projectCreationLevel?: Namespace['projectCreationLevel'];
  subgroupCreationLevel?: Namespace['subgroupCreationLevel'];
}

const push = (errors: Errors, key: string, text: string) => (errors[key] ??= []).push(text);

/**
 * Whether `user` may create a group: under `parent` when its `subgroup_creation_level` role
 * is reached (`create_subgroup`), at the top level when an administrator or allowed to.
 */
export function canCreateGroupIn(state: State, user: User, parent: Namespace | undefined, now: number): boolean {
  if (!parent) return user.admin || user.canCreateGroup;
  const need = parent.subgroupCreationLevel === 'maintainer' ? ACCESS.maintainer : ACCESS.owner;
  return hasGroupRole(state, user, parent, need, now);
}

/** GroupPolicy `admin_group`, `remove_group`: Owners only. */
export function canOwnGroup(state: State, user: User | null, group: Namespace, now: number): boolean {
  return hasGroupRole(state, user, group, ACCESS.owner, now);
}

/**
 * Namespace then Group validations, in their order (app/models/namespace.rb, group.rb).
 * `existing` is the group being edited: it does not clash with itself, and its path and name
 * are checked only when they change.
 */
export function validateGroup(state: State, input: GroupInput, existing?: Namespace): Errors {
  const errors: Errors = {};
  const parent = input.parentId ? tget(state.namespaces, input.parentId) : undefined;
  const pathChanged = !existing || existing.path !== input.path;
  const nameChanged = !existing || existing.name !== input.name;
  if (!input.name) push(errors, 'name', "can't be blank");
  else if (input.name.length > MAX_LENGTH) push(errors, 'name', tooLong(MAX_LENGTH));
  // Names are unique among the children of one parent; top-level groups may share a name.
  if (input.name && parent && subgroups(state, parent.id).some((g) => g.id !== existing?.id && g.name === input.name))
    push(errors, 'name', 'has already been taken');
  if (input.description !== undefined && input.description.length > 500) push(errors, 'description', tooLong(500));
  if (!input.path) push(errors, 'path', "can't be blank");
  else if (pathChanged) {
    if (input.path.length > MAX_LENGTH) push(errors, 'path', tooLong(MAX_LENGTH));
    if (!isOciPath(input.path)) push(errors, 'path', OCI_PATH_MESSAGE);
    if (!isValidNamespacePath(input.path)) push(errors, 'path', NAMESPACE_PATH_MESSAGE);
    else if (!parent && isReservedTopLevel(input.path)) push(errors, 'path', `${input.path} is a reserved name`);
    if (input.path.length < 2) push(errors, 'path', 'is too short (minimum is 2 characters)');
  }
  if (input.name && nameChanged && !isValidGroupName(input.name)) push(errors, 'name', GROUP_NAME_MESSAGE);
  const visibility = input.visibility ?? state.instance.settings.default_group_visibility;
  const level = VISIBILITY_ORDER[visibility];
  if (existing) {
    if (projectsWithin(state, existing.id).some((p) => VISIBILITY_ORDER[p.visibility] > level))
      push(errors, 'visibility_level', `${visibility} is not allowed since this group contains projects with higher visibility.`);
    if (subgroups(state, existing.id).some((g) => VISIBILITY_ORDER[g.visibility] > level))
      push(errors, 'visibility_level', `${visibility} is not allowed since there are sub-groups with higher visibility.`);
  }
  if (parent && level > VISIBILITY_ORDER[parent.visibility])
    push(errors, 'visibility_level', `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`);
  // The route's uniqueness is checked last and reported on the path.
  if (input.path && pathChanged && !errors.path && isPathTaken(state, parent ? `${parent.fullPath}/${input.path}` : input.path))
    push(errors, 'path', 'has already been taken');
  return errors;
}

function projectsWithin(state: State, groupId: number): Project[] {
  const out: Project[] = [];
  for (const p of tvalues(state.projects)) if (p.namespaceId === groupId && !p.pendingDelete) out.push(p);
  return out;
}

/** Gives a group a new path: its own full path, and those of every namespace and project below it, follow. */
export function changeGroupPath(draft: State, groupId: number, newPath: string): void {
  const group = tget(draft.namespaces, groupId)!;
  const oldFull = group.fullPath;
  const parent = group.parentId !== null ? tget(draft.namespaces, group.parentId) : undefined;
  const newFull = parent ? `${parent.fullPath}/${newPath}` : newPath;
  const moved = (full: string) => newFull + full.slice(oldFull.length);
  const below = (full: string) => full === oldFull || full.startsWith(`${oldFull}/`);
  for (const p of tvalues(draft.projects)) {
    const ns = tget(draft.namespaces, p.namespaceId);
    if (!ns || !below(ns.fullPath)) continue;
    const oldKey = `${ns.fullPath}/${p.path}`.toLowerCase();
    if (tget(draft.paths, oldKey)?.id === p.id) tdel(draft.paths, oldKey);
    tset(draft.paths, `${moved(ns.fullPath)}/${p.path}`.toLowerCase(), { kind: 'project', id: p.id });
  }
  for (const ns of tvalues(draft.namespaces)) {
    if (ns.kind !== 'group' || !below(ns.fullPath)) continue;
    tdel(draft.paths, ns.fullPath.toLowerCase());
    ns.fullPath = moved(ns.fullPath);
    tset(draft.paths, ns.fullPath.toLowerCase(), { kind: 'namespace', id: ns.id });
  }
  group.path = newPath;
}

export function createGroup(draft: State, input: GroupInput, now: number): Namespace {
  const id = coreIds.next(draft, 'namespace');
  const parent = input.parentId ? tget(draft.namespaces, input.parentId) : undefined;
  const group: Namespace = {
    id,
    kind: 'group',
    name: input.name,
    path: input.path,
    fullPath: parent ? `${parent.fullPath}/${input.path}` : input.path,
    parentId: parent ? parent.id : null,
    ownerId: null,
    visibility: input.visibility ?? draft.instance.settings.default_group_visibility,
    description: input.description ?? '',
    createdAt: now,
    updatedAt: now,
    requestAccessEnabled: input.requestAccessEnabled ?? true,
    projectCreationLevel: input.projectCreationLevel ?? 'developer',
    subgroupCreationLevel: input.subgroupCreationLevel ?? 'maintainer',
    pendingDelete: false,
  };
  tset(draft.namespaces, id, group);
  if (input.creatorId) {
    setMembership(draft, group, { userId: input.creatorId, accessLevel: ACCESS.owner, createdAt: now, createdById: input.creatorId, expiresAt: null });
  }
  tset(draft.paths, group.fullPath.toLowerCase(), { kind: 'namespace', id });
  return group;
}

/** Direct subgroups of a group, in id order. */
export function subgroups(state: State, groupId: number): Namespace[] {
  const out: Namespace[] = [];
  for (const ns of tvalues(state.namespaces)) if (ns.parentId === groupId && ns.kind === 'group') out.push(ns);
  return out;
}

/** Every group below a group, at any depth, in id order. */
export function descendantGroups(state: State, groupId: number): Namespace[] {
  const out: Namespace[] = [];
  for (const ns of tvalues(state.namespaces)) if (ns.kind === 'group' && ns.id !== groupId && isWithin(state, ns.id, groupId)) out.push(ns);
  return out;
}

/** The timed half of `DELETE /groups/:id`: the group, its subgroups and their projects go. */
function destroyGroup(draft: Draft<State>, id: number, ctx: TaskContext): void {
  const group = tget(draft.namespaces, id);
  if (!group) return;
  for (const sub of subgroups(draft as State, id)) destroyGroup(draft, sub.id, ctx);
  for (const p of projectsIn(draft as State, id)) destroyProject(draft, p.id, ctx);
  tdel(draft.paths, group.fullPath.toLowerCase());
  tdel(draft.namespaces, id);
  forgetSource(draft, { type: 'namespace', id });
  ctx.forget('group', id, draft);
}

export const DESTROY_GROUP = defineTask<{ groupId: number }>('group.destroy', (draft, { groupId }, ctx) => destroyGroup(draft, groupId, ctx));
