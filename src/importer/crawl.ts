// Crawls projects of a live GitLab through its REST API (doc/api/*.md) and git over HTTP, and
// writes what a fixture can seed: groups and their ancestors, projects with their repositories,
// labels, milestones, issues, merge requests, notes, releases, members and CI variables, and the
// users all of these mention. Tokens are never copied: each user gets a fresh one. Values GitLab
// does not hand out (hidden variables) and secrets (masked variables) become placeholders.
import { randomBytes } from 'node:crypto';
import type { Fixture, FixtureGroup, FixtureProject, FixtureUser } from '../families/world.js';
import { GitlabClient, GitlabRequestError, type Progress } from './client.js';
import { put } from './put.js';
import { crawlRepository } from './repository.js';

export interface ImportOptions {
  /** The GitLab's URL (https://gitlab.com, or a self-managed instance). */
  from: string;
  token: string;
  /** Full paths of projects to import. */
  projects?: string[];
  /** Full paths of groups whose projects (and subgroups' projects) to import. */
  groups?: string[];
  /** One line per step, on stderr from the CLI. */
  progress?: Progress;
  /** How to wait when rate limited (tests pass a shorter one). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

export interface ImportResult {
  fixture: Fixture;
  /** Username -> the fresh token the fixture gives that user. */
  tokens: Record<string, string>;
  /** What was replaced or left out, one line each. */
  notes: string[];
  /** Variables whose value in the fixture is a placeholder: `group or project path: KEY`. */
  placeholders: string[];
  stats: { projects: number; groups: number; users: number; issues: number; mergeRequests: number; notes: number; commits: number; requests: number };
}

// The shapes read here, from GitLab's entities (lib/api/entities): only the fields used.
interface UserRef { id: number; username: string; name?: string; state?: string }
interface ApiUser extends UserRef { bot?: boolean; public_email?: string | null; email?: string | null; bio?: string; location?: string; organization?: string; job_title?: string; website_url?: string; pronouns?: string | null; is_admin?: boolean }
interface ApiNamespace { id: number; kind: 'user' | 'group'; full_path: string; path: string }
interface ApiGroup { id: number; path: string; name: string; full_path: string; visibility?: string; description?: string | null; parent_id?: number | null }
interface ApiProject { id: number; path: string; name: string; path_with_namespace: string; namespace: ApiNamespace; visibility?: string; description?: string | null; default_branch?: string | null; topics?: string[]; creator_id?: number; http_url_to_repo: string; web_url: string; empty_repo?: boolean; repository_access_level?: string; forked_from_project?: unknown; owner?: UserRef }
interface ApiMember extends UserRef { access_level: number; expires_at?: string | null; membership_state?: string; bot?: boolean }
interface ApiLabel { name: string; color: string; description?: string | null; priority?: number | null; is_project_label?: boolean }
interface ApiMilestone { title: string; description?: string | null; state: string; due_date?: string | null; start_date?: string | null; project_id?: number; group_id?: number }
interface ApiIssue { iid: number; title: string; description?: string | null; author: UserRef; assignees?: UserRef[]; labels?: string[]; milestone?: { title: string } | null; state: string; confidential?: boolean; discussion_locked?: boolean | null; due_date?: string | null; created_at: string; updated_at?: string; closed_at?: string | null; closed_by?: UserRef | null; issue_type?: string; type?: string; weight?: number | null; time_stats?: { human_time_estimate?: string | null; human_total_time_spent?: string | null } }
interface ApiMergeRequest { iid: number; title: string; description?: string | null; author: UserRef; assignees?: UserRef[]; reviewers?: UserRef[]; labels?: string[]; milestone?: { title: string } | null; state: string; source_branch: string; target_branch: string; created_at: string; source_project_id?: number; target_project_id?: number }
interface ApiNote { body: string; author: UserRef; system: boolean; internal?: boolean; confidential?: boolean; created_at: string }
interface ApiRelease { tag_name: string; name?: string | null; description?: string | null; created_at?: string; released_at?: string; author?: UserRef; milestones?: { title: string }[]; assets?: { links?: { name: string; url: string; direct_asset_url?: string; link_type?: string }[] } }
interface ApiVariable { key: string; value: string | null; variable_type?: string; protected?: boolean; masked?: boolean; hidden?: boolean; raw?: boolean; environment_scope?: string; description?: string | null }

interface ApiProtection { name: string; push_access_levels?: { access_level: number }[]; merge_access_levels?: { access_level: number }[]; create_access_levels?: { access_level: number }[] }

type Writable<T> = { -readonly [K in keyof T]: T[K] };
type FixtureVariable = NonNullable<FixtureProject['variables']>[number];
type FixtureMember = NonNullable<FixtureProject['members']>[number];

const enc = encodeURIComponent;
const STATES = ['active', 'blocked', 'deactivated', 'banned', 'blocked_pending_approval'] as const;
const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const;

export async function importFromGitlab(o: ImportOptions): Promise<ImportResult> {
  const progress = o.progress ?? (() => {});
  const base = o.from.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(base)) throw new ImportError(`--from must be an http(s) URL, not '${o.from}'`);
  const client = new GitlabClient({ base, token: o.token, progress, ...(o.sleep ? { sleep: o.sleep } : {}), ...(o.fetch ? { fetch: o.fetch } : {}) });
  const notes: string[] = [];
  const placeholders: string[] = [];
  const stats = { projects: 0, groups: 0, users: 0, issues: 0, mergeRequests: 0, notes: 0, commits: 0, requests: 0 };

  let me: ApiUser;
  try {
    me = await client.get<ApiUser>('/user');
  } catch (e) {
    if (e instanceof GitlabRequestError && e.status === 401) throw new ImportError(`${base} refused the token (401 Unauthorized): give a personal access token with the read_api (or api) scope`);
    if (e instanceof GitlabRequestError && e.status === 403) throw new ImportError(`${base} refused the token (403 Forbidden): it needs the read_api (or api) scope`);
    throw new ImportError(e instanceof Error ? e.message : String(e));
  }
  progress(`signed in to ${base} as ${me.username}`);

  // Users: every one the crawled records mention, by id; each profile is read once.
  const mentioned = new Map<number, UserRef>();
  const profiles = new Map<number, ApiUser>();
  /** Lower-cased git author email -> username (null: no user has it). */
  const authors = new Map<string, string | null>();
  const mention = (u: UserRef | null | undefined): string | undefined => {
    if (!u || typeof u.id !== 'number') return undefined;
    if (!mentioned.has(u.id)) mentioned.set(u.id, u);
    return u.username;
  };

  // Which projects: the ones named, the groups' (with subgroups'), else every project the token's user is a member of.
  const projects = new Map<number, ApiProject>();
  const wanted = new Set<number>();
  const groupPaths = new Set<string>();
  const want = (p: ApiProject) => {
    projects.set(p.id, p);
    wanted.add(p.id);
  };
  for (const path of o.projects ?? []) {
    try {
      want(await client.get<ApiProject>(`/projects/${enc(path)}`));
    } catch (e) {
      throw notFound(e, `project '${path}'`);
    }
  }
  for (const path of o.groups ?? []) {
    let group: ApiGroup;
    try {
      group = await client.get<ApiGroup>(`/groups/${enc(path)}?with_projects=false`);
    } catch (e) {
      throw notFound(e, `group '${path}'`);
    }
    progress(`listing the projects of group ${group.full_path}`);
    for (const p of await client.all<ApiProject>(`/groups/${group.id}/projects?include_subgroups=true&with_shared=false&order_by=id&sort=asc`, `projects of ${group.full_path}`)) want(p);
    // Subgroups without projects are carried too.
    for (const g of await client.all<ApiGroup>(`/groups/${group.id}/descendant_groups?order_by=id&sort=asc`, `subgroups of ${group.full_path}`)) groupPaths.add(g.full_path);
    groupPaths.add(group.full_path);
  }
  if (!o.projects?.length && !o.groups?.length) {
    progress(`listing the projects ${me.username} is a member of`);
    // Keyset pagination, which GitLab prefers for the project list (order_by=id only).
    for (const p of await client.all<ApiProject>('/projects?membership=true&pagination=keyset&order_by=id&sort=asc', 'projects')) want(p);
  }
  // Lists answer a project's simple form in some versions: read each project itself.
  for (const id of wanted) projects.set(id, await client.get<ApiProject>(`/projects/${id}`));
  const order = [...wanted].sort((a, b) => a - b).map((id) => projects.get(id)!);
  progress(`${order.length} project${order.length === 1 ? '' : 's'} to import`);

  // Groups: each project's group and its ancestors, parents first.
  for (const p of order) {
    if (p.namespace.kind !== 'group') continue;
    const parts = p.namespace.full_path.split('/');
    for (let i = 1; i <= parts.length; i++) groupPaths.add(parts.slice(0, i).join('/'));
  }
  for (const path of [...groupPaths]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) groupPaths.add(parts.slice(0, i).join('/'));
  }
  const groups: FixtureGroup[] = [];
  for (const path of [...groupPaths].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))) {
    progress(`group ${path}`);
    groups.push(await crawlGroup(path));
    stats.groups++;
  }

  const fixtureProjects: FixtureProject[] = [];
  for (const [n, p] of order.entries()) {
    progress(`project ${p.path_with_namespace} (${n + 1}/${order.length})`);
    fixtureProjects.push(await crawlProject(p));
    stats.projects++;
  }

  // The users: profiles of everyone mentioned, without the emails GitLab keeps private.
  progress(`${mentioned.size} users`);
  const users: FixtureUser[] = [];
  const tokens: Record<string, string> = {};
  for (const ref of [...mentioned.values()].sort((a, b) => a.id - b.id)) {
    const u = await profile(ref);
    const user: Writable<FixtureUser> = { username: u.username };
    if (u.name) user.name = u.name;
    if (u.public_email) {
      user.email = u.public_email;
      user.public_email = u.public_email;
    }
    if (u.state && (STATES as readonly string[]).includes(u.state)) user.state = u.state as (typeof STATES)[number];
    if (u.bot) user.bot = true;
    if (u.is_admin) user.admin = true;
    for (const k of ['bio', 'location', 'organization', 'job_title', 'website_url'] as const) if (u[k]) user[k] = u[k];
    if (!u.bot && (user.state ?? 'active') === 'active') {
      const token = `glpat-${randomBytes(15).toString('base64url')}`;
      user.tokens = [{ name: 'imported', token, scopes: ['api', 'read_repository', 'write_repository'] }];
      put(tokens, u.username, token);
    }
    users.push(user);
  }
  stats.users = users.length;
  stats.requests = client.requests;
  return { fixture: { users, groups, projects: fixtureProjects }, tokens, notes, placeholders, stats };

  async function crawlGroup(path: string): Promise<FixtureGroup> {
    let g: ApiGroup;
    try {
      g = await client.get<ApiGroup>(`/groups/${enc(path)}?with_projects=false`);
    } catch (e) {
      if (!(e instanceof GitlabRequestError && (e.status === 404 || e.status === 403))) throw e;
      notes.push(`group ${path}: not readable with this token; carried as a private group with no members`);
      const parts = path.split('/');
      return { path: parts.at(-1)!, ...(parts.length > 1 ? { parent: parts.slice(0, -1).join('/') } : {}), visibility: 'private' };
    }
    const parts = path.split('/');
    const group: Writable<FixtureGroup> = { path: g.path, name: g.name };
    if (parts.length > 1) group.parent = parts.slice(0, -1).join('/');
    if (isVisibility(g.visibility)) group.visibility = g.visibility;
    if (g.description) group.description = g.description;
    const members = await optional(() => client.all<ApiMember>(`/groups/${g.id}/members`), `group ${path}: members`);
    if (members?.length) group.members = members.map(member);
    const labels = await optional(() => client.all<ApiLabel>(`/groups/${g.id}/labels?include_ancestor_groups=false&include_descendant_groups=false&only_group_labels=true`), `group ${path}: labels`);
    if (labels?.length) group.labels = labels.map(label);
    const milestones = await optional(() => client.all<ApiMilestone>(`/groups/${g.id}/milestones?include_ancestors=false`), `group ${path}: milestones`);
    if (milestones?.length) group.milestones = milestones.filter((m) => m.project_id === undefined && (m.group_id ?? g.id) === g.id).sort(byIid).map(milestone);
    const variables = await optional(() => client.all<ApiVariable>(`/groups/${g.id}/variables`), `group ${path}: CI/CD variables`, true);
    if (variables?.length) group.variables = variables.map((v) => variable(v, path));
    return group;
  }

  async function crawlProject(p: ApiProject): Promise<FixtureProject> {
    const where = p.path_with_namespace;
    const project: Writable<FixtureProject> = { namespace: p.namespace.full_path, path: p.path, name: p.name };
    if (p.namespace.kind === 'user') {
      const owner = p.owner ?? (await client.get<UserRef[]>(`/users?username=${enc(p.namespace.path)}`))[0];
      if (owner) mention(owner);
    }
    if (isVisibility(p.visibility)) project.visibility = p.visibility;
    if (p.description) project.description = p.description;
    if (p.default_branch) project.default_branch = p.default_branch;
    if (p.topics?.length) project.topics = p.topics;
    if (p.forked_from_project) notes.push(`${where}: carried as a project of its own (the fork relation is not carried)`);
    const members = await optional(() => client.all<ApiMember>(`/projects/${p.id}/members`), `${where}: members`);
    if (members?.length) project.members = members.map(member);
    if (typeof p.creator_id === 'number') {
      const creator = await optional(() => client.get<UserRef>(`/users/${p.creator_id}`), `${where}: creator`);
      project.creator = mention(creator ?? undefined) ?? mention(me);
    } else project.creator = mention(me);

    // Labels and milestones of the project itself (its groups' come with the groups).
    const labels = (await optional(() => client.all<ApiLabel>(`/projects/${p.id}/labels?include_ancestor_groups=false`), `${where}: labels`)) ?? [];
    const own = labels.filter((l) => l.is_project_label !== false);
    if (own.length) project.labels = own.map(label);
    const milestones = ((await optional(() => client.all<ApiMilestone>(`/projects/${p.id}/milestones`), `${where}: milestones`)) ?? []).filter((m) => m.group_id === undefined);
    if (milestones.length) project.milestones = milestones.sort(byIid).map(milestone);

    // The repository, through git over HTTP.
    let branches = new Set<string>();
    let tags = new Set<string>();
    if (p.empty_repo !== true && p.repository_access_level !== 'disabled') {
      // The repository under --from (as GitLab's own http_url_to_repo is, on its external URL,
      // which a reader behind another name or port may not reach).
      const url = `${base}/${p.path_with_namespace.split('/').map(enc).join('/')}.git`;
      progress(`  cloning ${url}`);
      const repo = await crawlRepository({
        url, token: o.token, defaultBranch: p.default_branch ?? null, progress,
        authorOf: commitAuthor,
      });
      for (const n of repo.notes) notes.push(`${where}: ${n}`);
      if (repo.repository) {
        project.repository = repo.repository;
        await protections(p, project.repository);
      }
      branches = repo.branches;
      tags = repo.tags;
      stats.commits += repo.commits;
    }

    // Issues, in iid order, each with its notes.
    const projectNotes: NonNullable<FixtureProject['notes']> = [];
    const issues = ((await optional(() => client.all<ApiIssue>(`/projects/${p.id}/issues?scope=all&order_by=created_at&sort=asc`, `${where}: issues`), `${where}: issues`)) ?? []).sort((a, b) => a.iid - b.iid);
    if (issues.length) progress(`  ${issues.length} issues`);
    project.issues = [];
    for (const i of issues) {
      const issue: Writable<NonNullable<FixtureProject['issues']>[number]> = { iid: i.iid, title: i.title, state: i.state === 'closed' ? 'closed' : 'opened', created_at: i.created_at };
      const author = mention(i.author);
      if (author) issue.author = author;
      if (i.description) issue.description = i.description;
      const assignees = (i.assignees ?? []).map(mention).filter(isString);
      if (assignees.length) issue.assignees = assignees;
      if (i.labels?.length) issue.labels = i.labels;
      if (i.milestone) issue.milestone = i.milestone.title;
      if (i.confidential) issue.confidential = true;
      if (i.discussion_locked) issue.discussion_locked = true;
      if (i.due_date) issue.due_date = i.due_date;
      if (i.updated_at) issue.updated_at = i.updated_at;
      if (i.closed_at) issue.closed_at = i.closed_at;
      const closer = mention(i.closed_by);
      if (closer) issue.closed_by = closer;
      const type = (i.issue_type ?? i.type ?? 'issue').toLowerCase();
      if (type !== 'issue' && (ISSUE_TYPES as readonly string[]).includes(type)) issue.issue_type = type as (typeof ISSUE_TYPES)[number];
      if (typeof i.weight === 'number') issue.weight = i.weight;
      if (i.time_stats?.human_time_estimate) issue.time_estimate = i.time_stats.human_time_estimate;
      if (i.time_stats?.human_total_time_spent) issue.time_spent = i.time_stats.human_total_time_spent;
      project.issues.push(issue);
      stats.issues++;
      for (const n of await client.all<ApiNote>(`/projects/${p.id}/issues/${i.iid}/notes?sort=asc&order_by=created_at`)) projectNotes.push({ issue: i.iid, ...note(n) });
    }
    if (!project.issues.length) delete project.issues;

    // Merge requests: iids follow the fixture's order, so notes name the iid each will have.
    const mergeRequests = ((await optional(() => client.all<ApiMergeRequest>(`/projects/${p.id}/merge_requests?order_by=created_at&sort=asc`, `${where}: merge requests`), `${where}: merge requests`)) ?? []).sort((a, b) => a.iid - b.iid);
    if (mergeRequests.length) progress(`  ${mergeRequests.length} merge requests`);
    project.merge_requests = [];
    for (const m of mergeRequests) {
      if (m.source_project_id !== undefined && m.target_project_id !== undefined && m.source_project_id !== m.target_project_id) {
        notes.push(`${where}: merge request !${m.iid} not carried: its source branch is in another project (a fork)`);
        continue;
      }
      const missing = [m.source_branch, m.target_branch].filter((b) => !branches.has(b));
      if (missing.length) {
        notes.push(`${where}: merge request !${m.iid} not carried: branch${missing.length > 1 ? 'es' : ''} ${missing.map((b) => `'${b}'`).join(' and ')} not in the repository`);
        continue;
      }
      const mr: Writable<NonNullable<FixtureProject['merge_requests']>[number]> = { title: m.title, source_branch: m.source_branch, target_branch: m.target_branch, created_at: m.created_at };
      const author = mention(m.author);
      if (author) mr.author = author;
      if (m.description) mr.description = m.description;
      const assignees = (m.assignees ?? []).map(mention).filter(isString);
      if (assignees.length) mr.assignees = assignees;
      const reviewers = (m.reviewers ?? []).map(mention).filter(isString);
      if (reviewers.length) mr.reviewers = reviewers;
      if (m.labels?.length) mr.labels = m.labels;
      if (m.milestone) mr.milestone = m.milestone.title;
      if (m.state === 'closed' || m.state === 'merged') mr.state = m.state;
      else if (m.state === 'locked') notes.push(`${where}: merge request !${m.iid} was locked; carried as open`);
      project.merge_requests.push(mr);
      const iid = project.merge_requests.length;
      if (iid !== m.iid) notes.push(`${where}: merge request !${m.iid} becomes !${iid} (merge requests take iids in order)`);
      stats.mergeRequests++;
      for (const n of await client.all<ApiNote>(`/projects/${p.id}/merge_requests/${m.iid}/notes?sort=asc&order_by=created_at`)) projectNotes.push({ merge_request: iid, ...note(n) });
    }
    if (!project.merge_requests.length) delete project.merge_requests;
    if (projectNotes.length) project.notes = projectNotes;
    stats.notes += projectNotes.length;

    // Releases, oldest first, on the tags the repository carries.
    const releases = await optional(() => client.all<ApiRelease>(`/projects/${p.id}/releases?order_by=created_at&sort=asc`), `${where}: releases`);
    const fixtureReleases: NonNullable<FixtureProject['releases']> = [];
    for (const r of releases ?? []) {
      if (!tags.has(r.tag_name)) {
        notes.push(`${where}: release ${r.tag_name} not carried: its tag is not in the repository`);
        continue;
      }
      const release: Writable<(typeof fixtureReleases)[number]> = { tag_name: r.tag_name };
      if (r.name) release.name = r.name;
      if (r.description) release.description = r.description;
      if (r.created_at) release.created_at = r.created_at;
      if (r.released_at) release.released_at = r.released_at;
      const author = mention(r.author);
      if (author) release.author = author;
      if (r.milestones?.length) release.milestones = r.milestones.map((m) => m.title);
      const prefix = `${p.web_url}/-/releases/${enc(r.tag_name)}/downloads`;
      const links = (r.assets?.links ?? []).map((l) => ({
        name: l.name,
        url: l.url,
        ...(l.direct_asset_url?.startsWith(`${prefix}/`) ? { direct_asset_path: l.direct_asset_url.slice(prefix.length) } : {}),
        ...((LINK_TYPES as readonly string[]).includes(l.link_type ?? '') ? { link_type: l.link_type as (typeof LINK_TYPES)[number] } : {}),
      }));
      if (links.length) release.links = links;
      fixtureReleases.push(release);
    }
    if (fixtureReleases.length) project.releases = fixtureReleases;

    const variables = await optional(() => client.all<ApiVariable>(`/projects/${p.id}/variables`), `${where}: CI/CD variables`, true);
    if (variables?.length) project.variables = variables.map((v) => variable(v, where));
    return project;
  }

  /** Protected branches and tags: the first level of each kind (roles only; users and groups in them are not carried). */
  async function protections(p: ApiProject, repository: NonNullable<FixtureProject['repository']>): Promise<void> {
    const where = p.path_with_namespace;
    const level = (levels: { access_level: number }[] | undefined) => levels?.find((l) => typeof l.access_level === 'number')?.access_level;
    const branches = await optional(() => client.all<ApiProtection>(`/projects/${p.id}/protected_branches`), `${where}: protected branches`);
    for (const b of branches ?? []) {
      const push = level(b.push_access_levels);
      const merge = level(b.merge_access_levels);
      put((repository.protected_branches ??= {}), b.name, { ...(push !== undefined ? { push_access_level: push } : {}), ...(merge !== undefined ? { merge_access_level: merge } : {}) });
    }
    const tags = await optional(() => client.all<ApiProtection>(`/projects/${p.id}/protected_tags`), `${where}: protected tags`);
    for (const t of tags ?? []) {
      const create = level(t.create_access_levels);
      put((repository.protected_tags ??= {}), t.name, create !== undefined ? { create_access_level: create } : {});
    }
  }

  /** A user's profile, read once. */
  async function profile(ref: UserRef): Promise<ApiUser> {
    let u = profiles.get(ref.id);
    if (!u) {
      try {
        u = await client.get<ApiUser>(`/users/${ref.id}`);
      } catch (e) {
        if (!(e instanceof GitlabRequestError && (e.status === 404 || e.status === 403))) throw e;
        notes.push(`user ${ref.username}: profile not readable; carried with the name the records show`);
        u = ref;
      }
      profiles.set(ref.id, u);
    }
    return u;
  }

  /**
   * The user a git author is: one with that email (public, or any an administrator's token
   * sees), among the users met so far, else found by GitLab's user search; else the only user
   * of that name. None: the project's creator authors the commit.
   */
  async function commitAuthor(name: string, email: string): Promise<string | undefined> {
    const key = email.toLowerCase();
    const matches = (u: ApiUser) => [u.public_email, u.email].some((e) => !!e && e.toLowerCase() === key);
    if (key && !authors.has(key)) {
      let found: string | null = null;
      for (const ref of [...mentioned.values()]) {
        const u = await profile(ref);
        if (matches(u)) {
          found = u.username;
          break;
        }
      }
      if (found === null && key.includes('@')) {
        const hits = await optional(() => client.get<ApiUser[]>(`/users?search=${enc(email)}`), `user search for ${email}`, true);
        const hit = hits?.find(matches);
        if (hit) found = mention(hit) ?? null;
      }
      authors.set(key, found);
    }
    const byEmail = authors.get(key);
    if (byEmail) return byEmail;
    const named = [...profiles.values()].filter((u) => u.name === name);
    return named.length === 1 ? named[0]!.username : undefined;
  }

  function member(m: ApiMember): FixtureMember {
    mention(m);
    return {
      user: m.username,
      access_level: m.access_level,
      ...(m.expires_at ? { expires_at: m.expires_at } : {}),
      ...(m.membership_state === 'awaiting' ? { state: 'awaiting' as const } : {}),
    };
  }

  function note(n: ApiNote) {
    const author = mention(n.author);
    return {
      body: n.body,
      ...(author ? { author } : {}),
      ...(n.internal || n.confidential ? { internal: true } : {}),
      ...(n.system ? { system: true } : {}),
      created_at: n.created_at,
    };
  }

  function variable(v: ApiVariable, where: string): FixtureVariable {
    const out: Writable<FixtureVariable> = { key: v.key, value: v.value ?? '' };
    if (v.variable_type === 'file') out.variable_type = 'file';
    if (v.protected) out.protected = true;
    if (v.masked) out.masked = true;
    if (v.hidden) out.masked_and_hidden = true;
    if (v.raw) out.raw = true;
    if (v.environment_scope && v.environment_scope !== '*') out.environment_scope = v.environment_scope;
    if (v.description) out.description = v.description;
    if (v.hidden || v.masked || v.value === null) {
      // GitLab never returns a hidden variable's value; a masked one is a secret all the same.
      out.value = `IMPORT_PLACEHOLDER_${v.key}`;
      placeholders.push(`${where}: ${v.key}${v.environment_scope && v.environment_scope !== '*' ? ` (${v.environment_scope})` : ''}`);
    }
    return out;
  }

  /** A read that a token without enough access may be refused; the refusal is noted and the part left out. */
  async function optional<T>(read: () => Promise<T>, what: string, quiet = false): Promise<T | undefined> {
    try {
      return await read();
    } catch (e) {
      if (e instanceof GitlabRequestError && (e.status === 403 || e.status === 404)) {
        if (!quiet || e.status === 403) notes.push(`${what}: not carried (${e.status} for this token)`);
        return undefined;
      }
      throw e;
    }
  }
}

/** A mistake of the command or a refusal of the GitLab: a one-line message, exit 1. */
export class ImportError extends Error {}

function notFound(e: unknown, what: string): Error {
  if (e instanceof GitlabRequestError && (e.status === 404 || e.status === 403)) return new ImportError(`${what} not found, or not visible to this token (${e.status})`);
  return e instanceof Error ? e : new Error(String(e));
}

function isVisibility(v: string | undefined): v is 'private' | 'internal' | 'public' {
  return v === 'private' || v === 'internal' || v === 'public';
}

function isString(v: string | undefined): v is string {
  return v !== undefined;
}

function label(l: ApiLabel) {
  return { name: l.name, color: l.color, ...(l.description ? { description: l.description } : {}), ...(typeof l.priority === 'number' ? { priority: l.priority } : {}) };
}

/** Milestones in the order they were made (iids follow it). */
function byIid(a: ApiMilestone & { iid?: number }, b: ApiMilestone & { iid?: number }): number {
  return (a.iid ?? 0) - (b.iid ?? 0);
}

function milestone(m: ApiMilestone) {
  return {
    title: m.title,
    ...(m.description ? { description: m.description } : {}),
    state: m.state === 'closed' ? ('closed' as const) : ('active' as const),
    ...(m.due_date ? { due_date: m.due_date } : {}),
    ...(m.start_date ? { start_date: m.start_date } : {}),
  };
}
