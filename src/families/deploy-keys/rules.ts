// The deploy keys' model and services: DeployKey's validations (a key of a supported type,
// unique among all keys, a title), DeployKeysProject (a key enabled in a project),
// Projects::EnableDeployKeyService, the orphan rule on removal, and KeysFinder's lookups.
import { ACCESS, sequences, type Project, type User } from '../../store/state.js';
import { partition, pdel, pget, plist, pset, tdel, tget, tset, tvalues } from '../../store/table.js';
import { projectAccess } from '../../policy/access.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { invalidKey } from './errors.js';
import { keyBody, md5Fingerprint, sha256Fingerprint } from './fingerprint.js';
import type { DeployKey, DeployKeysProject } from './records.js';

/** Deploy keys are rows of the `keys` table: they take their ids from the users' SSH keys' sequence. */
const ids = sequences(['ssh_key', 'deploy_keys_project']);

type UserKey = State['sshKeys'] extends import('../../store/table.js').Partitioned<infer K> ? K : never;

export const findDeployKey = (state: State, id: number): DeployKey | undefined => tget(state.deployKeys, id);
export const allDeployKeys = (state: State): DeployKey[] => [...tvalues(state.deployKeys)];
export const deployKeysProjectsOf = (state: State, project: Project): DeployKeysProject[] => plist(state.deployKeysProjects, project.id);
export const joinOf = (state: State, project: Project, keyId: number): DeployKeysProject | undefined => pget(state.deployKeysProjects, project.id, keyId);

/** Every project a deploy key is enabled in, as its joins. */
export function joinsOfKey(state: State, keyId: number): DeployKeysProject[] {
  const out: DeployKeysProject[] = [];
  for (const owner of tvalues(state.deployKeysProjects)) {
    const j = tget(owner, keyId);
    if (j) out.push(j);
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The SHA-256 fingerprint of a user's SSH key, as Key#fingerprint_sha256 has it. */
export function userKeySha256(k: UserKey): string | undefined {
  const body = keyBody(k.key);
  return body && sha256Fingerprint(body);
}

function userKeyWithSha256(state: State, sha: string): UserKey | undefined {
  for (const owner of tvalues(state.sshKeys)) for (const k of tvalues(owner)) if (userKeySha256(k) === sha) return k;
  return undefined;
}

/** A deploy key's fields before it is saved: the key's fingerprints, or Key's validation errors (field names as `prefix` nests them). */
function newKeyFields(state: State, input: { key: string; title: string; expires_at?: number }, now: number, prefix: string) {
  const key = input.key.trim();
  const errors: Record<string, string[]> = {};
  const add = (field: string, text: string) => (errors[prefix + field] ??= []).push(text);
  if (input.title.trim() === '') add('title', "can't be blank");
  else if (input.title.length > 255) add('title', 'is too long (maximum is 255 characters)');
  const body = keyBody(key);
  let sha = '';
  let md5 = '';
  if (key.length > 5000) add('key', 'is too long (maximum is 5000 characters)');
  if (!body) {
    add('key', 'type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK');
    add('fingerprint_sha256', 'cannot be generated');
  } else {
    sha = sha256Fingerprint(body);
    md5 = md5Fingerprint(body);
    const taken = [...tvalues(state.deployKeys)].some((k) => k.fingerprintSha256 === sha) || userKeyWithSha256(state, sha) !== undefined;
    if (taken) add('fingerprint_sha256', 'has already been taken');
  }
  if (input.expires_at !== undefined && input.expires_at <= now) add('key', 'has expired');
  if (Object.keys(errors).length) throw invalidKey(errors);
  return { key, sha, md5 };
}

/** DeployKeys::CreateService with `public: true`: an administrator's instance key. */
export function createInstanceKey(state: State, user: User, input: { key: string; title: string; expires_at?: number }, now: number): Change<DeployKey> {
  const { key, sha, md5 } = newKeyFields(state, input, now, '');
  return (draft) => {
    const made: DeployKey = {
      id: ids.next(draft, 'ssh_key'), userId: user.id, title: input.title, key, fingerprint: md5, fingerprintSha256: sha,
      public: true, createdAt: now, updatedAt: now, expiresAt: input.expires_at ?? null,
    };
    tset((draft as State).deployKeys, made.id, made);
    return made;
  };
}

function join(draft: State, project: Project, keyId: number, canPush: boolean, now: number): DeployKeysProject {
  const made: DeployKeysProject = { id: ids.next(draft, 'deploy_keys_project'), deployKeyId: keyId, projectId: project.id, canPush, createdAt: now, updatedAt: now };
  pset(draft.deployKeysProjects, project.id, keyId, made);
  return made;
}

/**
 * User#accessible_deploy_keys: the public keys, and the keys of the projects the user
 * maintains; an administrator reaches every key (EnableDeployKeyService).
 */
export function accessibleKey(state: State, user: User, keyId: number, now: number, adminReach = true): DeployKey | undefined {
  const key = findDeployKey(state, keyId);
  if (!key) return undefined;
  if (key.public || (adminReach && user.admin)) return key;
  const reaches = joinsOfKey(state, keyId).some((j) => {
    const p = tget(state.projects, j.projectId);
    return p !== undefined && projectAccess(state, user, p, now) >= ACCESS.maintainer;
  });
  return reaches ? key : undefined;
}

/**
 * POST /projects/:id/deploy_keys: the key already in the project as it is; an accessible key
 * of another project joined; else a new key, made and joined at once.
 */
export function addProjectKey(
  state: State, user: User, project: Project, input: { key: string; title: string; can_push?: boolean; expires_at?: number }, now: number,
): Change<DeployKeysProject> {
  const key = input.key.trim();
  const canPush = input.can_push === true;
  for (const j of deployKeysProjectsOf(state, project)) if (findDeployKey(state, j.deployKeyId)?.key === key) return () => j;
  const existing = [...tvalues(state.deployKeys)].find((k) => k.key === key && accessibleKey(state, user, k.id, now, false));
  if (existing) return (draft) => join(draft as State, project, existing.id, canPush, now);
  const fields = newKeyFields(state, input, now, 'deploy_key.');
  return (draft) => {
    const made: DeployKey = {
      id: ids.next(draft, 'ssh_key'), userId: user.id, title: input.title, key: fields.key, fingerprint: fields.md5, fingerprintSha256: fields.sha,
      public: false, createdAt: now, updatedAt: now, expiresAt: input.expires_at ?? null,
    };
    tset((draft as State).deployKeys, made.id, made);
    return join(draft as State, project, made.id, canPush, now);
  };
}

/** Projects::EnableDeployKeyService: joins the key unless it is there already. */
export function enableKey(project: Project, key: DeployKey, already: boolean, now: number): Change<DeployKey> {
  return (draft) => {
    if (!already) join(draft as State, project, key.id, false, now);
    return key;
  };
}

/** PUT: `can_push` on the join; the title where the caller may change it (the key's owner, or an administrator, for a key not public). */
export function updateProjectKey(state: State, user: User, j: DeployKeysProject, input: { title?: string; can_push?: boolean }, now: number): Change<DeployKeysProject> {
  const key = findDeployKey(state, j.deployKeyId)!;
  const mayRetitle = !key.public && (user.admin || key.userId === user.id || joinsOfKey(state, key.id).length === 1);
  if (input.title !== undefined && mayRetitle) {
    if (input.title.trim() === '') throw invalidKey({ 'deploy_key.title': ["can't be blank"] });
    if (input.title.length > 255) throw invalidKey({ 'deploy_key.title': ['is too long (maximum is 255 characters)'] });
  }
  return (draft) => {
    const s = draft as State;
    if (input.title !== undefined && mayRetitle) {
      const k = tget(s.deployKeys, key.id)!;
      k.title = input.title;
      k.updatedAt = now;
    }
    const row = pget(s.deployKeysProjects, j.projectId, j.deployKeyId)!;
    if (input.can_push !== undefined) row.canPush = input.can_push;
    row.updatedAt = now;
    return plain(row);
  };
}

/** May the caller change this join (update_deploy_key or update_deploy_keys_project)? */
export function canUpdateProjectKey(state: State, user: User, project: Project, now: number): boolean {
  return user.admin || projectAccess(state, user, project, now) >= ACCESS.maintainer;
}

/** DeployKeysProject#destroy, and then the key itself when no project has it any more and it is not public. */
export function removeJoin(draft: State, projectId: number, keyId: number): void {
  pdel(draft.deployKeysProjects, projectId, keyId);
  const key = tget(draft.deployKeys, keyId);
  if (key && !key.public && joinsOfKey(draft, keyId).length === 0) tdel(draft.deployKeys, keyId);
}

export const disableKey = (j: DeployKeysProject): Change => (draft) => removeJoin(draft as State, j.projectId, j.deployKeyId);

/** What a deleted project leaves: its joins go, and the keys only it had. */
export function forgetProject(draft: State, projectId: number): void {
  for (const j of [...tvalues(partition(draft.deployKeysProjects, projectId))]) removeJoin(draft, projectId, j.deployKeyId);
  tdel(draft.deployKeysProjects, projectId);
}

/** KeysFinder: `SHA256:<base64>` or a colon-separated MD5; anything else is InvalidFingerprint. */
export type KeyFound = { kind: 'deploy'; key: DeployKey } | { kind: 'user'; key: UserKey };

export function findKeyByFingerprint(state: State, fingerprint: string): KeyFound | undefined | 'invalid' {
  let match: (sha: string, md5: string) => boolean;
  if (fingerprint.startsWith('SHA256:')) {
    const want = fingerprint.slice(7);
    match = (sha) => sha === want;
  } else if (/^(?:[0-9a-f]{2}:){15}[0-9a-f]{2}$/i.test(fingerprint)) {
    const want = fingerprint.toLowerCase();
    match = (_, md5) => md5 === want;
  } else return 'invalid';
  for (const k of tvalues(state.deployKeys)) if (match(k.fingerprintSha256, k.fingerprint)) return { kind: 'deploy', key: k };
  for (const owner of tvalues(state.sshKeys))
    for (const k of tvalues(owner)) {
      const body = keyBody(k.key);
      if (body && match(sha256Fingerprint(body), md5Fingerprint(body))) return { kind: 'user', key: k };
    }
  return undefined;
}

/** Key.find: a user's SSH key or a deploy key, by id. */
export function findKeyById(state: State, id: number): KeyFound | undefined {
  const d = findDeployKey(state, id);
  if (d) return { kind: 'deploy', key: d };
  for (const owner of tvalues(state.sshKeys)) {
    const k = tget(owner, id);
    if (k) return { kind: 'user', key: k };
  }
  return undefined;
}
