// FeatureFlags::CreateService and UpdateService, and the models' validations: a flag's name
// (Gitlab::Regex.feature_flag_regex, unique in the project), its strategies (GitLab's five, each
// with its parameters) and their environment scopes; user lists with unique names and their
// comma-separated user ids.
import { messageError } from '../../core/errors.js';
import { sequences } from '../../store/state.js';
import { plist } from '../../store/table.js';
import type { State } from '../world.js';
import type { FeatureFlag, FlagScope, Strategy, UserList } from './records.js';

export const ids = sequences(['feature_flag', 'feature_flag_iid', 'flag_strategy', 'flag_scope', 'flag_user_list', 'flag_user_list_iid']);

const NAME = /^[a-z]([-_a-z0-9]*[a-z0-9])?$/;
const NAME_MESSAGE = "Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'";

/** A failed service: its `errors.full_messages`, as render_api_error! renders them. */
export const invalid = (...messages: string[]) => messageError(400, messages);

export function checkFlagName(flags: readonly FeatureFlag[], name: string, self?: FeatureFlag): void {
  const errors: string[] = [];
  if (!NAME.test(name)) errors.push(NAME_MESSAGE);
  if (flags.some((f) => f.name === name && f.id !== self?.id)) errors.push('Name has already been taken');
  if (errors.length) throw invalid(...errors);
}

const STRATEGIES = ['default', 'gradualRolloutUserId', 'flexibleRollout', 'userWithId', 'gitlabUserList'];
const STICKINESS = ['default', 'userId', 'sessionId', 'random'];

/** Operations::FeatureFlags::Strategy#parameters validation: the keys each strategy takes, and their values. */
function validParameters(name: string, p: Record<string, unknown>): boolean {
  const keys = Object.keys(p).sort().join(',');
  const percentage = (v: unknown) => typeof v === 'string' && /^([0-9]|[1-9][0-9]|100)$/.test(v);
  switch (name) {
    case 'default':
    case 'gitlabUserList':
      return keys === '';
    case 'userWithId':
      return keys === 'userIds' && typeof p.userIds === 'string' && /^[^\s,]+(,[^\s,]+)*$/.test(p.userIds);
    case 'gradualRolloutUserId':
      return keys === 'groupId,percentage' && typeof p.groupId === 'string' && /^[a-z]{1,32}$/.test(p.groupId) && percentage(p.percentage);
    case 'flexibleRollout':
      return keys === 'groupId,rollout,stickiness' && typeof p.groupId === 'string' && /^[a-z]{1,32}$/.test(p.groupId) && percentage(p.rollout) && STICKINESS.includes(String(p.stickiness));
    default:
      return false;
  }
}

export interface ScopeInput {
  id?: number;
  environment_scope?: string;
  _destroy?: boolean;
}

export interface StrategyInput {
  id?: number;
  name?: string;
  parameters?: unknown;
  user_list_id?: number;
  _destroy?: boolean;
  scopes?: ScopeInput[];
}

function parameters(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      throw invalid('Strategies parameters are invalid');
    }
    throw invalid('Strategies parameters are invalid');
  }
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  return {};
}

/** accepts_nested_attributes_for :scopes: new ones added, `id`s changed, `_destroy` ones gone. */
function applyScopes(current: readonly FlagScope[], input: readonly ScopeInput[] | undefined, next: () => number): FlagScope[] {
  if (!input) return [...current];
  let out = [...current];
  for (const s of input) {
    if (s.id !== undefined) {
      const at = out.findIndex((x) => x.id === s.id);
      if (at < 0) throw messageError(404, '404 Not found');
      if (s._destroy) out = out.filter((x) => x.id !== s.id);
      else if (s.environment_scope !== undefined) out[at] = { ...out[at]!, environmentScope: s.environment_scope };
    } else if (!s._destroy) {
      if (!s.environment_scope) throw invalid("Strategies scopes environment scope can't be blank");
      out.push({ id: next(), environmentScope: s.environment_scope });
    }
  }
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.environmentScope)) throw invalid('Strategies scopes environment scope has already been taken');
    seen.add(s.environmentScope);
  }
  return out;
}

/** The strategies with the input applied (accepts_nested_attributes_for :strategies, allow_destroy). */
export function applyStrategies(state: State, projectId: number, current: readonly Strategy[], input: readonly StrategyInput[] | undefined, alloc: { strategy(): number; scope(): number }): Strategy[] {
  if (!input) return [...current];
  let out = [...current];
  for (const s of input) {
    if (s.id !== undefined) {
      const at = out.findIndex((x) => x.id === s.id);
      if (at < 0) throw messageError(404, '404 Not found');
      if (s._destroy) {
        out = out.filter((x) => x.id !== s.id);
        continue;
      }
      const was = out[at]!;
      out[at] = checked(state, projectId, {
        ...was,
        name: s.name ?? was.name,
        parameters: s.parameters !== undefined ? parameters(s.parameters) : was.parameters,
        userListId: s.user_list_id ?? was.userListId,
        scopes: applyScopes(was.scopes, s.scopes, alloc.scope),
      });
    } else if (!s._destroy) {
      out.push(checked(state, projectId, {
        id: alloc.strategy(),
        name: s.name ?? '',
        parameters: parameters(s.parameters),
        userListId: s.user_list_id ?? null,
        scopes: applyScopes([], s.scopes, alloc.scope),
      }));
    }
  }
  return out;
}

function checked(state: State, projectId: number, s: Strategy): Strategy {
  if (!STRATEGIES.includes(s.name)) throw invalid('Strategies name strategy name is invalid');
  if (!validParameters(s.name, s.parameters)) throw invalid('Strategies parameters are invalid');
  if (s.name === 'gitlabUserList') {
    const list = s.userListId === null ? undefined : userLists(state, projectId).find((l) => l.id === s.userListId);
    if (!list) throw invalid('Strategies user list must belong to the same project');
  } else if (s.userListId !== null) throw invalid('Strategies user list must not be specified for this strategy');
  return s;
}

/** A project's flags, by id. */
export function flags(state: State, projectId: number): FeatureFlag[] {
  return plist(state.featureFlags, projectId).sort((a, b) => a.id - b.id);
}

/** A project's user lists, by iid. */
export function userLists(state: State, projectId: number): UserList[] {
  return plist(state.featureFlagUserLists, projectId).sort((a, b) => a.iid - b.iid);
}

const XIDS = /^[^\s,]{1,256}(,[^\s,]{1,256})*$/;

/** Operations::FeatureFlags::UserList validations. */
export function checkUserList(lists: readonly UserList[], name: string, userXids: string, self?: UserList): void {
  const errors: string[] = [];
  if (name.trim() === '') errors.push("Name can't be blank");
  if (name.length > 255) errors.push('Name is too long (maximum is 255 characters)');
  if (lists.some((l) => l.name === name && l.id !== self?.id)) errors.push('Name has already been taken');
  const parts = userXids === '' ? [] : userXids.split(',');
  if (userXids !== '' && (!XIDS.test(userXids) || new Set(parts).size !== parts.length)) errors.push('User xids user_xids must be a string of unique comma separated values each 256 characters or less');
  if (errors.length) throw invalid(...errors);
}
