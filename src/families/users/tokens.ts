// Access tokens as data (app/models/personal_access_token.rb, app/finders/personal_access_tokens_finder.rb,
// app/services/personal_access_tokens/*, resource_access_tokens/*): personal tokens created by an
// administrator or by the user, impersonation tokens, project and group access tokens with their
// bot users, revocation and rotation. The core's authentication honours each one at once.
import { badRequest, messageError, validationFailed } from '../../core/errors.js';
import { today } from '../../policy/access.js';
import { ACCESS, randomHex, type Namespace, type Project, type Token, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import { membersOf, readMembership, writeMembership, type MembershipSource } from './memberships.js';
import { createToken, createUser, tokensOf, type TokenInput } from './rules.js';

/** Gitlab::Auth.all_available_scopes. */
export const ALL_SCOPES = [
  'api', 'read_api', 'read_user', 'create_runner', 'manage_runner', 'k8s_proxy', 'self_rotate', 'read_repository', 'write_repository',
  'read_registry', 'write_registry', 'read_virtual_registry', 'write_virtual_registry', 'read_observability', 'write_observability',
  'ai_features', 'sudo', 'admin_mode', 'read_service_ping',
] as const;

/** Gitlab::Auth.resource_bot_scopes: what a project or group access token may hold. */
export const RESOURCE_SCOPES = [
  'api', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'read_virtual_registry',
  'write_virtual_registry', 'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'read_observability',
  'write_observability', 'self_rotate',
] as const;

const DAY = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Whether a token works now: not revoked, not past its expiry on the clock. */
export const isActive = (t: Token, now: number) => !t.revoked && (t.expiresAt === null || t.expiresAt > today(now));

/** The kinds that are PersonalAccessToken records in GitLab (bots' tokens included). */
const PAT_KINDS = new Set(['personal', 'impersonation', 'project', 'group']);

/**
 * The expiry a new token gets and the latest one it may have: the instance's maximum lifetime
 * (365 days when expiry is required and no maximum is set).
 */
function expiry(state: State, given: string | undefined, now: number, fallback: 'max' | 'none'): string | null {
  const { max_personal_access_token_lifetime: maxDays, require_personal_access_token_expiry: required } = state.instance.settings;
  const limitDays = maxDays ?? (required ? 365 : null);
  const latest = limitDays === null ? null : addDays(today(now), limitDays);
  if (given !== undefined) {
    if (latest !== null && given > latest) throw messageError(422, `Expires at must be before ${addDays(latest, 1)}`);
    return given;
  }
  if (fallback === 'max' || required) return latest;
  return null;
}

export interface NewTokenParams {
  name: string;
  scopes: string[];
  expires_at?: string;
  description?: string;
}

function checkName(p: NewTokenParams): void {
  if (p.name.trim() === '') throw messageError(422, "Name can't be blank");
  if (p.scopes.length === 0) throw messageError(422, "Scopes can't be blank");
}

/** PersonalAccessTokens::CreateService: an administrator's token for anyone, a user's own. */
export function newPersonalToken(state: State, user: User, p: NewTokenParams, now: number, opts: { selfService?: boolean } = {}): Change<Token> {
  checkName(p);
  if (!user.admin && (p.scopes.includes('sudo') || p.scopes.includes('admin_mode')))
    throw messageError(422, 'Scopes can only contain available scopes');
  const expiresAt = opts.selfService && p.expires_at === undefined ? addDays(today(now), 1) : expiry(state, p.expires_at, now, 'max');
  return (draft) => createToken(draft, user.id, { kind: 'personal', name: p.name, scopes: p.scopes, expires_at: expiresAt, description: p.description }, now);
}

/** An impersonation token (admin only; its validations are the model's). */
export function newImpersonationToken(state: State, user: User, p: Partial<NewTokenParams> & { name: string }, now: number): Change<Token> {
  const errors: Record<string, string[]> = {};
  if (p.name.trim() === '') errors.name = ["can't be blank"];
  const scopes = p.scopes ?? [];
  if (scopes.length === 0) errors.scopes = ["can't be blank"];
  else if (!scopes.every((s) => (ALL_SCOPES as readonly string[]).includes(s))) errors.scopes = ['can only contain available scopes'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const expiresAt = expiry(state, p.expires_at, now, 'none');
  return (draft) => createToken(draft, user.id, { kind: 'impersonation', name: p.name, scopes, expires_at: expiresAt, description: p.description }, now);
}

export function revokeToken(token: Token): Change {
  return (draft) => {
    const t = tget(draft.tokens, token.token);
    if (t && !t.revoked) {
      t.revoked = true;
      emit(draft, { kind: 'token.revoked', tokenId: t.id, userId: t.userId, tokenKind: t.kind });
    }
  };
}

/**
 * PersonalAccessTokens::RotateService: the old token is revoked and a new one with the same name,
 * scopes and owner takes its place; without `expires_at` it expires a week later when expiry is
 * required, else never.
 */
export function rotateToken(state: State, token: Token, expiresAt: string | undefined, now: number): Change<Token> {
  if (token.revoked) throw badRequest('Token already revoked');
  const required = state.instance.settings.require_personal_access_token_expiry;
  const next = expiresAt !== undefined ? expiry(state, expiresAt, now, 'none') : required ? addDays(today(now), 7) : null;
  if (next !== null && next <= today(now)) throw badRequest('Expiration date must be in the future');
  return (draft) => {
    tget(draft.tokens, token.token)!.revoked = true;
    emit(draft, { kind: 'token.revoked', tokenId: token.id, userId: token.userId, tokenKind: token.kind });
    const input: TokenInput = {
      kind: token.kind,
      name: token.name,
      scopes: [...token.scopes],
      expires_at: next,
      description: token.description,
      ...(token.projectId !== undefined ? { projectId: token.projectId } : {}),
      ...(token.groupId !== undefined ? { groupId: token.groupId } : {}),
      ...(token.accessLevel !== undefined ? { accessLevel: token.accessLevel } : {}),
    };
    const fresh = createToken(draft, token.userId, input, now);
    // A resource token's bot keeps its membership, now until the new expiry.
    const source = resourceOf(token);
    if (source) {
      const m = readMembership(draft, source, token.userId);
      if (m) writeMembership(draft, source, token.userId, { ...plain(m), expiresAt: next });
    }
    return fresh;
  };
}

// ---- Listing (PersonalAccessTokensFinder) ----

export interface TokenFilters {
  user_id?: number;
  revoked?: boolean;
  state?: 'active' | 'inactive';
  created_before?: number;
  created_after?: number;
  last_used_before?: number;
  last_used_after?: number;
  expires_before?: string;
  expires_after?: string;
  search?: string;
  sort?: string;
  /** false: no impersonation tokens; true: only them. */
  impersonation?: boolean;
}

const SORTS: Record<string, (a: Token, b: Token) => number> = {
  id_asc: (a, b) => a.id - b.id,
  id_desc: (a, b) => b.id - a.id,
  created_at_asc: (a, b) => a.createdAt - b.createdAt || a.id - b.id,
  created_at_desc: (a, b) => b.createdAt - a.createdAt || b.id - a.id,
  expires_at_asc: (a, b) => cmpNullLast(a.expiresAt, b.expiresAt) || a.id - b.id,
  expires_at_desc: (a, b) => cmpNullLast(b.expiresAt, a.expiresAt) || b.id - a.id,
  last_used_at_asc: (a, b) => (a.lastUsedAt ?? 0) - (b.lastUsedAt ?? 0) || a.id - b.id,
  last_used_at_desc: (a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0) || b.id - a.id,
  name_asc: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id),
  name_desc: (a, b) => (a.name > b.name ? -1 : a.name < b.name ? 1 : b.id - a.id),
};

function cmpNullLast(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export const TOKEN_SORTS = Object.keys(SORTS);

/** The tokens that match, from one user's or from every user's. */
export function findTokens(state: State, f: TokenFilters, now: number, pool?: Iterable<Token>): Token[] {
  let source: Iterable<Token>;
  if (pool) source = pool;
  else if (f.user_id !== undefined) source = tokensOf(state, f.user_id);
  else source = (function* () {
    for (const t of tvalues(state.tokens)) if (PAT_KINDS.has(t.kind)) yield t;
  })();
  const out: Token[] = [];
  const search = f.search?.toLowerCase();
  for (const t of source) {
    if (f.impersonation === false && t.kind === 'impersonation') continue;
    if (f.impersonation === true && t.kind !== 'impersonation') continue;
    if (f.revoked !== undefined && t.revoked !== f.revoked) continue;
    if (f.state === 'active' && !isActive(t, now)) continue;
    if (f.state === 'inactive' && isActive(t, now)) continue;
    if (f.created_before !== undefined && t.createdAt > f.created_before) continue;
    if (f.created_after !== undefined && t.createdAt < f.created_after) continue;
    if (f.last_used_before !== undefined && !(t.lastUsedAt != null && t.lastUsedAt <= f.last_used_before)) continue;
    if (f.last_used_after !== undefined && !(t.lastUsedAt != null && t.lastUsedAt >= f.last_used_after)) continue;
    if (f.expires_before !== undefined && !(t.expiresAt !== null && t.expiresAt < f.expires_before)) continue;
    if (f.expires_after !== undefined && !(t.expiresAt !== null && t.expiresAt > f.expires_after)) continue;
    if (search && !t.name.toLowerCase().includes(search)) continue;
    out.push(t);
  }
  return out.sort(SORTS[f.sort ?? ''] ?? SORTS.id_asc);
}

// ---- Project and group access tokens (ResourceAccessTokens::CreateService) ----

export type Resource = { kind: 'project'; record: Project } | { kind: 'group'; record: Namespace };

export function resourceOf(token: Token): MembershipSource | undefined {
  if (token.kind === 'project' && token.projectId !== undefined) return { kind: 'project', id: token.projectId };
  if (token.kind === 'group' && token.groupId !== undefined) return { kind: 'namespace', id: token.groupId };
  return undefined;
}

/** The resource's tokens: those issued for it, and those of its bot members (fixture tokens). */
export function resourceTokens(state: State, r: Resource): Token[] {
  const out = new Map<number, Token>();
  for (const member of membersOf(state, sourceOf(r))) {
    const user = tget(state.users, member.userId);
    if (!user || user.userType !== 'project_bot') continue;
    for (const t of tokensOf(state, user.id)) if (t.kind === r.kind) out.set(t.id, t);
  }
  for (const t of tvalues(state.tokens)) {
    if (r.kind === 'project' && t.kind === 'project' && t.projectId === r.record.id) out.set(t.id, t);
    if (r.kind === 'group' && t.kind === 'group' && t.groupId === r.record.id) out.set(t.id, t);
  }
  return [...out.values()];
}

export const sourceOf = (r: Resource): MembershipSource => (r.kind === 'project' ? { kind: 'project', id: r.record.id } : { kind: 'namespace', id: r.record.id });

/** The role a resource token holds: its bot's membership, or what it was given. */
export function tokenAccessLevel(state: State, r: Resource, token: Token): number {
  return readMembership(state, sourceOf(r), token.userId)?.accessLevel ?? token.accessLevel ?? ACCESS.maintainer;
}

export function newResourceToken(
  state: State,
  r: Resource,
  actor: User,
  actorLevel: number,
  p: NewTokenParams & { access_level: number },
  now: number,
  host: string,
): Change<Token> {
  if (p.name.trim() === '') throw badRequest("Name can't be blank");
  if (!actor.admin && p.access_level > actorLevel)
    throw badRequest(`Could not provision ${roleName(p.access_level)} access to the access token. ERROR: Access level of the token can't be greater the access level of the user who created the token`);
  if (r.kind === 'project' && p.access_level === ACCESS.owner && !actor.admin && actorLevel < ACCESS.owner)
    throw badRequest('Could not provision owner access to project access token');
  const expiresAt = expiry(state, p.expires_at, now, state.instance.settings.require_personal_access_token_expiry ? 'max' : 'none');
  return (draft) => {
    const prefix = r.kind === 'project' ? 'project' : 'group';
    const username = `${prefix}_${r.record.id}_bot_${randomHex(draft, 32)}`;
    const bot = createUser(draft, { username, name: p.name, email: `${username}@noreply.${host}`, user_type: 'project_bot', created_by_id: actor.id }, now);
    writeMembership(draft, sourceOf(r), bot.id, { userId: bot.id, accessLevel: p.access_level, createdAt: now, createdById: actor.id, expiresAt });
    return createToken(
      draft,
      bot.id,
      {
        kind: r.kind,
        name: p.name,
        scopes: p.scopes,
        expires_at: expiresAt,
        description: p.description,
        accessLevel: p.access_level,
        ...(r.kind === 'project' ? { projectId: r.record.id } : { groupId: r.record.id }),
      },
      now,
    );
  };
}

/** ResourceAccessTokens::RevokeService: the token dies and its bot leaves the resource. */
export function revokeResourceToken(r: Resource, token: Token): Change {
  return (draft) => {
    tget(draft.tokens, token.token)!.revoked = true;
    emit(draft, { kind: 'token.revoked', tokenId: token.id, userId: token.userId, tokenKind: token.kind });
    writeMembership(draft, sourceOf(r), token.userId, null);
  };
}

const ROLE_NAMES: Record<number, string> = { 5: 'minimal_access', 10: 'guest', 15: 'planner', 20: 'reporter', 30: 'developer', 40: 'maintainer', 50: 'owner' };
const roleName = (level: number) => ROLE_NAMES[level] ?? String(level);
