// Ci::JobToken::Scope#accessible? in the inbound direction: whether a CI job token of one
// project may reach another. Its own project always; another when that project's inbound scope
// is off (Project#ci_inbound_job_token_scope_enabled?, which the instance's
// enforce_ci_inbound_job_token_scope_enabled keeps on), or when the job's project is on its
// allowlist of projects or lies in (a subgroup of) a group on its allowlist of groups
// (Ci::JobToken::Allowlist#includes_project?, #includes_group?).
import type { CoreState, Project } from '../store/state.js';
import { tget } from '../store/table.js';
import { ancestry } from './access.js';

export function inboundScopeEnabled(state: CoreState, project: Project): boolean {
  return state.instance.settings.enforce_ci_inbound_job_token_scope_enabled !== false || project.jobTokenScope?.inboundEnabled !== false;
}

export function jobTokenReaches(state: CoreState, sourceId: number | undefined, target: Project): boolean {
  if (sourceId === undefined) return false;
  if (sourceId === target.id || !inboundScopeEnabled(state, target) || target.jobTokenAllowlist.includes(sourceId)) return true;
  const groups = target.jobTokenScope?.groupIds ?? [];
  const source = groups.length ? tget(state.projects, sourceId) : undefined;
  return !!source && ancestry(state, source.namespaceId).some((ns) => ns.kind === 'group' && groups.includes(ns.id));
}
