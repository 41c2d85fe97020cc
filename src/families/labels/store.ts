// Where the labels family keeps its records: labels by id, each owner's titles, and who
// subscribed to which label.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tvalues, type Table } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import type { State } from '../world.js';
import type { Label } from './records.js';

export const ids = sequences(['label']);

export type LabelOwner = { projectId: number; groupId?: undefined } | { groupId: number; projectId?: undefined };

/** `p<project id>` or `g<group id>`: how an owner's titles are kept. */
export const ownerKey = (o: LabelOwner) => (o.projectId !== undefined ? `p${o.projectId}` : `g${o.groupId}`);

export interface LabelsSlice {
  /** Label id -> label. */
  labels: Table<Label>;
  /** `p<project id>` or `g<group id>` -> its labels' titles -> label id (titles are unique per owner). */
  labelTitles: Table<Table<number>>;
  /** `<label id>:<user id>` -> subscribed to the label (issues and merge requests that get it notify). */
  labelSubscriptions: Table<true>;
}

export function emptyLabelsSlice(): LabelsSlice {
  return { labels: emptyTable(), labelTitles: emptyTable(), labelSubscriptions: emptyTable() };
}

/** Forgets the labels of a deleted project or group. */
export function forgetLabels(draft: Draft<State>, owner: LabelOwner): void {
  const titles = tget(draft.labelTitles, ownerKey(owner));
  if (titles) for (const id of tvalues(titles)) tdel(draft.labels, id);
  tdel(draft.labelTitles, ownerKey(owner));
}
