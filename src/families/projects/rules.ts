// Projects: who may create and change them, names and paths unique in their namespace,
// features, deletion.
import type { Draft } from 'immer';
import { groupAccess, hasProjectRole } from '../../policy/access.js';
import { ACCESS, coreIds, type Project, type User, type Visibility } from '../../store/state.js';
import { defineTask, type TaskContext } from '../define.js';
import type { State } from '../world.js';
import { derived, tarray, tdel, tget, tset, tvalues, type Table } from '../../store/table.js';
import { forgetSource, setMembership } from '../../store/members.js';
import type { Errors } from '../groups/index.js';
import {
  MAX_LENGTH, OCI_PATH_MESSAGE, PROJECT_NAME_MESSAGE, PROJECT_PATH_MESSAGE, isOciPath, isPathTaken, isValidProjectName,
  isValidProjectPath, pathFromName, tooLong,
} from '../../policy/paths.js';
import { VISIBILITY_ORDER } from '../../policy/visibility.js';

export const FEATURES = [
  'issues', 'repository', 'merge_requests', 'forking', 'wiki', 'builds', 'snippets', 'pages', 'operations', 'analytics',
  'container_registry', 'security_and_compliance', 'releases', 'environments', 'feature_flags', 'infrastructure',
  'monitor', 'model_experiments', 'model_registry', 'requirements',
] as const;

export interface ProjectInput {
  name?: string;
  path?: string;
  namespaceId: number;
  creatorId: number;
  description?: string;
  visibility?: Visibility;
  defaultBranch?: string;
  topics?: string[];
  features?: Record<string, Project['features'][string]>;
  settings?: Record<string, unknown>;
}

const push = (errors: Errors, key: string, text: string) => (errors[key] ??= []).push(text);

/**
 * Whether `user` may create a project in the namespace (`create_projects`): their own, or a
 * group whose `project_creation_level` their role reaches; administrators anywhere that exists.
 */
export function canCreateProjectIn(state: State, user: User, namespaceId: number, now: number): boolean {
  const ns = tget(state.namespaces, namespaceId);
  if (!ns || ns.pendingDelete) return false;
  if (user.admin) return true;
  if (ns.kind === 'user') return ns.ownerId === user.id;
  const need = { noone: Infinity, owner: ACCESS.owner, maintainer: ACCESS.maintainer, developer: ACCESS.developer }[ns.projectCreationLevel];
  return groupAccess(state, user, ns, now) >= need;
}

/** ProjectPolicy `admin_project`: Maintainers and above may change a project's settings. */
export function canAdminProject(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

/** ProjectPolicy `remove_project`, `rename_project`, `change_visibility_level`: Owners only. */
export function canOwnProject(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.owner, now);
}

/** Fills `name` from `path` or `path` from `name`, as the create service does. */
export function normalizeProjectInput(input: ProjectInput): ProjectInput & { name: string; path: string } {
  const name = input.name ?? input.path ?? '';
  const path = input.path ?? pathFromName(name);
  return { ...input, name, path };
}

/** Project::MAX_COMMIT_TEMPLATE_LENGTH and Issue::MAX_BRANCH_TEMPLATE. */
const SETTING_LIMITS: readonly (readonly [string, number])[] = [['merge_commit_template', 500], ['squash_commit_template', 500], ['issue_branch_template', 255]];

export function validateProject(state: State, input: ProjectInput & { name: string; path: string }, except?: number): Errors {
  const errors: Errors = {};
  const ns = tget(state.namespaces, input.namespaceId);
  if (!input.name) push(errors, 'name', "can't be blank");
  else if (input.name.length > MAX_LENGTH) push(errors, 'name', tooLong(MAX_LENGTH));
  else if (!isValidProjectName(input.name)) push(errors, 'name', PROJECT_NAME_MESSAGE);
  else {
    const holder = ns ? tget(state.projectNames, nameKey(ns.id, input.name)) : undefined;
    if (holder !== undefined && holder !== except) push(errors, 'name', 'has already been taken');
  }
  // ProjectPathValidator, the length, then the OCI rule on a new or changed path: each adds its message.
  const pathChanged = except === undefined || tget(state.projects, except)?.path !== input.path;
  if (!input.path) push(errors, 'path', "can't be blank");
  if (input.path && !isValidProjectPath(input.path)) push(errors, 'path', PROJECT_PATH_MESSAGE);
  if (input.path.length > MAX_LENGTH) push(errors, 'path', tooLong(MAX_LENGTH));
  if (input.path && pathChanged && !isOciPath(input.path)) push(errors, 'path', OCI_PATH_MESSAGE);
  if (!errors.path && ns && isPathTaken(state, `${ns.fullPath}/${input.path}`)) {
    const existing = tget(state.paths, `${ns.fullPath}/${input.path}`.toLowerCase());
    if (!(existing?.kind === 'project' && existing.id === except)) push(errors, 'path', 'has already been taken');
  }
  // ProjectSetting's own validations, which Rails names after the project's autosaved association.
  for (const [field, max] of SETTING_LIMITS) {
    const value = input.settings?.[field];
    if (typeof value === 'string' && value.length > max) push(errors, `project_setting.${field}`, tooLong(max));
  }
  const visibility = input.visibility ?? state.instance.settings.default_project_visibility;
  if (ns && ns.kind === 'group' && VISIBILITY_ORDER[visibility] > VISIBILITY_ORDER[ns.visibility])
    push(errors, 'visibility_level', `${visibility} is not allowed in a ${ns.visibility} group.`);
  return errors;
}

// Rails' uniqueness validation of `name` in a namespace is case-sensitive (unlike paths).
const nameKey = (namespaceId: number, name: string) => `${namespaceId}/${name}`;

export function createProject(draft: State, raw: ProjectInput, now: number): Project {
  const input = normalizeProjectInput(raw);
  const ns = tget(draft.namespaces, input.namespaceId)!;
  const id = coreIds.next(draft, 'project');
  const features: Project['features'] = {};
  for (const f of FEATURES) features[f] = input.features?.[f] ?? 'enabled';
  const project: Project = {
    id,
    name: input.name,
    path: input.path,
    namespaceId: ns.id,
    description: input.description ?? '',
    visibility: input.visibility ?? draft.instance.settings.default_project_visibility,
    createdAt: now,
    updatedAt: now,
    lastActivityAt: now,
    creatorId: input.creatorId,
    defaultBranch: input.defaultBranch ?? null,
    archived: false,
    topics: input.topics ?? [],
    features,
    settings: input.settings ?? {},
    pendingDelete: false,
    jobTokenAllowlist: [],
    starCount: 0,
  };
  tset(draft.projects, id, project);
  tset(draft.paths, `${ns.fullPath}/${project.path}`.toLowerCase(), { kind: 'project', id });
  tset(draft.projectNames, nameKey(ns.id, project.name), id);
  // Projects::CreateService: the owner of a personal namespace is the project's Owner member.
  if (ns.kind === 'user' && ns.ownerId !== null) {
    setMembership(draft, project, { userId: ns.ownerId, accessLevel: ACCESS.owner, createdAt: now, createdById: input.creatorId, expiresAt: null });
  }
  return project;
}


export function projectsIn(state: State, namespaceId: number): Project[] {
  return (derived(state.projects, byNamespace).get(namespaceId) ?? []).filter((p) => !p.pendingDelete);
}

/** Namespace id -> its projects, in id order. */
function byNamespace(projects: Table<Project>): Map<number, Project[]> {
  const out = new Map<number, Project[]>();
  for (const p of tvalues(projects)) {
    const list = out.get(p.namespaceId);
    if (list) list.push(p);
    else out.set(p.namespaceId, [p]);
  }
  return out;
}

/** The public projects, in id order: all an anonymous caller may list. */
export function publicProjects(state: State): readonly Project[] {
  return derived(state.projects, publicOnly);
}

function publicOnly(projects: Table<Project>): Project[] {
  return tarray(projects).filter((p) => p.visibility === 'public' && !p.pendingDelete);
}

/** Renames or moves the project's path entry when its path changes. */
export function repath(draft: State, project: Project, newPath: string): void {
  const ns = tget(draft.namespaces, project.namespaceId)!;
  tdel(draft.paths, `${ns.fullPath}/${project.path}`.toLowerCase());
  project.path = newPath;
  tset(draft.paths, `${ns.fullPath}/${newPath}`.toLowerCase(), { kind: 'project', id: project.id });
}

/** Moves a project's path and name to another namespace (Projects::TransferService); its path and name stay. */
export function moveToNamespace(draft: State, project: Project, namespaceId: number): void {
  const from = tget(draft.namespaces, project.namespaceId)!;
  const to = tget(draft.namespaces, namespaceId)!;
  tdel(draft.paths, `${from.fullPath}/${project.path}`.toLowerCase());
  tdel(draft.projectNames, nameKey(project.namespaceId, project.name));
  project.namespaceId = namespaceId;
  tset(draft.paths, `${to.fullPath}/${project.path}`.toLowerCase(), { kind: 'project', id: project.id });
  tset(draft.projectNames, nameKey(namespaceId, project.name), project.id);
}

export function rename(draft: State, project: Project, name: string): void {
  tdel(draft.projectNames, nameKey(project.namespaceId, project.name));
  project.name = name;
  tset(draft.projectNames, nameKey(project.namespaceId, name), project.id);
}

/** Removes a project, its path and what every family keeps for it; the timed half of `DELETE /projects/:id`. */
export function destroyProject(draft: Draft<State>, id: number, ctx: TaskContext): void {
  const project = tget(draft.projects, id);
  if (!project) return;
  const ns = tget(draft.namespaces, project.namespaceId);
  if (ns) {
    const entry = tget(draft.paths, `${ns.fullPath}/${project.path}`.toLowerCase());
    if (entry?.kind === 'project' && entry.id === id) tdel(draft.paths, `${ns.fullPath}/${project.path}`.toLowerCase());
  }
  if (tget(draft.projectNames, nameKey(project.namespaceId, project.name)) === id) tdel(draft.projectNames, nameKey(project.namespaceId, project.name));
  tdel(draft.projects, id);
  forgetSource(draft, { type: 'project', id });
  ctx.forget('project', id, draft);
}

export const DESTROY_PROJECT = defineTask<{ projectId: number }>('project.destroy', (draft, { projectId }, ctx) => destroyProject(draft, projectId, ctx));
