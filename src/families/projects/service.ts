// Projects::CreateService, UpdateService and DestroyService: each checks against the world as
// it is, then returns the change that applies it and hands back the project it made.
import { forbidden, validationFailed } from '../../core/errors.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { VISIBILITY_ORDER, minVisibility } from '../../policy/visibility.js';
import type { FeatureAccess, Project, User, Visibility } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { plain, schedule, type Change } from '../define.js';
import { emit } from '../stream.js';
import { projectFullPath } from '../../policy/paths.js';
import { initializeWithReadme } from '../repositories/index.js';
import type { State } from '../world.js';
import { namespaceNotValid } from './errors.js';
import {
  DESTROY_PROJECT, canCreateProjectIn, canOwnProject, createProject, normalizeProjectInput, rename, repath, validateProject,
} from './rules.js';

/** What a caller asks of a project when creating or editing it; absent fields keep what is there. */
export interface ProjectChanges {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  defaultBranch?: string;
  topics?: string[];
  features: Record<string, FeatureAccess>;
  settings: Record<string, unknown>;
}

/**
 * Projects::CreateService for `owner`: in their own namespace unless another is named, never
 * more visible than its group, and valid (400 with the model's errors).
 */
export function newProject(state: State, owner: User, request: ProjectChanges & { namespaceId?: number }, now: number): Change<Project> {
  const namespaceId = request.namespaceId ?? owner.namespaceId;
  if (!canCreateProjectIn(state, owner, namespaceId, now)) throw namespaceNotValid();
  const ns = tget(state.namespaces, namespaceId)!;
  let visibility = request.visibility ?? state.instance.settings.default_project_visibility;
  if (ns.kind === 'group') visibility = minVisibility(visibility, ns.visibility);
  const input = normalizeProjectInput({
    name: request.name?.trim(), path: request.path, namespaceId, creatorId: owner.id, description: request.description, visibility,
    defaultBranch: request.defaultBranch, topics: request.topics, features: request.features, settings: request.settings,
  });
  const errors = validateProject(state, input);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return (draft) => {
    const made = plain(createProject(draft as State, input, now));
    emit(draft, { kind: 'project.created', projectId: made.id, actorId: owner.id });
    return made;
  };
}

/** `initialize_with_readme`: an "Initial commit" of README.md, then the project as that commit left it. */
export async function addFirstReadme(repo: RepositoryObjects, project: Project, owner: User, now: number): Promise<Change<Project>> {
  const { recipe } = await initializeWithReadme(repo, project, owner, now);
  return (draft) => {
    recipe(draft);
    return plain(tget(draft.projects, project.id)!);
  };
}

/**
 * Projects::UpdateService after `admin_project`: a new name or visibility needs an Owner
 * (403), then the model's validations, with a group's visibility as a ceiling (400).
 */
export function updateProject(state: State, user: User | null, project: Project, changes: ProjectChanges, now: number): Change<Project> {
  const ownerOnly = (changes.name !== undefined && changes.name !== project.name) || (changes.visibility !== undefined && changes.visibility !== project.visibility);
  if (ownerOnly && !canOwnProject(state, user, project, now)) throw forbidden();
  const next = {
    ...normalizeProjectInput({ name: changes.name ?? project.name, path: changes.path ?? project.path, namespaceId: project.namespaceId, creatorId: project.creatorId }),
    visibility: changes.visibility ?? project.visibility,
    settings: changes.settings,
  };
  const errors = validateProject(state, next, project.id);
  const ns = tget(state.namespaces, project.namespaceId)!;
  if (ns.kind === 'group' && VISIBILITY_ORDER[next.visibility] > VISIBILITY_ORDER[ns.visibility] && !errors.visibility_level)
    errors.visibility_level = [`${next.visibility} is not allowed in a ${ns.visibility} group.`];
  if (Object.keys(errors).length) throw validationFailed(errors);
  return (draft) => {
    const d = tget(draft.projects, project.id)!;
    const oldFullPath = projectFullPath(draft as State, d);
    if (next.name !== d.name) rename(draft as State, d, next.name);
    if (next.path !== d.path) {
      repath(draft as State, d, next.path);
      emit(draft, { kind: 'project.renamed', projectId: project.id, oldFullPath });
    }
    d.visibility = next.visibility;
    if (changes.description !== undefined) d.description = changes.description;
    if (changes.defaultBranch !== undefined) d.defaultBranch = changes.defaultBranch;
    if (changes.topics !== undefined) d.topics = changes.topics;
    Object.assign(d.features, changes.features);
    Object.assign(d.settings, changes.settings);
    d.updatedAt = now;
    return plain(d);
  };
}

/** Hidden at once, removed by a background job: the project's path is free when it has run. */
export function scheduleProjectDeletion(project: Project, now: number): Change {
  return (draft) => {
    const d = tget(draft.projects, project.id)!;
    d.pendingDelete = true;
    emit(draft, { kind: 'project.destroyed', projectId: project.id, fullPath: projectFullPath(draft as State, d), name: d.name });
    schedule(draft, DESTROY_PROJECT, now, { projectId: project.id });
  };
}

/** Projects::UpdateService with `archived` (POST /projects/:id/archive and /unarchive): a read-only project, or a writable one again. */
export function setProjectArchived(project: Project, archived: boolean, now: number): Change<Project> {
  return (draft) => {
    const d = tget(draft.projects, project.id)!;
    if (d.archived !== archived) {
      d.archived = archived;
      d.updatedAt = now;
    }
    return plain(d as Project);
  };
}
