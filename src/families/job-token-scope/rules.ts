// Ci::JobToken::Scope of a project: whether job tokens from outside reach it only through its
// inbound allowlist, the projects on that allowlist (the project record's `jobTokenAllowlist`,
// which authentication already enforces) and the groups on it
// (Ci::JobTokenScope::AddProjectService, AddGroupService, RemoveProjectService, RemoveGroupService).
import { messageError } from '../../core/errors.js';
import { tdel, tentries, tget, tset } from '../../store/table.js';
import type { Namespace, Project } from '../../store/state.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';

export interface ScopeSettings {
  /** ci_inbound_job_token_scope_enabled: on for new projects. */
  inboundEnabled: boolean;
  /** The groups on the inbound allowlist, in the order they were added. */
  groupIds: number[];
}

const DEFAULTS: ScopeSettings = { inboundEnabled: true, groupIds: [] };

export const settingsOf = (state: State, project: Project): ScopeSettings => tget(state.jobTokenScopes, project.id) ?? DEFAULTS;

/**
 * The instance's `enforce_ci_inbound_job_token_scope_enabled`, on by default since GitLab 18:
 * every project's inbound scope is then on whatever the project says
 * (Project#ci_inbound_job_token_scope_enabled?), so switching it off changes nothing seen.
 */
const ENFORCED_BY_INSTANCE = true;

/** Entities::ProjectJobTokenScope's `inbound_enabled`. */
export const inboundEnabled = (state: State, project: Project): boolean => ENFORCED_BY_INSTANCE || settingsOf(state, project).inboundEnabled;

/** Ci::JobToken::Scope#inbound_projects: the project itself, then those it allows. */
export function allowedProjects(state: State, project: Project): Project[] {
  const out = [project];
  for (const id of project.jobTokenAllowlist) {
    const p = tget(state.projects, id);
    if (p && !p.pendingDelete && p.id !== project.id) out.push(p);
  }
  return out;
}

export function allowedGroups(state: State, project: Project): Namespace[] {
  return settingsOf(state, project).groupIds.map((id) => tget(state.namespaces, id)).filter((g): g is Namespace => g !== undefined && g.kind === 'group');
}

export const setInbound = (project: Project, enabled: boolean): Change => (draft) => {
  const s = draft as State;
  tset(s.jobTokenScopes, project.id, { ...settingsOf(s, project), inboundEnabled: enabled });
};

const bad = (text: string) => messageError(400, text);

export function addProject(project: Project, target: Project): Change<{ source_project_id: number; target_project_id: number }> {
  if (target.id === project.id || project.jobTokenAllowlist.includes(target.id)) throw bad('Target project is already in the job token scope');
  return (draft) => {
    tget((draft as State).projects, project.id)!.jobTokenAllowlist.push(target.id);
    return { source_project_id: project.id, target_project_id: target.id };
  };
}

export function removeProject(project: Project, target: Project): Change {
  if (target.id === project.id) throw bad('Source project cannot be removed from the job token scope');
  if (!project.jobTokenAllowlist.includes(target.id)) throw bad('Target project is not in the job token scope');
  return (draft) => {
    const p = tget((draft as State).projects, project.id)!;
    p.jobTokenAllowlist = p.jobTokenAllowlist.filter((id) => id !== target.id);
  };
}

export function addGroup(state: State, project: Project, target: Namespace): Change<{ source_project_id: number; target_group_id: number }> {
  const current = settingsOf(state, project);
  if (current.groupIds.includes(target.id)) throw bad('Target group is already in the job token scope');
  return (draft) => {
    tset((draft as State).jobTokenScopes, project.id, { ...current, groupIds: [...current.groupIds, target.id] });
    return { source_project_id: project.id, target_group_id: target.id };
  };
}

export function removeGroup(state: State, project: Project, target: Namespace): Change {
  const current = settingsOf(state, project);
  if (!current.groupIds.includes(target.id)) throw bad('Target group is not in the job token scope');
  return (draft) => void tset((draft as State).jobTokenScopes, project.id, { ...current, groupIds: current.groupIds.filter((id) => id !== target.id) });
}

/** What a deleted group leaves: off every allowlist. */
export function forgetGroup(draft: State, groupId: number): void {
  for (const [key, s] of [...tentries(draft.jobTokenScopes)]) if (s.groupIds.includes(groupId)) tset(draft.jobTokenScopes, key, { ...s, groupIds: s.groupIds.filter((id) => id !== groupId) });
}

export const forgetProject = (draft: State, id: number): void => void tdel(draft.jobTokenScopes, id);
