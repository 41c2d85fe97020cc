// The world: every record the emulator knows, as one immutable value. Collections that grow
// with the world are chunked tables; everything inside a project or a group lives in that
// record (its partition), so an update touches one partition and a few small indexes.
import { emptyTable, type Table } from './table.js';
import { emptyMemberships, type MembershipTables } from './members.js';
import { emptyNotes, type NoteTables } from './notes.js';

export type Visibility = 'private' | 'internal' | 'public';
export type Tier = 'free' | 'premium' | 'ultimate';
export type Offering = 'self-managed' | 'hosted';

export const ACCESS = {
  none: 0, minimal: 5, guest: 10, planner: 15, reporter: 20, developer: 30, maintainer: 40, owner: 50,
} as const;

export interface RateLimit {
  limit: number;
  period_seconds: number;
}

export interface Settings {
  impersonation_enabled: boolean;
  runner_registration_restricted: boolean;
  require_personal_access_token_expiry: boolean;
  /** Longest lifetime of a new access token, in days; null for no limit. */
  max_personal_access_token_lifetime: number | null;
  default_project_visibility: Visibility;
  default_group_visibility: Visibility;
  user_defaults_to_private_profile: boolean;
  /** How a new project's default branch is protected on its first push (Gitlab::Access::BranchProtection: 0 none to 4). */
  default_branch_protection: number;
  offset_pagination_limit: number;
  /** Keyed by a route's rate-limit name (`notes_create`) or by `METHOD /path/pattern`. */
  rate_limits: Record<string, RateLimit>;
  /** Every project's inbound job token scope is on, whatever the project says (absent: on, GitLab 18's default). */
  enforce_ci_inbound_job_token_scope_enabled?: boolean;
}

export interface Instance {
  tier: Tier;
  offering: Offering;
  settings: Settings;
  /** The GitLab release `/version` and `/metadata` report (`16.11.2`); absent: the one the emulator imitates. */
  version?: string;
}

export type UserState = 'active' | 'blocked' | 'deactivated' | 'banned' | 'blocked_pending_approval';

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  state: UserState;
  admin: boolean;
  external: boolean;
  bot: boolean;
  /** GitLab's user_type: `human`, `project_bot`, `service_account`, or an internal bot's kind. */
  userType: string;
  namespaceId: number;
  createdAt: number;
  createdById: number | null;
  confirmedAt: number | null;
  lastSignInAt: number | null;
  lastActivityOn: string | null;
  bio: string;
  location: string;
  jobTitle: string;
  organization: string;
  websiteUrl: string;
  publicEmail: string | null;
  privateProfile: boolean;
  /** An uploaded avatar: the blob in the users' avatar store and its file name; absent: Gravatar's. */
  avatar?: { oid: string; filename: string };
  projectsLimit: number;
  canCreateGroup: boolean;
  twoFactorEnabled: boolean;
  updatedAt: number;
  currentSignInAt: number | null;
  signInCount: number;
  skype: string;
  linkedin: string;
  twitter: string;
  discord: string;
  pronouns: string | null;
  /** The administrators' note about the user. */
  note: string | null;
  themeId: number;
  colorSchemeId: number;
  /** The address commits use; null for the primary email, `_private` for the no-reply one. */
  commitEmail: string | null;
  /** An email change that waits for its confirmation. */
  unconfirmedEmail: string | null;
  auditor: boolean;
  /** The group whose SCIM or SAML provisioned the user (higher tiers). */
  provisionedByGroupId: number | null;
  /** Set when an administrator changed the password: the user must change it at the next sign-in. */
  passwordExpiresAt: number | null;
  /** Minutes limits of the higher tiers; null inherits the instance's. */
  sharedRunnersMinutesLimit: number | null;
  extraSharedRunnersMinutesLimit: number | null;
}

export type TokenKind = 'personal' | 'impersonation' | 'project' | 'group' | 'oauth' | 'job';

export interface Token {
  id: number;
  token: string;
  kind: TokenKind;
  userId: number;
  name: string;
  scopes: string[];
  /** A date, `YYYY-MM-DD`; the token stops working at the start of that day (UTC). */
  expiresAt: string | null;
  revoked: boolean;
  createdAt: number;
  /** Job tokens: the project and job they were issued for; project access tokens: their project. */
  projectId?: number;
  jobId?: number;
  /** Group access tokens: their group. */
  groupId?: number;
  description?: string;
  lastUsedAt?: number | null;
  /** Project and group access tokens: the role their bot user was given. */
  accessLevel?: number;
}

/** A membership's state: `awaiting` ones (over a seat limit, or set so) grant nothing yet. */
export type MemberState = 'active' | 'awaiting';

/** A direct membership of a user in a project or a namespace (see store/members.ts). */
export interface Member {
  /** The membership's own id (its order in lists); handed out by `setMembership` when absent. */
  id?: number;
  userId: number;
  accessLevel: number;
  createdAt: number;
  createdById: number | null;
  /** A date, `YYYY-MM-DD`; the membership grants nothing from the start of that day (UTC). */
  expiresAt: string | null;
  /** Absent means `active`. */
  state?: MemberState;
  /** Last change (If-Unmodified-Since); absent means `createdAt`. */
  updatedAt?: number;
  /** LDAP: synced from a group link, and whether its level overrides the sync. */
  ldap?: boolean;
  override?: boolean;
}

export interface Namespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  fullPath: string;
  parentId: number | null;
  ownerId: number | null;
  visibility: Visibility;
  description: string;
  createdAt: number;
  updatedAt: number;
  requestAccessEnabled: boolean;
  projectCreationLevel: 'noone' | 'owner' | 'maintainer' | 'developer';
  subgroupCreationLevel: 'owner' | 'maintainer';
  pendingDelete: boolean;
}

export type FeatureAccess = 'disabled' | 'private' | 'enabled' | 'public';

export interface Project {
  id: number;
  name: string;
  path: string;
  namespaceId: number;
  description: string;
  visibility: Visibility;
  createdAt: number;
  updatedAt: number;
  lastActivityAt: number;
  creatorId: number;
  defaultBranch: string | null;
  archived: boolean;
  topics: string[];
  features: Record<string, FeatureAccess>;
  settings: Record<string, unknown>;
  pendingDelete: boolean;
  /** Projects whose CI job tokens may reach this one (besides itself). */
  jobTokenAllowlist: number[];
  /** The rest of its inbound job token scope (absent: on, with no groups allowed). */
  jobTokenScope?: { inboundEnabled: boolean; groupIds: number[] };
  starCount: number;
}

export interface PathEntry {
  kind: 'namespace' | 'project';
  id: number;
}

/** Timed work: runs when the clock passes `at`. Kept in the world, so snapshots include it. */
export interface Task {
  id: number;
  at: number;
  /** The kind a family declared (`defineTask`); its payload is that task's data. */
  kind: string;
  payload: unknown;
}

/**
 * The records every family shares, and that the policy rules read: the instance, users and
 * their credentials, namespaces and projects. A family's own collections are its slice of the
 * world (see src/families/world.ts), not fields of these records.
 */
export interface CoreState {
  /** Sequence name -> last value handed out (ids, iids); see `sequences`. */
  seq: Record<string, number>;
  rng: { seed: number; n: number };
  instance: Instance;
  users: Table<User>;
  /** Lower-cased username -> user id. */
  usernames: Table<number>;
  /** Token value -> token. */
  tokens: Table<Token>;
  /** Session cookie value -> user id. */
  sessions: Table<number>;
  namespaces: Table<Namespace>;
  projects: Table<Project>;
  /** Lower-cased full path -> namespace or project. */
  paths: Table<PathEntry>;
  /** `<namespace id>/<project name>` -> project id: names are unique in a namespace. */
  projectNames: Table<number>;
  /** Who is a direct member of which project or namespace; read through store/members.ts. */
  memberships: MembershipTables;
  /** Notes on issues, merge requests, snippets, epics and commits; read through store/notes.ts. */
  notes: NoteTables;
  /** Timed work by id. */
  tasks: Table<Task>;
  /** When the earliest task is due (null: none), so that a request checks for due work in O(1). */
  nextTaskAt: number | null;
}

export function defaultSettings(): Settings {
  return {
    impersonation_enabled: true,
    runner_registration_restricted: false,
    require_personal_access_token_expiry: true,
    max_personal_access_token_lifetime: null,
    default_project_visibility: 'private',
    default_group_visibility: 'private',
    user_defaults_to_private_profile: false,
    default_branch_protection: 2,
    offset_pagination_limit: 50_000,
    rate_limits: {},
  };
}

export function emptyCoreState(seed = 1): CoreState {
  return {
    seq: Object.create(null) as Record<string, number>,
    rng: { seed, n: 0 },
    instance: { tier: 'free', offering: 'self-managed', settings: defaultSettings() },
    users: emptyTable(),
    usernames: emptyTable(),
    tokens: emptyTable(),
    sessions: emptyTable(),
    namespaces: emptyTable(),
    projects: emptyTable(),
    paths: emptyTable(),
    projectNames: emptyTable(),
    memberships: emptyMemberships(),
    notes: emptyNotes(),
    tasks: emptyTable(),
    nextTaskAt: null,
  };
}

/**
 * The sequences of one owner (the core, or a family), as a closed set of names: a typo is a
 * type error, not a new sequence. `scope` makes one sequence per owner record (iids per project).
 */
export function sequences<const N extends string>(names: readonly N[]) {
  const known = new Set<string>(names);
  return {
    names,
    next(draft: CoreState, name: N, scope?: string | number): number {
      if (!known.has(name)) throw new Error(`unknown sequence '${name}'`);
      const key = scope === undefined ? name : `${name}:${scope}`;
      const n = (draft.seq[key] ?? 0) + 1;
      draft.seq[key] = n;
      return n;
    },
    /** The value `next` would hand out, without taking it. */
    peek(state: CoreState, name: N, scope?: string | number): number {
      return (state.seq[scope === undefined ? name : `${name}:${scope}`] ?? 0) + 1;
    },
  };
}

/** Sequences of the shared records. */
export const coreIds = sequences(['user', 'namespace', 'token', 'project', 'task', 'member', 'group_link', 'note']);

/** Deterministic random hex from the world's seed: tokens, generated SHAs. */
export function randomHex(draft: CoreState, length: number): string {
  const out = peekHex(draft, length);
  draft.rng.n += Math.ceil(length / 8);
  return out;
}

/** What `randomHex` would give next, without taking it (a service that must know it before its change runs). */
export function peekHex(state: CoreState, length: number): string {
  let out = '';
  for (let n = state.rng.n; out.length < length; n++) out += mix32(state.rng.seed, n).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

function mix32(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
