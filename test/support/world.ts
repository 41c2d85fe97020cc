// What the behaviour tests share: a cast of users, one per role, and requests to the REST API
// through `emulator.handle`.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  createEmulator,
  type Emulator,
  type Fixture,
  type FixtureMember,
  type FixtureProject,
  type FixtureToken,
  type FixtureUser,
  type Snapshot,
} from '../../src/index.js';
import type { Draft } from 'immer';
import type { Project, Repository } from '../../src/index.js';
import type { Job } from '../../src/index.js';
import type { Milestone } from '../../src/families/milestones/index.js';
import type { Release } from '../../src/families/releases/index.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../src/policy/paths.js';
import { pget, plist, tget } from '../../src/store/table.js';
import { addTask, pendingTasks as schedulerPending } from '../../src/store/scheduler.js';
import type { Task } from '../../src/store/state.js';
import { membershipOf } from '../../src/store/members.js';
import type { Member } from '../../src/store/state.js';
import { snippetById, snippetHead, snippetRepoKey } from '../../src/families/snippets/index.js';
import { listFiles } from '../../src/git/tree.js';
import { noteKey, noteList, type Note } from '../../src/store/notes.js';
import type { NoteableType } from '../../src/families/world.js';
import { interpretNoteCommands, type NoteCommands } from '../../src/families/issuables/index.js';
import { epicByIid } from '../../src/families/epics/index.js';
import { issueByIid, type Issue } from '../../src/families/issues/index.js';
import type { Issuable } from '../../src/families/notes/index.js';

export const ORIGIN = 'https://gitlab.example.com';

const user = (username: string, name: string, token: string, extra: Partial<FixtureUser> = {}): FixtureUser => ({
  username,
  name,
  email: `${username}@example.com`,
  tokens: [{ token, scopes: ['api'] }],
  ...extra,
});

/** An administrator, one user per project role and an outsider; each signs in with the token named after it. */
export const TEAM: FixtureUser[] = [
  user('root', 'Administrator', 'root-token', { admin: true }),
  user('mai', 'Mai Ntainer', 'maintainer-token'),
  user('dev', 'Dee Veloper', 'dev-token'),
  user('rep', 'Rep Orter', 'reporter-token'),
  user('gus', 'Gus Guest', 'guest-token'),
  user('out', 'Out Sider', 'outsider-token'),
];

/** TEAM as members of a project or group: maintainer, developer, reporter and guest. */
export const TEAM_MEMBERS: FixtureMember[] = [
  { user: 'mai', access_level: 'maintainer' },
  { user: 'dev', access_level: 'developer' },
  { user: 'rep', access_level: 'reporter' },
  { user: 'gus', access_level: 'guest' },
];

/** TEAM, with more tokens for one of its users. */
export function teamWithTokens(username: string, tokens: FixtureToken[]): FixtureUser[] {
  return TEAM.map((u) => (u.username === username ? { ...u, tokens: [...(u.tokens ?? []), ...tokens] } : u));
}

/** The public group `acme` most behaviour tests put their projects in. */
export const ACME = { path: 'acme', visibility: 'public' } as const;

/** The project most behaviour tests use: `acme/app`, private, made by root, TEAM as its members. */
export function teamProject(extra: Partial<FixtureProject> = {}): FixtureProject {
  return { namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, ...extra };
}

/** TEAM in `acme`, and `acme/app` (teamProject) with a README, a `feature` branch, issue #1 by dev and merge request !1 from `feature`. */
export const ISSUE_AND_MR: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    issues: [{ title: 'First issue', author: 'dev' }],
    merge_requests: [{ title: 'Change', author: 'dev', source_branch: 'feature' }],
  })],
};

export interface CallInit extends RequestInit {
  token?: string;
  json?: unknown;
}

/** `apiCall`'s answer as the behaviour tests read it: its status, and its body parsed (null when empty). */
export async function jsonCall(emulator: Emulator, path: string, init: CallInit = {}): Promise<{ status: number; body: any }> {
  const res = await apiCall(emulator, path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A request to `/api/v4<path>` through `emulator.handle`, with a PRIVATE-TOKEN and a JSON body. */
export function apiCall(emulator: Emulator, path: string, init: CallInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('PRIVATE-TOKEN', init.token);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return emulator.handle(new Request(`${ORIGIN}/api/v4${path}`, { ...init, headers, body }));
}

/** One world per test file: seeded once, restored (clock included) before each test. */
export function seededWorld(fixture: Fixture, now: string): () => Emulator {
  let emulator: Emulator;
  let seeded: Snapshot;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now, frozen: true } });
    seeded = emulator.snapshot();
  });
  beforeEach(() => {
    emulator.restore(seeded);
    emulator.clock.set(now);
  });
  return () => emulator;
}

// Reaching into the world, for the few tests that must set up what the API cannot: through
// these accessors, never through the store's layout.


/** An emulator seeded with `fixture` and served on a free port for the whole file (made before all tests, closed after). */
export function servedWorld(fixture: Fixture): { readonly emulator: Emulator; readonly url: string } {
  let emulator: Emulator | undefined;
  let server: Awaited<ReturnType<Emulator['listen']>> | undefined;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture });
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get emulator() {
      return emulator!;
    },
    get url() {
      return server!.url;
    },
  };
}
/** A project or namespace id by full path. */
export function idOf(emulator: Emulator, fullPath: string): number {
  const found = projectByIdOrPath(emulator.state, fullPath) ?? namespaceByIdOrPath(emulator.state, fullPath);
  if (!found) throw new Error(`no project or namespace '${fullPath}'`);
  return found.id;
}

export function projectRecord(emulator: Emulator, fullPath: string): Project {
  const p = projectByIdOrPath(emulator.state, fullPath);
  if (!p) throw new Error(`no project '${fullPath}'`);
  return p;
}

/** Changes a project's record directly. */
export function updateProject(emulator: Emulator, fullPath: string, change: (project: Draft<Project>) => void): void {
  const id = projectRecord(emulator, fullPath).id;
  emulator.store.update((d) => change(tget(d.projects, id)!));
}

/** Changes the refs of a project's repository directly. */
export function updateRefs(emulator: Emulator, fullPath: string, change: (refs: Draft<Repository>) => void): void {
  const id = projectRecord(emulator, fullPath).id;
  emulator.store.update((d) => change(tget(d.repositories, id)!));
}

/** A user's direct membership of a project or group (by full path), expired or not. */
export function membershipRecord(emulator: Emulator, fullPath: string, username: string): Member | undefined {
  const source = projectByIdOrPath(emulator.state, fullPath) ?? namespaceByIdOrPath(emulator.state, fullPath);
  const userId = tget(emulator.state.usernames, username.toLowerCase());
  if (!source || userId === undefined) throw new Error(`no source '${fullPath}' or user '${username}'`);
  return membershipOf(emulator.state, source, userId);
}

export function releaseRecord(emulator: Emulator, fullPath: string, tagName: string): Release {
  const r = pget(emulator.state.releases, projectRecord(emulator, fullPath).id, tagName);
  if (!r) throw new Error(`no release '${tagName}' in '${fullPath}'`);
  return r;
}

/** The first CI job of a project with that name (the one a fixture made first). */
export function projectJob(emulator: Emulator, fullPath: string, name: string): Job {
  const ids = plist(emulator.state.projectJobs, projectRecord(emulator, fullPath).id);
  for (const id of ids) {
    const job = tget(emulator.state.jobs, id);
    if (job?.name === name) return job;
  }
  throw new Error(`no job '${name}' in '${fullPath}'`);
}

export function projectMilestones(emulator: Emulator, fullPath: string): Milestone[] {
  return plist(emulator.state.projectMilestones, projectRecord(emulator, fullPath).id);
}

/** The world's pending timed work, earliest first. */
export function pendingTasks(emulator: Emulator): Task[] {
  return schedulerPending(emulator.state);
}

/** Adds a task to the world as a family's `schedule` would. */
export function scheduleTask(emulator: Emulator, task: Task): void {
  emulator.store.update((draft) => addTask(draft, task));
}

/** The smallest world the core and control tests use: root, alice (owner of the public acme group) and acme/website. */
export const SMALL_WORLD: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'alice', tokens: [{ token: 'alice-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [{ namespace: 'acme', path: 'website', visibility: 'public' }],
};

/** The head commit of a project's or group's wiki (by full path), with its message and author, or null for a wiki with none. */
export async function wikiHeadCommit(
  emulator: Emulator,
  kind: 'project' | 'group',
  fullPath: string,
): Promise<{ sha: string; message: string; author: { name: string; email: string }; parents: string[] } | null> {
  const id = idOf(emulator, fullPath);
  const wiki = tget(kind === 'project' ? emulator.state.projectWikis : emulator.state.groupWikis, id);
  if (!wiki) return null;
  const c = await emulator.objects.repositoryIn(emulator.state, kind === 'project' ? id : -id).readCommit(wiki.head);
  return { sha: wiki.head, message: c.message, author: { name: c.author.name, email: c.author.email }, parents: c.parents };
}

/**
 * A snippet's repository as a clone would see it: each commit of its branch, newest first, with
 * its message, author and files (path -> content). Empty for a snippet that does not exist.
 */
export async function snippetHistory(
  emulator: Emulator,
  snippetId: number,
): Promise<{ sha: string; message: string; author: { name: string; email: string }; parents: string[]; files: Record<string, string> }[]> {
  const s = snippetById(emulator.state, snippetId);
  const head = s && snippetHead(emulator.state, s);
  if (!head) return [];
  const repo = emulator.objects.repositoryIn(emulator.state, snippetRepoKey(snippetId));
  const out = [];
  for (let sha: string | undefined = head; sha; ) {
    const c = await repo.readCommit(sha);
    const files: Record<string, string> = Object.create(null);
    for (const [path, e] of await listFiles(repo, c.tree)) files[path] = new TextDecoder().decode(await repo.readBlob(e.oid));
    out.push({ sha, message: c.message, author: { name: c.author.name, email: c.author.email }, parents: c.parents, files });
    sha = c.parents[0];
  }
  return out;
}

/** The notes (comments and system notes) of an issue, merge request or epic (by global id), oldest first. */
export function notesOf(emulator: Emulator, type: NoteableType, id: number): readonly Note[] {
  return noteList(emulator.state, noteKey(type, id));
}

/** An issue's record by its project's path and its iid. */
export function issueRecord(emulator: Emulator, fullPath: string, iid: number): Issue {
  const issue = issueByIid(emulator.state, projectRecord(emulator, fullPath).id, iid);
  if (!issue) throw new Error(`no issue #${iid} in '${fullPath}'`);
  return issue;
}

/**
 * Runs a note's quick actions on an issue or merge request as a note's creation does
 * (interpret, prepare, then apply in one change of the world, the comment itself not saved):
 * what the notes routes build on.
 */
export async function runNoteCommands(
  emulator: Emulator, fullPath: string, on: { issue: number } | { mergeRequest: number }, username: string, body: string, mergeRequestDiffHeadSha?: string,
): Promise<NoteCommands> {
  const project = projectRecord(emulator, fullPath);
  const userId = tget(emulator.state.usernames, username.toLowerCase());
  const user = userId === undefined ? undefined : tget(emulator.state.users, userId);
  if (!user) throw new Error(`no user '${username}'`);
  let target: Issuable;
  if ('issue' in on) target = { type: 'Issue', issue: issueRecord(emulator, fullPath, on.issue), project };
  else {
    const mr = pget(emulator.state.mergeRequests, project.id, on.mergeRequest);
    if (!mr) throw new Error(`no merge request !${on.mergeRequest} in '${fullPath}'`);
    target = { type: 'MergeRequest', mr, project };
  }
  const result = interpretNoteCommands(emulator.state, target, user, body, { webBase: ORIGIN, mergeRequestDiffHeadSha }, emulator.clock.now());
  if (result.prepare) {
    await result.prepare({ db: emulator.objects, state: emulator.state, webBase: ORIGIN, update: (recipe) => emulator.store.update(recipe), current: () => emulator.state });
  }
  if (result.apply) emulator.store.update((draft) => result.apply!(draft, null));
  return result;
}

/** Runs a note's quick actions on an epic (by its group's path and iid), as `runNoteCommands` does for issues. */
export function runEpicNoteCommands(emulator: Emulator, groupPath: string, iid: number, username: string, body: string): NoteCommands {
  const group = namespaceByIdOrPath(emulator.state, groupPath);
  const epic = group ? epicByIid(emulator.state, group.id, iid) : undefined;
  const userId = tget(emulator.state.usernames, username.toLowerCase());
  const user = userId === undefined ? undefined : tget(emulator.state.users, userId);
  if (!group || !epic || !user) throw new Error(`no epic &${iid} in '${groupPath}' or no user '${username}'`);
  const result = interpretNoteCommands(emulator.state, { type: 'Epic', epic, group }, user, body, { webBase: ORIGIN }, emulator.clock.now());
  if (result.apply) emulator.store.update((draft) => result.apply!(draft, null));
  return result;
}
