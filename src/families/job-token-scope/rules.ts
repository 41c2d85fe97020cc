// Ci::JobToken::Scope of a project: whether job tokens from outside reach it only through its
// inbound allowlist, the projects on that allowlist (the project record's `jobTokenAllowlist`,
// which authentication already enforces) and the groups on it
// (Ci::JobTokenScope::AddProjectService, AddGroupService, RemoveProjectService, RemoveGroupService).
import { messageError } from '../../core/errors.js';
import { inboundScopeEnabled } from '../../policy/job-token.js';
import { tentries, tget, tvalues, type Table } from '../../store/table.js';
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

export const settingsOf = (project: Project): ScopeSettings => project.jobTokenScope ?? DEFAULTS;

/**
 * Entities::ProjectJobTokenScope's `inbound_enabled`: Project#ci_inbound_job_token_scope_enabled?,
 * on whatever the project says while the instance's `enforce_ci_inbound_job_token_scope_enabled`
 * (on by default since GitLab 18) is on.
 */
export const inboundEnabled = (state: State, project: Project): boolean => inboundScopeEnabled(state, project);

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
  return settingsOf(project).groupIds.map((id) => tget(state.namespaces, id)).filter((g): g is Namespace => g !== undefined && g.kind === 'group');
}

const setScope = (draft: State, project: Project, next: ScopeSettings): void => void (tget(draft.projects, project.id)!.jobTokenScope = next);

export const setInbound = (project: Project, enabled: boolean): Change => (draft) => setScope(draft as State, project, { ...settingsOf(project), inboundEnabled: enabled });

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

export function addGroup(project: Project, target: Namespace): Change<{ source_project_id: number; target_group_id: number }> {
  const current = settingsOf(project);
  if (current.groupIds.includes(target.id)) throw bad('Target group is already in the job token scope');
  return (draft) => {
    setScope(draft as State, project, { ...current, groupIds: [...current.groupIds, target.id] });
    return { source_project_id: project.id, target_group_id: target.id };
  };
}

export function removeGroup(project: Project, target: Namespace): Change {
  const current = settingsOf(project);
  if (!current.groupIds.includes(target.id)) throw bad('Target group is not in the job token scope');
  return (draft) => setScope(draft as State, project, { ...current, groupIds: current.groupIds.filter((id) => id !== target.id) });
}

/** What a deleted group leaves: off every allowlist. */
export function forgetGroup(draft: State, groupId: number): void {
  for (const p of [...tvalues(draft.projects)]) {
    const s = p.jobTokenScope;
    if (s?.groupIds.includes(groupId)) setScope(draft, p, { ...s, groupIds: s.groupIds.filter((id) => id !== groupId) });
  }
}

/** An exported world's former `jobTokenScopes` table (project id -> its scope): each onto its project. */
export function adoptScopes(draft: State, value: unknown): void {
  for (const [id, scope] of tentries(value as Table<ScopeSettings>)) {
    const project = tget(draft.projects, Number(id));
    if (project) project.jobTokenScope = { inboundEnabled: scope.inboundEnabled, groupIds: [...scope.groupIds] };
  }
}
