// lib/api/entities/ssh_key.rb, deploy_key.rb, deploy_keys_project.rb, ssh_key_with_user.rb,
// deploy_key_with_user.rb.
import { iso } from '../../render/time.js';
import { tget } from '../../store/table.js';
import { projectIdentity, type ProjectView } from '../projects/index.js';
import { userPublic } from '../users/index.js';
import type { State } from '../world.js';
import type { DeployKey, DeployKeysProject } from './records.js';
import { joinsOfKey, type KeyFound } from './rules.js';

/** DeployKey: SSHKey's fields, the key and its fingerprints; with the projects it opens for the instance list. */
export function deployKeyEntity(k: DeployKey, v?: ProjectView) {
  const base = {
    id: k.id,
    title: k.title,
    created_at: iso(k.createdAt),
    expires_at: iso(k.expiresAt),
    key: k.key,
    usage_type: 'auth_and_signing',
    fingerprint: k.fingerprint,
    fingerprint_sha256: `SHA256:${k.fingerprintSha256}`,
  };
  if (!v) return base;
  const projectsOf = (write: boolean) =>
    joinsOfKey(v.state, k.id)
      .filter((j) => j.canPush === write)
      .map((j) => tget(v.state.projects, j.projectId))
      .filter((p) => p !== undefined)
      .map((p) => projectIdentity(v, p));
  return { ...base, projects_with_write_access: projectsOf(true), projects_with_readonly_access: projectsOf(false) };
}

/** DeployKeysProject: the key merged with the join's `can_push`. */
export function deployKeysProjectEntity(state: State, j: DeployKeysProject) {
  return { ...deployKeyEntity(tget(state.deployKeys, j.deployKeyId)!), can_push: j.canPush };
}

/** The join as its record renders (`expose :deploy_keys_projects` of DeployKeyWithUser). */
const joinRow = (j: DeployKeysProject) => ({
  id: j.id, deploy_key_id: j.deployKeyId, project_id: j.projectId, created_at: iso(j.createdAt), updated_at: iso(j.updatedAt), can_push: j.canPush,
});

/** SSHKeyWithUser for a user's key, DeployKeyWithUser for a deploy key (its adder, and its projects). */
export function keyWithUserEntity(found: KeyFound, v: ProjectView) {
  if (found.kind === 'deploy') {
    const k = found.key;
    const user = k.userId === null ? undefined : tget(v.state.users, k.userId);
    return { ...deployKeyEntity(k), user: user ? userPublic(user, v) : null, deploy_keys_projects: joinsOfKey(v.state, k.id).map(joinRow) };
  }
  const k = found.key;
  const user = tget(v.state.users, k.userId);
  return {
    id: k.id, title: k.title, created_at: iso(k.createdAt), expires_at: iso(k.expiresAt), key: k.key, usage_type: k.usageType,
    user: user ? userPublic(user, v) : null,
  };
}
