// A fixture is data: users with tokens, groups, projects. `seed` turns one into records of the
// world and returns handles to what it made. Each later family adds its own part.
import { createGroup, validateGroup } from './groups/rules.js';
import { createProject, normalizeProjectInput, validateProject } from './projects/rules.js';
import { createSession, createToken, createUser, findUserByUsername, type TokenInput, type UserInput } from './users/rules.js';
import { createMilestone, validateMilestone } from './milestones/rules.js';
import { EmulatorError } from '../core/errors.js';
import { ACCESS, nextId, type Job, type Member, type Milestone, type Settings, type State, type Tier, type Offering, type Visibility } from '../store/state.js';
import { tget } from '../store/table.js';

export type RoleName = 'guest' | 'planner' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'minimal';

export interface FixtureToken {
  token?: string;
  name?: string;
  scopes?: string[];
  expires_at?: string | null;
  revoked?: boolean;
  kind?: 'personal' | 'impersonation' | 'oauth';
}

export interface FixtureUser extends UserInput {
  tokens?: FixtureToken[];
  /** Session cookie values (`_gitlab_session`) that sign this user in. */
  sessions?: string[];
}

export interface FixtureMember {
  user: string;
  access_level: number | RoleName;
  expires_at?: string | null;
}

export interface FixtureGroup {
  path: string;
  name?: string;
  /** Full path of the parent group. */
  parent?: string;
  visibility?: Visibility;
  description?: string;
  members?: FixtureMember[];
  milestones?: FixtureMilestone[];
}

export interface FixtureJob {
  name: string;
  status?: Job['status'];
  user: string;
  ref?: string;
  /** The job's CI_JOB_TOKEN; generated when absent. */
  token?: string;
}

export interface FixtureProject {
  path: string;
  name?: string;
  /** Full path of the owning group, or a username. */
  namespace: string;
  visibility?: Visibility;
  description?: string;
  default_branch?: string;
  topics?: string[];
  /** Username of the creator; the namespace's owner (or the first admin) when absent. */
  creator?: string;
  members?: FixtureMember[];
  /** Project access tokens: each gets a bot user who is a member with `access_level`. */
  tokens?: (FixtureToken & { access_level?: number | RoleName })[];
  jobs?: FixtureJob[];
  /** Full paths of projects whose CI job tokens may reach this project. */
  job_token_allowlist?: string[];
  repository?: FixtureRepository;
  milestones?: FixtureMilestone[];
  /** Releases, made from tags of `repository` once it is built. */
  releases?: FixtureRelease[];
}

/**
 * A release of an existing tag. Times are ISO 8601 (`created_at` defaults to the clock,
 * `released_at` to `created_at`); `milestones` are titles of the project's milestones or of its
 * group's; `author` is a username (the project's creator when absent).
 *
 *     releases: [{ tag_name: 'v1.0', name: 'First', description: 'Notes', milestones: ['1.0'],
 *                  links: [{ name: 'linux', url: 'https://example.com/app', direct_asset_path: '/bin/app', link_type: 'package' }] }]
 */
export interface FixtureRelease {
  tag_name: string;
  name?: string;
  description?: string;
  created_at?: string;
  released_at?: string;
  author?: string;
  milestones?: string[];
  links?: { name: string; url: string; direct_asset_path?: string; link_type?: 'other' | 'runbook' | 'image' | 'package' }[];
}

/**
 * A project's repository, built in this order: `files` (and `lfs`) as one "Initial commit" on
 * the default branch, then `branches`, then `commits` one by one, then `tags`. Authors are the
 * project's creator unless a commit names one; times are the emulator's clock unless given.
 *
 *     repository: {
 *       files: { 'README.md': '# Hello\n' },
 *       branches: { develop: 'main' },
 *       commits: [{ branch: 'develop', message: 'Add app', author: 'alice', files: { 'app.rb': 'puts 1\n', 'README.md': null } }],
 *       tags: { 'v1.0': 'main', 'v1.1': { ref: 'develop', message: 'Release 1.1' } },
 *     }
 */
export interface FixtureRepository {
  /** Path -> text, committed together as "Initial commit" on the default branch. */
  files?: Record<string, string>;
  /** New branches: name -> the branch, tag or commit they start from. */
  branches?: Record<string, string>;
  commits?: FixtureCommit[];
  /**
   * Lightweight tags name -> ref; annotated ones `{ ref, message }`; signed ones also carry the
   * `signature` record GitLab keeps for an X.509-signed tag.
   */
  tags?: Record<string, string | FixtureTag>;
  /** HEAD; the project's `default_branch`, else `main`, when absent. */
  default_branch?: string;
  /**
   * Files kept in Git LFS: path -> Base64 content. The initial commit holds a pointer file at
   * the path and the project owns the object, so `/raw?lfs=true` serves the content.
   */
  lfs?: Record<string, string>;
  /** Protected branches (name or wildcard); who may push and merge, maintainers by default. */
  protected_branches?: Record<string, { push_access_level?: number | RoleName; merge_access_level?: number | RoleName }>;
  /** Protected tags (name or wildcard such as `v*`); who may create them, maintainers by default. */
  protected_tags?: Record<string, { create_access_level?: number | RoleName }>;
}

export interface FixtureTag {
  ref: string;
  message: string;
  signature?: FixtureX509Signature;
}

/** An X.509 tag signature as GitLab stores it; every field has a plausible default. */
export interface FixtureX509Signature {
  verification_status?: string;
  certificate?: {
    subject?: string;
    subject_key_identifier?: string;
    email?: string;
    serial_number?: number;
    certificate_status?: string;
    issuer?: { subject?: string; subject_key_identifier?: string; crl_url?: string };
  };
}

/** A milestone of a project or a group; `iid`s follow the order given. */
export interface FixtureMilestone {
  title: string;
  description?: string;
  state?: 'active' | 'closed';
  /** `YYYY-MM-DD`. */
  due_date?: string | null;
  start_date?: string | null;
}

export interface FixtureCommit {
  /** The default branch when absent; a new branch starts from `start_branch`, else the default branch. */
  branch?: string;
  start_branch?: string;
  message: string;
  /** Username of the author and committer; the project's creator when absent. */
  author?: string;
  /** Path -> text; `null` deletes the file. */
  files?: Record<string, string | null>;
  /** Path -> Base64 content, for binary files. */
  base64?: Record<string, string>;
  /** Paths whose executable bit is set. */
  executable?: string[];
  /** ISO 8601 time of the commit. */
  date?: string;
}

export interface Fixture {
  instance?: { tier?: Tier; offering?: Offering; settings?: Partial<Settings> };
  users?: FixtureUser[];
  groups?: FixtureGroup[];
  projects?: FixtureProject[];
}

export interface SeedHandles {
  users: Record<string, { id: number; tokens: string[]; sessions: string[] }>;
  groups: Record<string, { id: number }>;
  projects: Record<string, { id: number; tokens: string[]; jobs: Record<string, { id: number; token: string }> }>;
}

export function accessLevel(level: number | RoleName): number {
  if (typeof level === 'number') return level;
  const n = ACCESS[level];
  if (n === undefined) throw new EmulatorError(`unknown role '${level}'`);
  return n;
}

function userId(state: State, username: string, where: string): number {
  const user = findUserByUsername(state, username);
  if (!user) throw new EmulatorError(`${where} names unknown user '${username}'`);
  return user.id;
}

function members(state: State, list: FixtureMember[] | undefined, now: number, where: string): Record<number, Member> {
  const out: Record<number, Member> = {};
  for (const m of list ?? []) {
    const id = userId(state, m.user, where);
    out[id] = { userId: id, accessLevel: accessLevel(m.access_level), createdAt: now, createdById: null, expiresAt: m.expires_at ?? null };
  }
  return out;
}

function invalid(where: string, errors: Record<string, string[]>): never {
  const text = Object.entries(errors).map(([k, v]) => `${k} ${v.join(', ')}`).join('; ');
  throw new EmulatorError(`${where} is invalid: ${text}`);
}

/** Applies a fixture to a draft of the world. */
export function seedDraft(draft: State, fixture: Fixture, now: number): SeedHandles {
  const handles: SeedHandles = { users: {}, groups: {}, projects: {} };
  if (fixture.instance) {
    const { tier, offering, settings } = fixture.instance;
    if (tier) draft.instance.tier = tier;
    if (offering) draft.instance.offering = offering;
    if (settings) Object.assign(draft.instance.settings, settings);
  }
  for (const u of fixture.users ?? []) {
    const { tokens, sessions, ...input } = u;
    const user = createUser(draft, input, now);
    const h = (handles.users[user.username] = { id: user.id, tokens: [] as string[], sessions: [] as string[] });
    for (const t of tokens ?? []) h.tokens.push(createToken(draft, user.id, t as TokenInput, now).token);
    for (const s of sessions ?? []) h.sessions.push(createSession(draft, user.id, s));
  }
  for (const g of fixture.groups ?? []) {
    const where = `group '${g.parent ? `${g.parent}/` : ''}${g.path}'`;
    let parentId: number | null = null;
    if (g.parent) {
      const entry = tget(draft.paths, g.parent.toLowerCase());
      if (entry?.kind !== 'namespace' || tget(draft.namespaces, entry.id)?.kind !== 'group')
        throw new EmulatorError(`${where} names unknown parent group '${g.parent}'`);
      parentId = entry.id;
    }
    const input = { name: g.name ?? g.path, path: g.path, parentId, visibility: g.visibility, description: g.description };
    const errors = validateGroup(draft, input);
    if (Object.keys(errors).length) invalid(where, errors);
    const group = createGroup(draft, input, now);
    group.members = members(draft, g.members, now, where);
    for (const m of g.milestones ?? []) seedMilestone(draft, group.milestones, { groupId: group.id }, m, now, where);
    handles.groups[group.fullPath] = { id: group.id };
  }
  for (const p of fixture.projects ?? []) handles.projects[`${p.namespace}/${p.path}`] = seedProject(draft, p, now);
  return handles;
}

function seedProject(draft: State, p: FixtureProject, now: number): SeedHandles['projects'][string] {
  const where = `project '${p.namespace}/${p.path}'`;
  const entry = tget(draft.paths, p.namespace.toLowerCase());
  const ns = entry?.kind === 'namespace' ? tget(draft.namespaces, entry.id) : undefined;
  if (!ns) throw new EmulatorError(`${where} names unknown namespace '${p.namespace}'`);
  const creatorId = p.creator
    ? userId(draft, p.creator, where)
    : ns.ownerId ?? Number(Object.keys(ns.members)[0] ?? firstAdmin(draft, where));
  const input = normalizeProjectInput({
    name: p.name, path: p.path, namespaceId: ns.id, creatorId, visibility: p.visibility, description: p.description,
    defaultBranch: p.default_branch, topics: p.topics,
  });
  const errors = validateProject(draft, input);
  if (Object.keys(errors).length) invalid(where, errors);
  const project = createProject(draft, input, now);
  project.members = members(draft, p.members, now, where);
  const handle = { id: project.id, tokens: [] as string[], jobs: {} as Record<string, { id: number; token: string }> };
  for (const [i, t] of (p.tokens ?? []).entries()) {
    const bot = createUser(draft, { username: `project_${project.id}_bot_${i + 1}`, name: t.name ?? `${project.name} bot`, bot: true }, now);
    const level = accessLevel(t.access_level ?? 'maintainer');
    project.members[bot.id] = { userId: bot.id, accessLevel: level, createdAt: now, createdById: null, expiresAt: null };
    handle.tokens.push(createToken(draft, bot.id, { ...t, kind: 'project' }, now).token);
  }
  for (const j of p.jobs ?? []) {
    const id = nextId(draft, 'job');
    project.jobs[id] = { id, name: j.name, status: j.status ?? 'running', userId: userId(draft, j.user, where), ref: j.ref ?? 'main' };
    const token = createToken(draft, project.jobs[id]!.userId, { kind: 'job', token: j.token, projectId: project.id, jobId: id, name: j.name }, now);
    handle.jobs[j.name] = { id, token: token.token };
  }
  for (const m of p.milestones ?? []) seedMilestone(draft, project.milestones, { projectId: project.id }, m, now, where);
  for (const path of p.job_token_allowlist ?? []) {
    const e = tget(draft.paths, path.toLowerCase());
    if (e?.kind !== 'project') throw new EmulatorError(`${where} allows job tokens of unknown project '${path}'`);
    project.jobTokenAllowlist.push(e.id);
  }
  return handle;
}

function seedMilestone(
  draft: State,
  into: Record<number, Milestone>,
  owner: { projectId?: number; groupId?: number },
  m: FixtureMilestone,
  now: number,
  where: string,
): void {
  const errors = validateMilestone(Object.values(into), m.title, m.start_date ?? null, m.due_date ?? null);
  if (Object.keys(errors).length) invalid(`${where}: milestone '${m.title}'`, errors);
  const milestone = createMilestone(draft, owner, { title: m.title, description: m.description, dueDate: m.due_date, startDate: m.start_date }, now);
  if (m.state === 'closed') milestone.state = 'closed';
  into[milestone.id] = milestone;
}

function firstAdmin(state: State, where: string): number {
  for (const chunk of Object.values(state.users.chunks)) for (const u of Object.values(chunk)) if (u.admin) return u.id;
  throw new EmulatorError(`${where} needs a creator: name one, or seed an administrator`);
}
