// Repositories of a fixture: git objects are written first, each repository's to a storage of
// its own, then one change sets every seeded project's refs and storage.
import { hash53 } from '../../core/hash.js';
import type { Infer } from '../../core/schema.js';
import { accessLevel } from '../../policy/access.js';
import { fromBase64, lfsPointer, sha256Hex, utf8 } from '../../git/bytes.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { entryAt } from '../../git/tree.js';
import { ApiError, EmulatorError } from '../../core/errors.js';
import type { Project } from '../../store/state.js';
import { tget, tset } from '../../store/table.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { findUserByUsername } from '../users/index.js';
import type { State } from '../world.js';
import { personOf, writeAnnotatedTag, writeFileCommit, type FileAction, type Person } from './commit-service.js';
import { emptyRepository, type Repository, type TagRef, type X509Signature } from './records.js';
import { isValidBranchName, resolveCommit } from './rules.js';
import { branchTip, setBranchRef, setLfsObject, setProtectedBranch, setProtectedTag, setTagRef } from './refs.js';
import { numberProtections } from './protections.js';
import type { commitSchema, repositoryProjectSchema, repositorySchema, signatureSchema, tagSchema } from './schema.js';

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
export type FixtureRepository = Infer<typeof repositorySchema>;

export type FixtureTag = Infer<typeof tagSchema>;

/** An X.509 tag signature as GitLab stores it; every field has a plausible default. */
export type FixtureX509Signature = Infer<typeof signatureSchema>;

export type FixtureCommit = Infer<typeof commitSchema>;

export type FixtureRepositoryPart = Infer<typeof repositoryProjectSchema>;

interface Built {
  projectId: number;
  defaultBranch: string;
  repository: Repository;
}

function failure(where: string, e: unknown): never {
  if (e instanceof ApiError) {
    const body = e.body as { message?: unknown };
    throw new EmulatorError(`${where}: ${typeof body?.message === 'string' ? body.message : e.message}`);
  }
  throw e;
}

async function build(repo: RepositoryObjects, state: State, project: Project, f: FixtureRepositoryPart & { path: string; namespace: string }, now: number): Promise<Built> {
  const fr = f.repository!;
  const where = projectWhere(f);
  const creator = tget(state.users, project.creatorId);
  if (!creator) throw new EmulatorError(`${where} has no creator to author its commits`);
  const defaultBranch = fr.default_branch ?? project.defaultBranch ?? 'main';
  const repository: Repository = emptyRepository();
  const view = () => ({ project: { ...project, defaultBranch }, refs: repository });
  const personNamed = (username: string | undefined): Person => {
    if (!username) return personOf(creator);
    const u = findUserByUsername(state, username);
    if (!u) throw new EmulatorError(`${where} names unknown commit author '${username}'`);
    return personOf(u);
  };
  const resolve = async (ref: string, what: string) => {
    const sha = await resolveCommit(repo, view(), ref);
    if (!sha) throw new EmulatorError(`${where}: ${what} names unknown ref '${ref}'`);
    return sha;
  };

  const initial: FileAction[] = Object.entries(fr.files ?? {}).map(([path, text]) => ({ action: 'create', path, content: utf8(text) }));
  for (const [path, b64] of Object.entries(fr.lfs ?? {})) {
    const bytes = fromBase64(b64);
    const oid = await sha256Hex(bytes);
    setLfsObject(repository, oid, await repo.writeBlob(bytes));
    initial.push({ action: 'create', path, content: utf8(lfsPointer(oid, bytes.length)) });
  }
  if (initial.length > 0) {
    const who = personOf(creator);
    try {
      setBranchRef(repository, defaultBranch, await writeFileCommit(repo, null, { message: 'Initial commit', author: who, committer: who, now, actions: initial }));
    } catch (e) {
      failure(`${where}: initial files`, e);
    }
  }

  for (const [name, ref] of Object.entries(fr.branches ?? {})) {
    if (!isValidBranchName(name)) throw new EmulatorError(`${where}: '${name}' is not a valid branch name`);
    setBranchRef(repository, name, await resolve(ref, `branch '${name}'`));
  }

  for (const [i, c] of (fr.commits ?? []).entries()) {
    const branch = c.branch ?? defaultBranch;
    if (!isValidBranchName(branch)) throw new EmulatorError(`${where}: '${branch}' is not a valid branch name`);
    const base = branchTip(repository, branch) ?? (c.start_branch ? await resolve(c.start_branch, `commit ${i + 1}`) : branchTip(repository, defaultBranch) ?? null);
    const tree = base ? (await repo.readCommit(base)).tree : null;
    const exists = async (path: string) => !!tree && !!(await entryAt(repo, tree, path));
    const actions: FileAction[] = [];
    const contents: [string, Uint8Array | null][] = [
      ...Object.entries(c.files ?? {}).map(([p, t]): [string, Uint8Array | null] => [p, t === null ? null : utf8(t)]),
      ...Object.entries(c.base64 ?? {}).map(([p, b]): [string, Uint8Array] => [p, fromBase64(b)]),
    ];
    for (const [path, content] of contents) {
      const present = await exists(path);
      if (content === null) actions.push({ action: 'delete', path });
      else actions.push({ action: present ? 'update' : 'create', path, content, executable: c.executable?.includes(path) || undefined });
    }
    for (const path of c.executable ?? []) {
      if (contents.some(([p]) => p === path)) continue;
      const e = tree ? await entryAt(repo, tree, path) : null;
      if (!e || e.type !== 'blob') throw new EmulatorError(`${where}: commit ${i + 1} makes missing file '${path}' executable`);
      actions.push({ action: 'update', path, content: await repo.readBlob(e.oid), executable: true });
    }
    const when = c.date === undefined ? now : Date.parse(c.date);
    if (!Number.isFinite(when)) throw new EmulatorError(`${where}: commit ${i + 1} has an invalid date '${c.date}'`);
    const who = personNamed(c.author);
    try {
      setBranchRef(repository, branch, await writeFileCommit(repo, base, { message: c.message, author: who, committer: who, now: when, actions }, { allowEmpty: true }));
    } catch (e) {
      failure(`${where}: commit ${i + 1} ('${c.message}')`, e);
    }
  }

  for (const [name, spec] of Object.entries(fr.tags ?? {})) {
    if (!isValidBranchName(name)) throw new EmulatorError(`${where}: '${name}' is not a valid tag name`);
    const ref = typeof spec === 'string' ? spec : spec.ref;
    const commit = await resolve(ref, `tag '${name}'`);
    let tag: TagRef = { target: commit, commit, message: null };
    if (typeof spec !== 'string') {
      const message = spec.message.trim();
      tag = { target: await writeAnnotatedTag(repo, name, commit, message, creator, now), commit, message };
      if (spec.signature) tag.signature = signature(spec.signature, creator.email);
    }
    setTagRef(repository, name, tag);
  }

  for (const [pattern, p] of Object.entries(fr.protected_branches ?? {})) {
    setProtectedBranch(repository, pattern, {
      pushAccessLevel: accessLevel(p.push_access_level ?? 'maintainer'),
      mergeAccessLevel: accessLevel(p.merge_access_level ?? 'maintainer'),
    });
  }
  for (const [pattern, p] of Object.entries(fr.protected_tags ?? {})) {
    setProtectedTag(repository, pattern, { createAccessLevel: accessLevel(p.create_access_level ?? 'maintainer') });
  }
  return { projectId: project.id, defaultBranch, repository };
}

/** The X.509 record of a signed tag; ids are fixed per certificate subject, like GitLab's rows. */
function signature(f: FixtureX509Signature, email: string): X509Signature {
  const c = f.certificate ?? {};
  const i = c.issuer ?? {};
  const id = (text: string) => Number.parseInt(hash53(text).slice(-6), 16);
  const keyId = (text: string) => [0, 1, 2].map((n) => hash53(`${n}:${text}`)).join('').slice(0, 40).toUpperCase().match(/../g)!.join(':');
  const subject = c.subject ?? `CN=${email},O=Example`;
  const issuerSubject = i.subject ?? 'CN=Example Issuing CA,O=Example';
  return {
    verificationStatus: f.verification_status ?? 'verified',
    certificate: {
      id: id(subject),
      subject,
      subjectKeyIdentifier: c.subject_key_identifier ?? keyId(subject),
      email: c.email ?? email,
      serialNumber: c.serial_number ?? id(`serial:${subject}`),
      certificateStatus: c.certificate_status ?? 'good',
      issuer: { id: id(issuerSubject), subject: issuerSubject, subjectKeyIdentifier: i.subject_key_identifier ?? keyId(issuerSubject), crlUrl: i.crl_url ?? 'http://crl.example.com/issuing-ca.crl' },
    },
  };
}


/** Writes the objects of every fixture repository, then sets their refs in one change. */
export async function seedRepositories(s: SeedRun): Promise<void> {
  const built: Built[] = [];
  for (const f of s.fixture.projects ?? []) {
    if (!f.repository) continue;
    const id = s.handles.projects[fixtureProjectPath(f)]?.id;
    const project = id === undefined ? undefined : tget(s.state.projects, id);
    if (!project) continue;
    // Written straight to a new storage: if the seed fails, no world ever records it.
    const storage = s.git.allocate();
    const objects = s.git.storage(storage);
    const b = await build(objects, s.state, project, f, s.now);
    b.repository.storage = storage;
    b.repository.seen = objects.store.count;
    built.push(b);
  }
  if (built.length === 0) return;
  s.update((draft) => {
    for (const b of built) {
      tset(draft.repositories, b.projectId, b.repository);
      numberProtections(draft as State, tget(draft.repositories, b.projectId)!);
      tget(draft.projects, b.projectId)!.defaultBranch = b.defaultBranch;
    }
  });
}
