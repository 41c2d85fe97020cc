// CI/CD variables of projects, groups and the instance (app/models/ci/variable.rb,
// group_variable.rb, instance_variable.rb, concerns/ci/{has_variable,maskable,hidable_variable}.rb,
// concerns/has_environment_scope.rb, app/finders/ci/variables_finder.rb,
// app/services/ci/change_variable_service.rb). One owner's variables are a table by id (so a
// list is in id order) and an index key -> ids: a key lives once per environment scope.
import { ACCESS, sequences, type Namespace, type Project, type User } from '../../store/state.js';
import { partition, pget, plist, pset, pdel, pvalues, tget, type Partitioned } from '../../store/table.js';
import { hasGroupRole, hasProjectRole } from '../../policy/access.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import type { CiLimits, CiVariable, VariableType } from './records.js';
import { instanceVariableNotFound, multipleVariables, variableInvalid, variableNotFound } from './errors.js';

export const ids = sequences(['ci_variable', 'ci_group_variable', 'ci_instance_variable', 'ci_pipeline', 'ci_pipeline_iid', 'ci_artifact', 'job', 'ci_trigger', 'ci_schedule', 'environment', 'deployment', 'deployment_iid', 'ci_resource_group']);

export type VariableOwnerKind = 'project' | 'group' | 'instance';
export interface VariableOwner {
  kind: VariableOwnerKind;
  /** The project or group id; 0 for the instance. */
  id: number;
}

export interface VariablesSlice {
  /** Project id -> its variables by id. */
  projectVariables: Partitioned<CiVariable>;
  /** Project id -> variable key -> the ids holding it (one per environment scope). */
  projectVariableKeys: Partitioned<number[]>;
  groupVariables: Partitioned<CiVariable>;
  groupVariableKeys: Partitioned<number[]>;
  /** Owner 0 -> the instance's variables by id. */
  instanceVariables: Partitioned<CiVariable>;
  instanceVariableKeys: Partitioned<number[]>;
  /** The plan's limits on CI records. */
  ciLimits: CiLimits;
}

function tables(state: State, kind: VariableOwnerKind): { rows: Partitioned<CiVariable>; keys: Partitioned<number[]> } {
  if (kind === 'project') return { rows: state.projectVariables, keys: state.projectVariableKeys };
  if (kind === 'group') return { rows: state.groupVariables, keys: state.groupVariableKeys };
  return { rows: state.instanceVariables, keys: state.instanceVariableKeys };
}

const SEQUENCE = { project: 'ci_variable', group: 'ci_group_variable', instance: 'ci_instance_variable' } as const;
const LIMIT = { project: 'project_ci_variables', group: 'group_ci_variables', instance: 'ci_instance_level_variables' } as const;

/** The owner's variables, in id order. */
export function listVariables(state: State, owner: VariableOwner): CiVariable[] {
  return plist(tables(state, owner.kind).rows, owner.id);
}

/** The owner's variables in id order, lazily. */
export function variablesOf(state: State, owner: VariableOwner): IterableIterator<CiVariable> {
  return pvalues(tables(state, owner.kind).rows, owner.id);
}

export const variableCount = (state: State, owner: VariableOwner): number => tget(tables(state, owner.kind).rows, owner.id)?.size ?? 0;

function withKey(state: State, owner: VariableOwner, key: string): CiVariable[] {
  const t = tables(state, owner.kind);
  return (pget(t.keys, owner.id, key) ?? []).map((id) => pget(t.rows, owner.id, id)!).filter(Boolean);
}

/**
 * Ci::VariablesFinder then `find_variable`: by key, then by the exact scope of
 * `filter[environment_scope]` when given; none is 404, several are 409.
 */
export function findVariable(state: State, owner: VariableOwner, key: string, filter?: { environment_scope?: string }): CiVariable {
  let found = withKey(state, owner, key);
  if (owner.kind === 'instance') {
    if (!found[0]) throw instanceVariableNotFound();
    return found[0];
  }
  const scope = filter?.environment_scope;
  if (scope !== undefined) found = found.filter((v) => v.environmentScope === scope);
  if (found.length === 0) throw variableNotFound();
  if (found.length > 1) throw multipleVariables();
  return found[0]!;
}

export interface VariableInput {
  key?: string;
  value?: string;
  protected?: boolean;
  masked?: boolean;
  masked_and_hidden?: boolean;
  raw?: boolean;
  variable_type?: VariableType;
  environment_scope?: string;
  description?: string | null;
}

const KEY = /^[a-zA-Z0-9_]+$/;
const SCOPE = /^[a-zA-Z0-9_\\/${}. \-*]+$/;
/** Ci::Maskable: what a masked value must look like, raw or expanded. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKABLE_RAW = /^\S{8,}$/;

const humanize = (name: string) => name.replace(/_/g, ' ');

/** The validations of the variable as it would be saved; `existing` is the record being updated. */
function validate(state: State, owner: VariableOwner, v: CiVariable, existing: CiVariable | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (v.key === '') add('key', "can't be blank");
  if (v.key.length > 255) add('key', 'is too long (maximum is 255 characters)');
  if (!KEY.test(v.key)) add('key', "can contain only letters, digits and '_'.");
  if (owner.kind === 'instance' && v.value.length > 10_000) add('value', 'The value of the provided variable exceeds the 10000 character limit');
  if (v.masked && !(v.raw ? MASKABLE_RAW : MASKABLE).test(v.value)) add('value', 'is invalid');
  if (!existing && v.hidden && !v.masked) add('masked', 'should be true when variable is hidden');
  if (owner.kind !== 'instance') {
    if (v.environmentScope === '') add('environment_scope', "can't be blank");
    else if (v.environmentScope.length > 255) add('environment_scope', 'is too long (maximum is 255 characters)');
    if (v.environmentScope !== '' && !SCOPE.test(v.environmentScope))
      add('environment_scope', "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");
  }
  if (v.description !== null && v.description.length > 255) add('description', 'is too long (maximum is 255 characters)');
  const taken = withKey(state, owner, v.key).some(
    (o) => o.id !== existing?.id && (owner.kind === 'instance' || o.environmentScope === v.environmentScope),
  );
  if (v.key !== '' && taken) add('key', `(${v.key}) has already been taken`);
  if (existing?.hidden && v.masked !== existing.masked) add('base', 'The visibility setting cannot be changed for masked and hidden variables.');
  if (!existing) {
    const limit = state.ciLimits[LIMIT[owner.kind]];
    const count = tget(tables(state, owner.kind).rows, owner.id)?.size ?? 0;
    if (limit > 0 && count >= limit) add('base', `Maximum number of ${humanize(LIMIT[owner.kind])} (${limit}) exceeded`);
  }
  return errors;
}

function store(draft: State, owner: VariableOwner, v: CiVariable, oldKey?: string): void {
  const t = tables(draft, owner.kind);
  pset(t.rows, owner.id, v.id, v);
  if (oldKey !== undefined && oldKey !== v.key) {
    const rest = (pget(t.keys, owner.id, oldKey) ?? []).filter((id) => id !== v.id);
    if (rest.length) pset(t.keys, owner.id, oldKey, rest);
    else pdel(t.keys, owner.id, oldKey);
  }
  const held = pget(t.keys, owner.id, v.key) ?? [];
  if (!held.includes(v.id)) pset(t.keys, owner.id, v.key, [...held, v.id]);
}

/** Ci::ChangeVariableService `create`: the variable, or 400 with its errors. */
export function createVariable(state: State, owner: VariableOwner, input: VariableInput): Change<CiVariable> {
  const hidden = input.masked_and_hidden === true && owner.kind !== 'instance';
  const draftVar: CiVariable = {
    id: 0,
    variableType: input.variable_type ?? 'env_var',
    key: (input.key ?? '').trim(),
    value: input.value ?? '',
    hidden,
    protected: input.protected ?? false,
    masked: hidden || (input.masked ?? false),
    raw: input.raw ?? false,
    environmentScope: owner.kind === 'instance' ? '*' : (input.environment_scope ?? '*').trim(),
    description: input.description ?? null,
  };
  const errors = validate(state, owner, draftVar, undefined);
  if (Object.keys(errors).length) throw variableInvalid(errors);
  return (draft) => {
    const v = { ...draftVar, id: ids.next(draft, SEQUENCE[owner.kind]) };
    store(draft as State, owner, v);
    return v;
  };
}

/** Ci::ChangeVariableService `update`: every given attribute but the key (a variable is never renamed). */
export function updateVariable(state: State, owner: VariableOwner, existing: CiVariable, input: VariableInput): Change<CiVariable> {
  const next: CiVariable = {
    ...existing,
    ...(input.value !== undefined ? { value: input.value } : {}),
    ...(input.protected !== undefined ? { protected: input.protected } : {}),
    ...(input.masked !== undefined ? { masked: input.masked } : {}),
    ...(input.raw !== undefined ? { raw: input.raw } : {}),
    ...(input.variable_type !== undefined ? { variableType: input.variable_type } : {}),
    ...(input.environment_scope !== undefined && owner.kind !== 'instance' ? { environmentScope: input.environment_scope.trim() } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
  const errors = validate(state, owner, next, existing);
  if (Object.keys(errors).length) throw variableInvalid(errors);
  return (draft) => {
    store(draft as State, owner, next, existing.key);
    return next;
  };
}

export function deleteVariable(owner: VariableOwner, existing: CiVariable): Change<void> {
  return (draft) => {
    const t = tables(draft as State, owner.kind);
    pdel(t.rows, owner.id, existing.id);
    const rest = (pget(t.keys, owner.id, existing.key) ?? []).filter((id) => id !== existing.id);
    if (rest.length) pset(t.keys, owner.id, existing.key, rest);
    else pdel(t.keys, owner.id, existing.key);
  };
}

/** Makes sure the owner's partitions exist (seeding many at once). */
export function ownerTables(draft: State, owner: VariableOwner): void {
  const t = tables(draft, owner.kind);
  partition(t.rows, owner.id);
}

/** ProjectPolicy `admin_cicd_variables`: maintainers. */
export function canAdminProjectVariables(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

/** GroupPolicy `admin_cicd_variables`: owners. */
export function canAdminGroupVariables(state: State, user: User | null, group: Namespace, now: number): boolean {
  return hasGroupRole(state, user, group, ACCESS.owner, now);
}
