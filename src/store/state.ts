// The world: every record the emulator knows, as one immutable value. Collections that grow
// with the world are chunked tables; everything inside a project or a group lives in that
// record (its partition), so an update touches one partition and a few small indexes.
import { emptyTable, type Table } from './table.js';

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
  offset_pagination_limit: number;
  /** Keyed by a route's rate-limit name (`notes_create`) or by `METHOD /path/pattern`. */
  rate_limits: Record<string, RateLimit>;
}

export interface Instance {
  tier: Tier;
  offering: Offering;
  settings: Settings;
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
  projectsLimit: number;
  canCreateGroup: boolean;
  twoFactorEnabled: boolean;
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
  /** Job tokens: the project and job they were issued for. */
  projectId?: number;
  jobId?: number;
}

export interface Member {
  userId: number;
  accessLevel: number;
  createdAt: number;
  createdById: number | null;
  expiresAt: string | null;
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
  members: Record<number, Member>;
  requestAccessEnabled: boolean;
  projectCreationLevel: 'noone' | 'owner' | 'maintainer' | 'developer';
  subgroupCreationLevel: 'owner' | 'maintainer';
  pendingDelete: boolean;
  /** Group milestones, by id. Empty for user namespaces. */
  milestones: Record<number, Milestone>;
}

export type FeatureAccess = 'disabled' | 'private' | 'enabled' | 'public';

export interface Job {
  id: number;
  name: string;
  status: 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled';
  userId: number;
  ref: string;
}

/** A tag: `target` is the tag object of an annotated tag, else the commit itself. */
export interface TagRef {
  target: string;
  /** The commit the tag points at, peeled. */
  commit: string;
  /** The annotation of an annotated tag; null for a lightweight tag. */
  message: string | null;
  /** The X.509 signature record of a signed tag (seeded by fixtures). */
  signature?: X509Signature;
}

/** What GitLab stores of a tag's X.509 signature (X509CommitSignature and its certificate). */
export interface X509Signature {
  verificationStatus: string;
  certificate: {
    id: number;
    subject: string;
    subjectKeyIdentifier: string;
    email: string;
    serialNumber: number;
    certificateStatus: string;
    issuer: { id: number; subject: string; subjectKeyIdentifier: string; crlUrl: string };
  };
}

/** Who may create a tag matching a protected-tag pattern (an access level; 0 is no one). */
export interface ProtectedTag {
  createAccessLevel: number;
}

/** Who may push to and merge into a protected branch (access levels; 0 is no one). */
export interface ProtectedBranch {
  pushAccessLevel: number;
  mergeAccessLevel: number;
}

/**
 * The refs of a project's repository. The objects they name live in the git object store
 * (append-only), so a snapshot of the world includes every repository at no cost.
 * HEAD is `Project.defaultBranch`.
 */
export interface Repository {
  /** Branch name -> commit sha. */
  branches: Record<string, string>;
  tags: Record<string, TagRef>;
  /** Branch name or wildcard pattern (`release/*`) -> its protection. */
  protectedBranches: Record<string, ProtectedBranch>;
  /** Tag name or wildcard pattern (`v*`) -> who may create it. */
  protectedTags: Record<string, ProtectedTag>;
  /** LFS objects the project owns: sha256 oid -> the blob holding the content. */
  lfs: Record<string, string>;
}

export function emptyRepository(): Repository {
  return { branches: {}, tags: {}, protectedBranches: {}, protectedTags: {}, lfs: {} };
}

/** A milestone of a project (`projectId`) or of a group (`groupId`); `iid` counts per owner. */
export interface Milestone {
  id: number;
  iid: number;
  projectId: number | null;
  groupId: number | null;
  title: string;
  description: string;
  state: 'active' | 'closed';
  createdAt: number;
  updatedAt: number;
  /** Dates, `YYYY-MM-DD`. */
  dueDate: string | null;
  startDate: string | null;
}

export type ReleaseLinkType = 'other' | 'runbook' | 'image' | 'package';

export interface ReleaseLink {
  id: number;
  name: string;
  url: string;
  /** The direct asset path (`/bin/app`), or null. */
  filepath: string | null;
  linkType: ReleaseLinkType;
  createdAt: number;
}

export interface ReleaseEvidence {
  id: number;
  sha: string;
  collectedAt: number;
  /** The evidence summary as collected (Evidences::EvidenceEntity), kept as data. */
  summary: unknown;
}

/** A release, keyed in its project by tag name. The tag itself may be deleted later. */
export interface Release {
  id: number;
  tagName: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  releasedAt: number;
  authorId: number | null;
  /** The commit the tag pointed at when the release was made. */
  sha: string | null;
  /** Project or group milestone ids. */
  milestoneIds: number[];
  links: ReleaseLink[];
  evidences: ReleaseEvidence[];
}

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
  members: Record<number, Member>;
  features: Record<string, FeatureAccess>;
  settings: Record<string, unknown>;
  pendingDelete: boolean;
  /** Projects whose CI job tokens may reach this one (besides itself). */
  jobTokenAllowlist: number[];
  jobs: Record<number, Job>;
  starCount: number;
  repository: Repository;
  /** Project milestones, by id. */
  milestones: Record<number, Milestone>;
  /** Releases by tag name. */
  releases: Record<string, Release>;
}

export interface PathEntry {
  kind: 'namespace' | 'project';
  id: number;
}

/** Timed work: runs when the clock passes `at`. Kept in the world, so snapshots include it. */
export interface Task {
  id: number;
  at: number;
  kind: string;
  payload: Record<string, unknown>;
}

export interface State {
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
  tasks: Task[];
}

export function defaultSettings(): Settings {
  return {
    impersonation_enabled: true,
    runner_registration_restricted: false,
    require_personal_access_token_expiry: false,
    max_personal_access_token_lifetime: null,
    default_project_visibility: 'private',
    default_group_visibility: 'private',
    user_defaults_to_private_profile: false,
    offset_pagination_limit: 50_000,
    rate_limits: {},
  };
}

export function emptyState(seed = 1): State {
  return {
    seq: {},
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
    tasks: [],
  };
}

/** Next value of a named sequence (ids, iids): deterministic, and part of the world. */
export function nextId(draft: State, name: string): number {
  const n = (draft.seq[name] ?? 0) + 1;
  draft.seq[name] = n;
  return n;
}

/** Deterministic random hex from the world's seed: tokens, generated SHAs. */
export function randomHex(draft: State, length: number): string {
  let out = '';
  while (out.length < length) {
    const n = draft.rng.n++;
    out += mix32(draft.rng.seed, n).toString(16).padStart(8, '0');
  }
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
