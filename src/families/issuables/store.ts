// Where the shared records of issuables are kept: subscriptions, to-dos, award emoji and
// resource events, each keyed by its issuable's type and id (issue, merge request and epic ids
// come from separate sequences and collide).
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import type { State } from '../world.js';
import type { ResourceEvent } from './events.js';
import type { AwardableType, AwardEmoji, Todo } from './records.js';

export const ids = sequences(['todo', 'award_emoji', 'resource_state_event', 'resource_label_event', 'resource_milestone_event', 'resource_weight_event', 'resource_iteration_event']);

export interface IssuablesSlice {
  /** `<Issue|MergeRequest>:<id>:<user id>` -> an explicit subscription (true) or unsubscription (false). */
  subscriptions: Table<boolean>;
  /** User id -> their to-dos by id. */
  todos: Partitioned<Todo>;
  /** `<user id>:<Issue|MergeRequest>:<id>` -> the pending to-do's id. */
  pendingTodos: Table<number>;
  /** `<Issue|MergeRequest>:<id>` -> its award emoji by id. */
  awardEmoji: Table<Table<AwardEmoji>>;
  /** `<Issue|MergeRequest>:<id>:<user id>:<name>` -> award id. */
  awardKeys: Table<number>;
  /** `<kind>:<Issue|MergeRequest|Epic>:<id>` -> that issuable's resource events of the kind, by id. */
  resourceEvents: Table<Table<ResourceEvent>>;
}

export function emptyIssuablesSlice(): IssuablesSlice {
  return { subscriptions: emptyTable(), todos: emptyTable(), pendingTodos: emptyTable(), awardEmoji: emptyTable(), awardKeys: emptyTable(), resourceEvents: emptyTable() };
}

/** The key of an awardable, subscribable or to-do target: its type and id (issue and merge request ids collide). */
export const socialKey = (t: Awardable) => `${t.type}:${t.id}`;
/** An issue, a merge request, a project snippet or a note, as its award emoji are kept. */
export type Awardable = { type: AwardableType; id: number; projectId?: number; noteable?: { type: string; id: number } };

/** The target's award emoji, by id. */
export function awardsOn(state: State, t: Awardable): Table<AwardEmoji> | undefined {
  return tget(state.awardEmoji, socialKey(t));
}

/** Forgets a deleted issue's, merge request's, snippet's or note's award emoji (and the keys that refuse a second one). */
export function dropAwards(draft: Draft<State>, t: Awardable): void {
  const awards = tget(draft.awardEmoji, socialKey(t));
  if (awards) for (const a of tvalues(awards)) tdel(draft.awardKeys, `${socialKey(t)}:${a.userId}:${a.name}`);
  tdel(draft.awardEmoji, socialKey(t));
}
