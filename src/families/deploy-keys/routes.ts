// lib/api/deploy_keys.rb (the instance's deploy keys for administrators; a project's for its
// maintainers) and lib/api/keys.rb (any key by id or fingerprint, for administrators).
import { bool, datetime, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { forbidden } from '../../core/errors.js';
import { canAdminProject, type ProjectView } from '../projects/index.js';
import { project, route, subject, type Context } from '../define.js';
import { deployKeyEntity, deployKeysProjectEntity, keyWithUserEntity } from './entity.js';
import { deployKeyNotFound, deployKeysProjectNotFound, invalidFingerprint, keyNotFound, noKeyWithFingerprint } from './errors.js';
import type { DeployKeysProject } from './records.js';
import {
  accessibleKey, addProjectKey, allDeployKeys, canUpdateProjectKey, createInstanceKey, deployKeysProjectsOf, disableKey, enableKey,
  findKeyByFingerprint, findKeyById, joinOf, updateProjectKey,
} from './rules.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });

const KEY_ID = { key_id: int().required() };

/** `find_by!(deploy_key: key_id)` among the project's joins: 404 Not found. */
const projectKey = subject<DeployKeysProject, { key_id: number }>((ctx) => {
  const j = joinOf(ctx.state, ctx.project!, ctx.params.key_id);
  if (!j) throw deployKeysProjectNotFound();
  return j;
});

export const deployKeyRoutes = [
  route({
    method: 'GET', path: '/deploy_keys', auth: 'admin', paginated: true,
    params: { public: bool().default(false) },
    handler: (ctx) => {
      const keys = allDeployKeys(ctx.state).filter((k) => !ctx.params.public || k.public);
      return json(ctx.paginate(keys).map((k) => deployKeyEntity(k, view(ctx))));
    },
  }),
  route({
    method: 'POST', path: '/deploy_keys', auth: 'admin',
    params: { key: str().required(), title: str().required(), expires_at: datetime() },
    handler: (ctx) => created(deployKeyEntity(ctx.update(createInstanceKey(ctx.state, ctx.user!, ctx.params, ctx.now())))),
  }),
  route({
    method: 'GET', path: '/projects/:id/deploy_keys', auth: 'user', scope: project(canAdminProject), paginated: true,
    handler: (ctx) => json(ctx.paginate(deployKeysProjectsOf(ctx.state, ctx.project!)).map((j) => deployKeysProjectEntity(ctx.state, j))),
  }),
  route({
    method: 'GET', path: '/projects/:id/deploy_keys/:key_id', auth: 'user', scope: project(canAdminProject), params: KEY_ID, subject: projectKey,
    handler: (ctx) => json(deployKeysProjectEntity(ctx.state, ctx.subject)),
  }),
  route({
    method: 'POST', path: '/projects/:id/deploy_keys', auth: 'user', scope: project(canAdminProject),
    params: { key: str().required(), title: str().required(), can_push: bool(), expires_at: datetime() },
    handler: (ctx) => {
      const j = ctx.update(addProjectKey(ctx.state, ctx.user!, ctx.project!, ctx.params, ctx.now()));
      return created(deployKeysProjectEntity(ctx.state, j));
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/deploy_keys/:key_id', auth: 'user', scope: project(canAdminProject),
    params: { ...KEY_ID, title: str(), can_push: bool() },
    constraints: [{ kind: 'at_least_one_of', names: ['title', 'can_push'] }],
    subject: projectKey,
    handler: (ctx) => {
      if (!canUpdateProjectKey(ctx.state, ctx.user!, ctx.project!, ctx.now())) throw forbidden();
      const j = ctx.update(updateProjectKey(ctx.state, ctx.user!, ctx.subject, ctx.params, ctx.now()));
      return json(deployKeysProjectEntity(ctx.state, j));
    },
  }),
  route({
    method: 'POST', path: '/projects/:id/deploy_keys/:key_id/enable', auth: 'user', scope: project(canAdminProject), params: KEY_ID,
    handler: (ctx) => {
      const key = accessibleKey(ctx.state, ctx.user!, ctx.params.key_id, ctx.now());
      if (!key) throw deployKeyNotFound();
      const already = joinOf(ctx.state, ctx.project!, key.id) !== undefined;
      return created(deployKeyEntity(ctx.update(enableKey(ctx.project!, key, already, ctx.now()))));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/deploy_keys/:key_id', auth: 'user', scope: project(canAdminProject), params: KEY_ID,
    handler: (ctx) => {
      const j = joinOf(ctx.state, ctx.project!, ctx.params.key_id);
      if (!j) throw deployKeyNotFound();
      ctx.update(disableKey(j));
      return noContent();
    },
  }),
  route({
    method: 'GET', path: '/keys/:id', auth: 'admin', params: { id: int().required() },
    handler: (ctx) => {
      const found = findKeyById(ctx.state, ctx.params.id);
      if (!found) throw keyNotFound();
      return json(keyWithUserEntity(found, view(ctx)));
    },
  }),
  route({
    method: 'GET', path: '/keys', auth: 'admin', params: { fingerprint: str().required() },
    handler: (ctx) => {
      const found = findKeyByFingerprint(ctx.state, ctx.params.fingerprint);
      if (found === 'invalid') throw invalidFingerprint();
      if (!found) throw noKeyWithFingerprint();
      return json(keyWithUserEntity(found, view(ctx)));
    },
  }),
];
