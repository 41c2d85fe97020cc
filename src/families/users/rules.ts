// Users, their personal namespaces, tokens and sessions: the records every other family names.
import { EmulatorError } from '../../core/errors.js';
import { partition, pset, tdel, tget, tset, tvalues } from '../../store/table.js';
import { coreIds, randomHex, sequences, type Token, type TokenKind, type User } from '../../store/state.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import type { Email } from './records.js';

/** The family's own sequences. */
export const userIds = sequences(['email', 'ssh_key', 'gpg_key', 'runner']);

export interface UserInput {
  username: string;
  name?: string;
  email?: string;
  admin?: boolean;
  auditor?: boolean;
  external?: boolean;
  bot?: boolean;
  /** `human` (default), `project_bot` (the default of a bot), `service_account`, `alert_bot`, `support_bot`, `ghost`... */
  user_type?: string;
  state?: User['state'];
  bio?: string;
  location?: string;
  organization?: string;
  job_title?: string;
  website_url?: string;
  public_email?: string | null;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  discord?: string;
  pronouns?: string | null;
  note?: string | null;
  theme_id?: number;
  color_scheme_id?: number;
  private_profile?: boolean;
  projects_limit?: number;
  can_create_group?: boolean;
  two_factor_enabled?: boolean;
  created_by_id?: number | null;
  /** Whether the email is confirmed (default true). */
  confirmed?: boolean;
  last_activity_on?: string | null;
}

export function createUser(draft: State, input: UserInput, now: number): User {
  if (tget(draft.usernames, input.username.toLowerCase()) !== undefined)
    throw new EmulatorError(`user '${input.username}' exists already`);
  const id = coreIds.next(draft, 'user');
  const namespaceId = coreIds.next(draft, 'namespace');
  const email = input.email ?? `${input.username}@example.com`;
  const user: User = {
    id,
    username: input.username,
    name: input.name ?? input.username,
    email,
    state: input.state ?? 'active',
    admin: input.admin ?? false,
    external: input.external ?? false,
    bot: input.bot ?? (input.user_type !== undefined && input.user_type !== 'human'),
    userType: input.user_type ?? (input.bot ? 'project_bot' : 'human'),
    namespaceId,
    createdAt: now,
    createdById: input.created_by_id ?? null,
    confirmedAt: input.confirmed === false ? null : now,
    lastSignInAt: null,
    lastActivityOn: input.last_activity_on ?? null,
    bio: input.bio ?? '',
    location: input.location ?? '',
    jobTitle: input.job_title ?? '',
    organization: input.organization ?? '',
    websiteUrl: input.website_url ?? '',
    publicEmail: input.public_email ?? null,
    privateProfile: input.private_profile ?? draft.instance.settings.user_defaults_to_private_profile,
    projectsLimit: input.projects_limit ?? 100000,
    canCreateGroup: input.can_create_group ?? true,
    twoFactorEnabled: input.two_factor_enabled ?? false,
    updatedAt: now,
    currentSignInAt: null,
    signInCount: 0,
    skype: input.skype ?? '',
    linkedin: input.linkedin ?? '',
    twitter: input.twitter ?? '',
    discord: input.discord ?? '',
    pronouns: input.pronouns ?? null,
    note: input.note ?? null,
    themeId: input.theme_id ?? 3,
    colorSchemeId: input.color_scheme_id ?? 1,
    commitEmail: null,
    unconfirmedEmail: null,
    auditor: input.auditor ?? false,
    provisionedByGroupId: null,
    passwordExpiresAt: null,
    sharedRunnersMinutesLimit: null,
    extraSharedRunnersMinutesLimit: null,
  };
  tset(draft.users, id, user);
  emit(draft, { kind: 'user.created', userId: id });
  tset(draft.usernames, user.username.toLowerCase(), id);
  tset(draft.emailOwners, email.toLowerCase(), id);
  tset(draft.namespaces, namespaceId, {
    id: namespaceId,
    kind: 'user',
    name: user.name,
    path: user.username,
    fullPath: user.username,
    parentId: null,
    ownerId: id,
    visibility: 'public',
    description: '',
    createdAt: now,
    updatedAt: now,
    requestAccessEnabled: false,
    projectCreationLevel: 'owner',
    subgroupCreationLevel: 'owner',
    pendingDelete: false,
  });
  tset(draft.paths, user.username.toLowerCase(), { kind: 'namespace', id: namespaceId });
  return user;
}

const PREFIX: Record<TokenKind, string> = {
  personal: 'glpat-', impersonation: 'glpat-', project: 'glpat-', group: 'glpat-', oauth: '', job: 'glcbt-',
};

export interface TokenInput {
  kind?: TokenKind;
  name?: string;
  scopes?: string[];
  expires_at?: string | null;
  revoked?: boolean;
  description?: string;
  /** When the token was last used (ISO 8601). */
  last_used_at?: string | null;
  /** The secret; generated from the world's seed when absent. */
  token?: string;
  projectId?: number;
  groupId?: number;
  jobId?: number;
  accessLevel?: number;
}

export function createToken(draft: State, userId: number, input: TokenInput, now: number): Token {
  const kind = input.kind ?? 'personal';
  const value = input.token ?? PREFIX[kind] + randomHex(draft, kind === 'oauth' ? 64 : 20);
  if (tget(draft.tokens, value)) throw new EmulatorError(`token '${value}' is used already`);
  const token: Token = {
    id: coreIds.next(draft, 'token'),
    token: value,
    kind,
    userId,
    name: input.name ?? `${kind} token`,
    scopes: input.scopes ?? ['api'],
    expiresAt: input.expires_at ?? null,
    revoked: input.revoked ?? false,
    createdAt: now,
    description: input.description ?? '',
    lastUsedAt: input.last_used_at ? Date.parse(input.last_used_at) : null,
    ...(input.projectId !== undefined ? { projectId: input.projectId } : {}),
    ...(input.groupId !== undefined ? { groupId: input.groupId } : {}),
    ...(input.accessLevel !== undefined ? { accessLevel: input.accessLevel } : {}),
    ...(input.jobId !== undefined ? { jobId: input.jobId } : {}),
  };
  tset(draft.tokens, value, token);
  if (kind !== 'job' && kind !== 'oauth') {
    tset(draft.tokenIds, token.id, value);
    pset(draft.userTokens, userId, token.id, value);
    emit(draft, { kind: 'token.created', tokenId: token.id, userId, tokenKind: kind });
  }
  return token;
}

/** A token by its id (personal, impersonation, project and group tokens). */
export function tokenById(state: State, id: number): Token | undefined {
  const value = tget(state.tokenIds, id);
  return value === undefined ? undefined : tget(state.tokens, value);
}

/** The tokens a user owns, oldest first. */
export function tokensOf(state: State, userId: number): Token[] {
  const t = tget(state.userTokens, userId);
  if (!t) return [];
  const out: Token[] = [];
  for (const v of tvalues(t)) {
    const token = tget(state.tokens, v);
    if (token) out.push(token);
  }
  return out.sort((a, b) => a.id - b.id);
}

/** A session cookie value for the user, as if they had signed in through the web. */
export function createSession(draft: State, userId: number, value?: string): string {
  const cookie = value ?? randomHex(draft, 32);
  tset(draft.sessions, cookie, userId);
  return cookie;
}

/** Devise's trackable sign-in: the previous sign-in moves to `last_sign_in_at`, and the day counts as activity. */
export function recordSignIn(draft: State, userId: number, now: number): void {
  const u = tget(draft.users, userId);
  if (!u) return;
  // Signing in again reactivates a deactivated user (Users::ActivateService on sign-in).
  if (u.state === 'deactivated') u.state = 'active';
  u.lastSignInAt = u.currentSignInAt ?? now;
  u.currentSignInAt = now;
  u.signInCount += 1;
  u.lastActivityOn = new Date(now).toISOString().slice(0, 10);
}

export function findUserByUsername(state: State, username: string): User | undefined {
  const id = tget(state.usernames, username.toLowerCase());
  return id === undefined ? undefined : tget(state.users, id);
}

/** `find_user`: an id, or a username (case-insensitive). */
export function findUserByIdOrUsername(state: State, idOrName: string): User | undefined {
  if (/^\d+$/.test(idOrName)) return tget(state.users, Number(idOrName));
  return findUserByUsername(state, idOrName);
}

/** Records a user's identity with an external provider. */
export function addIdentity(draft: State, userId: number, provider: string, externUid: string, now: number, samlProviderId: number | null = null): void {
  const old = tget(partition(draft.identities, userId), provider);
  if (old) tdel(draft.identityOwners, identityKey(provider, old.externUid));
  pset(draft.identities, userId, provider, { provider, externUid, samlProviderId, createdAt: now });
  tset(draft.identityOwners, identityKey(provider, externUid), userId);
}

export const identityKey = (provider: string, externUid: string) => `${provider.toLowerCase()}\u0000${externUid.toLowerCase()}`;

/** Adds a secondary email address; a confirmed one is the user's in every email lookup. */
export function addEmail(draft: State, userId: number, email: string, confirmedAt: number | null, now: number): Email {
  const record: Email = { id: userIds.next(draft, 'email'), userId, email, confirmedAt, createdAt: now };
  pset(draft.userEmails, userId, record.id, record);
  if (tget(draft.emailOwners, email.toLowerCase()) === undefined) tset(draft.emailOwners, email.toLowerCase(), userId);
  return record;
}

/** The user holding an email address (primary or secondary), if any. */
export function userByEmail(state: State, email: string): User | undefined {
  const id = tget(state.emailOwners, email.toLowerCase());
  return id === undefined ? undefined : tget(state.users, id);
}

/** Records (or changes) the SCIM identity a group's provisioning gave the user. */
export function setScimIdentity(draft: State, userId: number, groupId: number, externUid: string, active: boolean): void {
  pset(draft.scimIdentities, userId, groupId, { groupId, externUid, active });
}
