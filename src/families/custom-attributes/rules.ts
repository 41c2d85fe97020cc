// CustomAttribute (app/models/user_custom_attribute.rb, project_ and group_custom_attribute.rb):
// key-value pairs administrators attach to users, projects and groups. A user's live in the
// users family's table (its finder and entities read them); projects' and groups' here.
import type { User } from '../../store/state.js';
import { pdel, pget, pset, tdel, tentries, tget } from '../../store/table.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';

export type Kind = 'user' | 'project' | 'group';

const TABLES = { user: 'customAttributes', project: 'projectCustomAttributes', group: 'groupCustomAttributes' } as const;

export interface CustomAttribute {
  key: string;
  value: string;
}

/** The attributes of one user, project or group, by key (as the users' entities list them). */
export function attributesOf(state: State, kind: Kind, id: number): CustomAttribute[] {
  const t = tget(state[TABLES[kind]], id);
  return t ? [...tentries(t)].map(([key, value]) => ({ key, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : [];
}

export function findAttribute(state: State, kind: Kind, id: number, key: string): CustomAttribute | undefined {
  const value = pget(state[TABLES[kind]], id, key);
  return value === undefined ? undefined : { key, value };
}

/** `find_or_initialize_by(key:)` and `update!(value:)`. */
export function setAttribute(kind: Kind, id: number, key: string, value: string): Change<CustomAttribute> {
  return (draft) => {
    pset((draft as State)[TABLES[kind]], id, key, value);
    return { key, value };
  };
}

export const deleteAttribute = (kind: Kind, id: number, key: string): Change => (draft) => void pdel((draft as State)[TABLES[kind]], id, key);

/** `read_custom_attribute` and `update_custom_attribute` (GlobalPolicy): administrators only. */
export const isAdmin = (_s: State, user: User | null): boolean => !!user?.admin;

/** Does this project or group carry every pair (the lists' `custom_attributes[key]=value` filter)? */
export function hasAttributes(state: State, kind: 'project' | 'group', id: number, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([k, v]) => pget(state[TABLES[kind]], id, k) === v);
}

export function forget(draft: State, kind: 'project' | 'group', id: number): void {
  tdel(draft[TABLES[kind]], id);
}
