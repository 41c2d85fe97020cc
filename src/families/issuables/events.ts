// Resource events (app/models/resource_*_event.rb, ResourceEvents::Change*Service): what changed
// an issue's, merge request's or epic's state, labels, milestone, weight and iteration, kept
// apart from notes as GitLab keeps them. Each issuable's events of one kind are a table of their
// own, in id order: recording one copies a chunk of that issuable's events, never a list.
import type { Draft } from 'immer';
import { derived, emptyTable, tget, tlist, tset, tdel, type Table } from '../../store/table.js';
import type { State } from '../world.js';
import { ids } from './store.js';

export type EventableType = 'Issue' | 'MergeRequest' | 'Epic';
export type EventKind = 'state' | 'label' | 'milestone' | 'weight' | 'iteration';

interface EventBase {
  id: number;
  userId: number;
  createdAt: number;
  resourceType: EventableType;
  /** The issuable's global id. */
  resourceId: number;
}

export interface StateEvent extends EventBase {
  kind: 'state';
  state: 'closed' | 'reopened' | 'merged';
  sourceCommit: string | null;
  sourceMergeRequestId: number | null;
}

export interface LabelEvent extends EventBase {
  kind: 'label';
  labelId: number;
  action: 'add' | 'remove';
}

export interface MilestoneEvent extends EventBase {
  kind: 'milestone';
  milestoneId: number;
  /** The project the issuable lives in, to find the milestone (a project's or one of its groups'). */
  projectId: number;
  action: 'add' | 'remove';
  /** The issuable's state when the event was recorded. */
  state: string;
}

export interface WeightEvent extends EventBase {
  kind: 'weight';
  weight: number | null;
}

export interface IterationEvent extends EventBase {
  kind: 'iteration';
  iterationId: number;
  action: 'add' | 'remove';
}

export type ResourceEvent = StateEvent | LabelEvent | MilestoneEvent | WeightEvent | IterationEvent;
type EventOf<K extends EventKind> = Extract<ResourceEvent, { kind: K }>;

const SEQUENCE = {
  state: 'resource_state_event', label: 'resource_label_event', milestone: 'resource_milestone_event', weight: 'resource_weight_event', iteration: 'resource_iteration_event',
} as const;

const eventsKey = (kind: EventKind, type: EventableType, id: number) => `${kind}:${type}:${id}`;

/** The events of one kind on an issuable, in id order (empty when none). */
export function eventsOf<K extends EventKind>(state: State, kind: K, type: EventableType, id: number): readonly EventOf<K>[] {
  const t = tget(state.resourceEvents, eventsKey(kind, type, id));
  // One list per version of the issuable's events, shared by every page read of it.
  return t ? (derived(t, tlist) as EventOf<K>[]) : [];
}

export function eventOf<K extends EventKind>(state: State, kind: K, type: EventableType, id: number, eventId: number): EventOf<K> | undefined {
  const t = tget(state.resourceEvents, eventsKey(kind, type, id));
  return t ? (tget(t, eventId) as EventOf<K> | undefined) : undefined;
}

type Fields<K extends EventKind> = Omit<EventOf<K>, 'id' | 'kind' | 'userId' | 'createdAt' | 'resourceType' | 'resourceId'>;

/** Records an event (its id the next of its kind's sequence) and returns it. */
export function recordEvent<K extends EventKind>(
  draft: Draft<State>, kind: K, on: { type: EventableType; id: number }, userId: number, now: number, fields: Fields<K>,
): EventOf<K> {
  const event = { id: ids.next(draft as State, SEQUENCE[kind]), kind, userId, createdAt: now, resourceType: on.type, resourceId: on.id, ...fields } as unknown as EventOf<K>;
  const key = eventsKey(kind, on.type, on.id);
  let t = tget(draft.resourceEvents, key);
  if (t === undefined) {
    tset(draft.resourceEvents, key, emptyTable<ResourceEvent>());
    t = tget(draft.resourceEvents, key)!;
  }
  tset(t as Table<ResourceEvent>, event.id, event as ResourceEvent);
  return event;
}

/** Forgets an issuable's events (it is deleted). */
export function dropEvents(draft: Draft<State>, type: EventableType, id: number): void {
  for (const kind of ['state', 'label', 'milestone', 'weight', 'iteration'] as const) tdel(draft.resourceEvents, eventsKey(kind, type, id));
}

export function emptyEvents(): Table<Table<ResourceEvent>> {
  return emptyTable();
}

/** The label events of a change of labels: removals and additions (ResourceEvents::ChangeLabelsService). */
export function recordLabelChange(draft: Draft<State>, on: { type: EventableType; id: number }, userId: number, before: readonly number[], after: readonly number[], now: number): void {
  const was = new Set(before);
  const is = new Set(after);
  for (const id of after) if (!was.has(id)) recordEvent(draft, 'label', on, userId, now, { labelId: id, action: 'add' });
  for (const id of before) if (!is.has(id)) recordEvent(draft, 'label', on, userId, now, { labelId: id, action: 'remove' });
}

/** The milestone event of a change of milestone (ResourceEvents::ChangeMilestoneService): add the new one, or remove the old. */
export function recordMilestoneChange(
  draft: Draft<State>, on: { type: EventableType; id: number; projectId: number; state: string }, userId: number, before: number | null, after: number | null, now: number,
): void {
  if (before === after) return;
  const target = { type: on.type, id: on.id };
  if (after !== null) recordEvent(draft, 'milestone', target, userId, now, { milestoneId: after, projectId: on.projectId, action: 'add', state: on.state });
  else if (before !== null) recordEvent(draft, 'milestone', target, userId, now, { milestoneId: before, projectId: on.projectId, action: 'remove', state: on.state });
}
