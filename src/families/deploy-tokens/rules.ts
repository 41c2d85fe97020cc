// DeployToken's model and services: Projects:: and Groups::DeployTokens::CreateService (a
// token, a default username, at least one scope), DestroyService, TokensFinder, and who may
// manage them (ProjectPolicy: maintainers; GroupPolicy: maintainers read, owners create and delete).
import { ACCESS, randomHex, sequences, type CoreState, type Namespace, type Project, type User } from '../../store/state.js';
import type { DeployTokenActor } from '../../http/auth.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { ancestry, groupAccess, hasProjectRole } from '../../policy/access.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { invalidDeployToken } from './errors.js';
import { DEPLOY_TOKEN_SCOPES, type DeployToken, type DeployTokenScope } from './records.js';

const ids = sequences(['deploy_token']);
const USERNAME = /^[a-zA-Z0-9.+_-]+$/;

export type Owner = { projectId: number } | { groupId: number };

const belongs = (t: DeployToken, owner: Owner) => ('projectId' in owner ? t.projectId === owner.projectId : t.groupId === owner.groupId);

export const isExpired = (t: DeployToken, now: number) => t.expiresAt !== null && t.expiresAt < now;
/** DeployToken#active?: neither revoked nor expired. */
export const isActive = (t: DeployToken, now: number) => !t.revoked && !isExpired(t, now);

/** DeployTokens::TokensFinder: an owner's tokens (or all), only the active ones when asked. */
export function findTokens(state: State, owner: Owner | 'all', active: boolean | undefined, now: number): DeployToken[] {
  return [...tvalues(state.deployTokens)].filter((t) => (owner === 'all' || belongs(t, owner)) && (active === undefined || isActive(t, now) === active));
}

export function findToken(state: State, owner: Owner, id: number): DeployToken | undefined {
  const t = tget(state.deployTokens, id);
  return t && belongs(t, owner) ? t : undefined;
}

export interface TokenInput {
  name: string;
  scopes: DeployTokenScope[];
  expires_at?: number;
  username?: string;
}

/** DeployTokenMethods#create_deploy_token_for: validations as one sentence, else the token. */
export function createToken(owner: Owner, creator: User, input: TokenInput, now: number): Change<DeployToken> {
  const errors: string[] = [];
  if (input.name.trim() === '') errors.push("Name can't be blank");
  if (input.name.length > 255) errors.push('Name is too long (maximum is 255 characters)');
  const username = input.username?.trim() ? input.username : undefined;
  if (username !== undefined && username.length > 255) errors.push('Username is too long (maximum is 255 characters)');
  if (username !== undefined && !USERNAME.test(username)) errors.push("Username can contain only letters, digits, '_', '-', '+', and '.'");
  if (input.scopes.length === 0) errors.push("Scopes can't be blank");
  if (errors.length) throw invalidDeployToken(toSentence(errors));
  const scopes = DEPLOY_TOKEN_SCOPES.filter((s) => input.scopes.includes(s));
  return (draft) => {
    const id = ids.next(draft, 'deploy_token');
    const made: DeployToken = {
      id, name: input.name, username: username ?? `gitlab+deploy-token-${id}`, token: `gldt-${randomHex(draft, 20)}`, scopes,
      expiresAt: input.expires_at ?? null, revoked: false,
      projectId: 'projectId' in owner ? owner.projectId : null, groupId: 'groupId' in owner ? owner.groupId : null,
      creatorId: creator.id, createdAt: now,
    };
    tset((draft as State).deployTokens, id, made);
    return made;
  };
}

/** Array#to_sentence. */
function toSentence(parts: string[]): string {
  return parts.length <= 2 ? parts.join(' and ') : `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1]}`;
}

export const destroyToken = (t: DeployToken): Change => (draft) => void tdel((draft as State).deployTokens, t.id);

/** What a deleted project or group leaves: none of its tokens. */
export function forgetOwner(draft: State, owner: Owner): void {
  for (const t of [...tvalues(draft.deployTokens)]) if (belongs(t, owner)) tdel(draft.deployTokens, t.id);
}

/** ProjectPolicy read/create/destroy_deploy_token: maintainers. */
export const canManageProjectTokens = (s: State, u: User | null, p: Project, now: number) => hasProjectRole(s, u, p, ACCESS.maintainer, now);
/** GroupPolicy read_deploy_token: maintainers. */
export const canReadGroupTokens = (s: State, u: User | null, g: Namespace, now: number) => u !== null && (u.admin || groupAccess(s, u, g, now) >= ACCESS.maintainer);
/** GroupPolicy create_ and destroy_deploy_token: owners. */
export const canManageGroupTokens = (s: State, u: User | null, g: Namespace, now: number) => u !== null && (u.admin || groupAccess(s, u, g, now) >= ACCESS.owner);

/** DeployToken#has_access_to?: its own project, or a project anywhere under its group. */
export function reaches(state: State, t: DeployToken, project: Project): boolean {
  if (t.projectId !== null) return t.projectId === project.id;
  return t.groupId !== null && ancestry(state, project.namespaceId).some((ns) => ns.id === t.groupId);
}

/**
 * Gitlab::Auth#deploy_token_check: an active token with that password whose username is the
 * login, that reaches the project (when git names one) and whose repository is not disabled.
 */
export function deployTokenLogin(state: CoreState, login: string, password: string, projectId: number | undefined, now: number): DeployTokenActor | string | null {
  if (password === '') return null;
  const s = state as State;
  const t = [...tvalues(s.deployTokens)].find((x) => x.token === password);
  if (!t) return null;
  if (t.revoked) return `deploy token ${t.username} revoked`;
  if (isExpired(t, now)) return `deploy token ${t.username} expired at ${new Date(t.expiresAt!).toISOString()}`;
  if (t.username !== login) return `deploy token ${t.username} sent with the username ${login}`;
  // Every repository a deploy token opens is a project's.
  const project = projectId === undefined ? undefined : tget(s.projects, projectId);
  if (!project || !reaches(s, t, project)) return `deploy token ${t.username} does not reach this repository`;
  if (project.features.repository === 'disabled') return `deploy token ${t.username}: the project's repository is disabled`;
  return { id: t.id, username: t.username, scopes: [...t.scopes], projectId: project.id };
}
