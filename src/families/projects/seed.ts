// The projects of a fixture, with their members, project access tokens, CI jobs (and their
// job tokens) and job-token allowlist. Families that keep more per project seed it after this.
import { EmulatorError, invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { accessLevel } from '../../policy/access.js';
import { createJob } from '../ci/index.js';
import { tget, tvalues } from '../../store/table.js';
import { membersOf, setMembership } from '../../store/members.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { createToken, createUser, fixtureMembers, fixtureUserId } from '../users/index.js';
import type { State } from '../world.js';
import { createProject, normalizeProjectInput, validateProject } from './rules.js';
import type { jobSchema, projectSchema } from './schema.js';

/** A CI job of a fixture's project, with its job token. */
export type FixtureJob = Infer<typeof jobSchema>;

/** A project of a fixture: its own keys (each family adds its part to `FixtureProject`). */
export type FixtureProjectPart = Infer<typeof projectSchema>;

export function seedProjects(s: SeedRun): void {
  if (!s.fixture.projects?.length) return;
  s.update((draft) => {
    for (const p of s.fixture.projects ?? []) s.handles.projects[fixtureProjectPath(p)] = seedProject(draft, p, s.now);
  });
}

function seedProject(draft: State, p: FixtureProjectPart, now: number) {
  const where = projectWhere(p);
  const entry = tget(draft.paths, p.namespace.toLowerCase());
  const ns = entry?.kind === 'namespace' ? tget(draft.namespaces, entry.id) : undefined;
  if (!ns) throw new EmulatorError(`${where} names unknown namespace '${p.namespace}'`);
  const creatorId = p.creator
    ? fixtureUserId(draft, p.creator, where)
    : ns.ownerId ?? membersOf(draft, ns).next().value?.userId ?? firstAdmin(draft, where);
  const input = normalizeProjectInput({
    name: p.name, path: p.path, namespaceId: ns.id, creatorId, visibility: p.visibility, description: p.description,
    defaultBranch: p.default_branch, topics: p.topics,
  });
  const errors = validateProject(draft, input);
  if (Object.keys(errors).length) throw invalidFixture(where, errors);
  const project = createProject(draft, input, now);
  for (const m of fixtureMembers(draft, p.members, now, where)) setMembership(draft, project, m);
  const handle = { id: project.id, tokens: [] as string[], jobs: {} as Record<string, { id: number; token: string }> };
  for (const [i, t] of (p.tokens ?? []).entries()) {
    const bot = createUser(draft, { username: `project_${project.id}_bot_${i + 1}`, name: t.name ?? `${project.name} bot`, bot: true }, now);
    const level = accessLevel(t.access_level ?? 'maintainer');
    setMembership(draft, project, { userId: bot.id, accessLevel: level, createdAt: now, createdById: null, expiresAt: null });
    handle.tokens.push(createToken(draft, bot.id, { ...t, kind: 'project' }, now).token);
  }
  for (const j of p.jobs ?? []) {
    const status = j.status ?? 'running';
    const job = createJob(draft, { projectId: project.id, name: j.name, status, userId: fixtureUserId(draft, j.user, where), ref: j.ref ?? 'main', ...(status === 'running' ? { startedAt: now } : {}) }, now);
    const token = createToken(draft, job.userId, { kind: 'job', token: j.token, projectId: project.id, jobId: job.id, name: j.name }, now);
    handle.jobs[j.name] = { id: job.id, token: token.token };
  }
  for (const path of p.job_token_allowlist ?? []) {
    const e = tget(draft.paths, path.toLowerCase());
    if (e?.kind !== 'project') throw new EmulatorError(`${where} allows job tokens of unknown project '${path}'`);
    project.jobTokenAllowlist.push(e.id);
  }
  return handle;
}

function firstAdmin(state: State, where: string): number {
  for (const u of tvalues(state.users)) if (u.admin) return u.id;
  throw new EmulatorError(`${where} needs a creator: name one, or seed an administrator`);
}
