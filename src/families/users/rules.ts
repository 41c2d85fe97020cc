// Users, their personal namespaces, tokens and sessions.
import { EmulatorError } from '../../core/errors.js';
import { tget, tset } from '../../store/table.js';
import { coreIds, randomHex, type Token, type TokenKind, type User } from '../../store/state.js';
import type { State } from '../world.js';

export interface UserInput {
  username: string;
  name?: string;
  email?: string;
  admin?: boolean;
  external?: boolean;
  bot?: boolean;
  state?: User['state'];
  bio?: string;
  private_profile?: boolean;
  projects_limit?: number;
  can_create_group?: boolean;
  created_by_id?: number | null;
}

export function createUser(draft: State, input: UserInput, now: number): User {
  if (tget(draft.usernames, input.username.toLowerCase()) !== undefined)
    throw new EmulatorError(`user '${input.username}' exists already`);
  const id = coreIds.next(draft, 'user');
  const namespaceId = coreIds.next(draft, 'namespace');
  const user: User = {
    id,
    username: input.username,
    name: input.name ?? input.username,
    email: input.email ?? `${input.username}@example.com`,
    state: input.state ?? 'active',
    admin: input.admin ?? false,
    external: input.external ?? false,
    bot: input.bot ?? false,
    namespaceId,
    createdAt: now,
    createdById: input.created_by_id ?? null,
    confirmedAt: now,
    lastSignInAt: null,
    lastActivityOn: null,
    bio: input.bio ?? '',
    location: '',
    jobTitle: '',
    organization: '',
    websiteUrl: '',
    publicEmail: null,
    privateProfile: input.private_profile ?? draft.instance.settings.user_defaults_to_private_profile,
    projectsLimit: input.projects_limit ?? 100000,
    canCreateGroup: input.can_create_group ?? true,
    twoFactorEnabled: false,
  };
  tset(draft.users, id, user);
  tset(draft.usernames, user.username.toLowerCase(), id);
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
  /** The secret; generated from the world's seed when absent. */
  token?: string;
  projectId?: number;
  jobId?: number;
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
    ...(input.projectId !== undefined ? { projectId: input.projectId } : {}),
    ...(input.jobId !== undefined ? { jobId: input.jobId } : {}),
  };
  tset(draft.tokens, value, token);
  return token;
}

/** A session cookie value for the user, as if they had signed in through the web. */
export function createSession(draft: State, userId: number, value?: string): string {
  const cookie = value ?? randomHex(draft, 32);
  tset(draft.sessions, cookie, userId);
  return cookie;
}

export function findUserByUsername(state: State, username: string): User | undefined {
  const id = tget(state.usernames, username.toLowerCase());
  return id === undefined ? undefined : tget(state.users, id);
}

