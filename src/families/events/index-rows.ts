// The events API's indexes, as GitLab's events table is indexed by project, action, target type
// and author: the ids of the stream's events that are GitLab rows, newest last, so a page of a
// project's events reads that page and X-Total is a table's size, whatever the log holds. Kept
// by a subscriber of each kind that makes a row; an event the log drops leaves them too.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { rowOf, type EventRow } from './rows.js';

/** The index keys a row is listed under: its project, with or without its action and its target type; its author. */
function keysOf(row: EventRow): string[] {
  const type = row.target?.type ?? '';
  return [
    projectKey(row.projectId), projectKey(row.projectId, { action: row.action }), projectKey(row.projectId, { targetType: type }),
    projectKey(row.projectId, { action: row.action, targetType: type }), ...(row.authorId === null ? [] : [authorKey(row.authorId)]),
  ];
}

/** The key of a project's rows, of one action and (or) one target type. */
export const projectKey = (projectId: number, by: { action?: string; targetType?: string } = {}) =>
  `p${projectId}${by.action !== undefined ? `:a:${by.action}` : ''}${by.targetType !== undefined ? `:t:${by.targetType}` : ''}`;
export const authorKey = (userId: number) => `u${userId}`;

/** The subscriber: lists a new row under each of its keys. */
export function indexRow(ctx: Context<unknown>, e: StoredEvent): void {
  const row = rowOf(e);
  if (!row) return;
  ctx.update((draft) => {
    const index = (draft as State).eventRows;
    for (const key of keysOf(row)) {
      let ids = tget(index, key);
      if (!ids) {
        tset(index, key, emptyTable<number>());
        ids = tget(index, key)!;
      }
      tset(ids, e.id, e.id);
    }
  });
}

/** An event the log dropped leaves the indexes (and its push payload). */
export function forgetRow(draft: Draft<State>, e: StoredEvent): void {
  const d = draft as State;
  tdel(d.pushPayloads, e.id);
  const row = rowOf(e);
  if (!row) return;
  for (const key of keysOf(row)) {
    const ids = tget(d.eventRows, key);
    if (!ids) continue;
    tdel(ids, e.id);
    if (ids.size === 0) tdel(d.eventRows, key);
  }
}

export const rowIds = (state: State, key: string): Table<number> | undefined => tget(state.eventRows, key);
