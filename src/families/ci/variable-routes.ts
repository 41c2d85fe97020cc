// CI/CD variables of projects (lib/api/ci/variables.rb), groups (lib/api/ci/group_variables.rb)
// and the instance (lib/api/admin/ci/variables.rb). Every route authenticates first, so an
// anonymous caller is 401 even for a project it could not see.
import { missingAttribute } from '../../core/errors.js';
import { bool, hash, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { group, project, route, type Context } from '../define.js';
import { variableEntity } from './variable-entity.js';
import {
  canAdminGroupVariables, canAdminProjectVariables, createVariable, deleteVariable, findVariable, updateVariable, variableCount, variablesOf,
  type VariableInput, type VariableOwner,
} from './variables.js';

const TYPES = ['env_var', 'file'] as const;
const FILTER = { filter: hash({ environment_scope: str() }) };
const KEY = { key: str().required() };
const ATTRIBUTES = {
  protected: bool(),
  masked: bool(),
  raw: bool(),
  variable_type: str().values(TYPES),
  environment_scope: str(),
  description: str().nullable(),
};
const CREATE = { key: str().required(), value: str().required(), masked_and_hidden: bool(), ...ATTRIBUTES };
/** `value` is required (the spec), except of a hidden variable, whose value no client can read back to resend. */
const UPDATE = { ...KEY, value: str(), ...ATTRIBUTES, ...FILTER };
const { environment_scope: _scope, ...INSTANCE_ATTRIBUTES } = ATTRIBUTES;
const INSTANCE_CREATE = { key: str().required(), value: str().required(), ...INSTANCE_ATTRIBUTES };
const INSTANCE_UPDATE = { ...KEY, value: str(), ...INSTANCE_ATTRIBUTES };

/** A page of the owner's variables in id order, read lazily; the total is the table's size. */
function list(ctx: Context<unknown>, owner: VariableOwner): Reply {
  const paging = ctx.params as PageInput;
  const { page, perPage } = pageRequest(paging);
  const rows = [];
  let i = 0;
  for (const v of variablesOf(ctx.state, owner)) {
    if (i++ < (page - 1) * perPage) continue;
    if (rows.length === perPage) break;
    rows.push(variableEntity(v, owner.kind));
  }
  Object.assign(ctx.responseHeaders, offsetHeaders(variableCount(ctx.state, owner), paging, ctx.linkBase));
  return json(rows);
}

const show = (ctx: Context<unknown>, owner: VariableOwner, key: string, filter?: { environment_scope?: string }): Reply =>
  json(variableEntity(findVariable(ctx.state, owner, key, filter), owner.kind));

const create = (ctx: Context<unknown>, owner: VariableOwner, input: VariableInput): Reply =>
  created(variableEntity(ctx.update(createVariable(ctx.state, owner, input)), owner.kind));

function update(ctx: Context<unknown>, owner: VariableOwner, p: VariableInput & { key: string; filter?: { environment_scope?: string } }): Reply {
  const existing = findVariable(ctx.state, owner, p.key, p.filter);
  if (p.value === undefined && owner.kind !== 'instance' && !existing.hidden) throw missingAttribute('value');
  const { key: _key, filter: _filter, ...input } = p;
  return json(variableEntity(ctx.update(updateVariable(ctx.state, owner, existing, input)), owner.kind));
}

function remove(ctx: Context<unknown>, owner: VariableOwner, key: string, filter?: { environment_scope?: string }): Reply {
  ctx.update(deleteVariable(owner, findVariable(ctx.state, owner, key, filter)));
  return noContent();
}

const projectOwner = (ctx: Context<unknown>): VariableOwner => ({ kind: 'project', id: ctx.project.id });
const groupOwner = (ctx: Context<unknown>): VariableOwner => ({ kind: 'group', id: ctx.group.id });
const INSTANCE: VariableOwner = { kind: 'instance', id: 0 };

const projectScope = project(canAdminProjectVariables);
const groupScope = group(canAdminGroupVariables);

export const variableRoutes = [
  route({ method: 'GET', path: '/projects/:id/variables', auth: 'user', cacheable: true, scope: projectScope, paginated: true, params: {}, handler: (ctx) => list(ctx, projectOwner(ctx)) }),
  route({ method: 'GET', path: '/projects/:id/variables/:key', auth: 'user', cacheable: true, scope: projectScope, params: { ...KEY, ...FILTER }, handler: (ctx) => show(ctx, projectOwner(ctx), ctx.params.key, ctx.params.filter) }),
  route({ method: 'POST', path: '/projects/:id/variables', auth: 'user', scope: projectScope, params: CREATE, handler: (ctx) => create(ctx, projectOwner(ctx), ctx.params) }),
  route({ method: 'PUT', path: '/projects/:id/variables/:key', auth: 'user', scope: projectScope, params: UPDATE, handler: (ctx) => update(ctx, projectOwner(ctx), ctx.params) }),
  route({ method: 'DELETE', path: '/projects/:id/variables/:key', auth: 'user', scope: projectScope, params: { ...KEY, ...FILTER }, handler: (ctx) => remove(ctx, projectOwner(ctx), ctx.params.key, ctx.params.filter) }),

  route({ method: 'GET', path: '/groups/:id/variables', auth: 'user', cacheable: true, scope: groupScope, paginated: true, params: {}, handler: (ctx) => list(ctx, groupOwner(ctx)) }),
  route({ method: 'GET', path: '/groups/:id/variables/:key', auth: 'user', cacheable: true, scope: groupScope, params: { ...KEY, ...FILTER }, handler: (ctx) => show(ctx, groupOwner(ctx), ctx.params.key, ctx.params.filter) }),
  route({ method: 'POST', path: '/groups/:id/variables', auth: 'user', scope: groupScope, params: CREATE, handler: (ctx) => create(ctx, groupOwner(ctx), ctx.params) }),
  route({ method: 'PUT', path: '/groups/:id/variables/:key', auth: 'user', scope: groupScope, params: UPDATE, handler: (ctx) => update(ctx, groupOwner(ctx), ctx.params) }),
  route({ method: 'DELETE', path: '/groups/:id/variables/:key', auth: 'user', scope: groupScope, params: { ...KEY, ...FILTER }, handler: (ctx) => remove(ctx, groupOwner(ctx), ctx.params.key, ctx.params.filter) }),

  route({ method: 'GET', path: '/admin/ci/variables', auth: 'admin', paginated: true, params: {}, handler: (ctx) => list(ctx, INSTANCE) }),
  route({ method: 'GET', path: '/admin/ci/variables/:key', auth: 'admin', params: KEY, handler: (ctx) => show(ctx, INSTANCE, ctx.params.key) }),
  route({ method: 'POST', path: '/admin/ci/variables', auth: 'admin', params: INSTANCE_CREATE, handler: (ctx) => create(ctx, INSTANCE, ctx.params) }),
  route({ method: 'PUT', path: '/admin/ci/variables/:key', auth: 'admin', params: INSTANCE_UPDATE, handler: (ctx) => update(ctx, INSTANCE, ctx.params) }),
  route({ method: 'DELETE', path: '/admin/ci/variables/:key', auth: 'admin', params: KEY, handler: (ctx) => remove(ctx, INSTANCE, ctx.params.key) }),
];
