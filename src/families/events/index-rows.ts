// The events API's indexes, as GitLab's events table is indexed by project, action, target type,
// author and creation time: the ids of the stream's events that are GitLab rows, newest last,
// so a page of a project's events reads that page and X-Total is a table's size (or the sum of
// its days' sizes), whatever the log holds. Kept by a subscriber of each kind that makes a row;
// an event the log drops leaves them too.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { rowOf, type EventRow } from './rows.js';

const DAY = 86_400_000;
/** The UTC day of a time, as a number: what `before` and `after` compare. */
export const dayOf = (at: number) => Math.floor(at / DAY);

/** A row's keys in its project: all its rows, those of its action, of its target type, of both. */
function projectKeys(row: EventRow): string[] {
  const type = row.target?.type ?? '';
  const p = row.projectId;
  return [projectKey(p), projectKey(p, { action: row.action }), projectKey(p, { targetType: type }), projectKey(p, { action: row.action, targetType: type })];
}

/** The index keys a row is listed under: each project key, and each with the row's day; its author. */
function keysOf(row: EventRow): string[] {
  const day = dayOf(row.event.at);
  const keys = projectKeys(row);
  return [...keys, ...keys.map((k) => dayKey(k, day)), ...(row.authorId === null ? [] : [authorKey(row.authorId)])];
}

/** The rows of a project key on one day. */
export const dayKey = (key: string, day: number) => `${key}:d${day}`;
/** The days a project key has rows on (day -> day, so they iterate in order). */
export const daysKey = (key: string) => `${key}:days`;

/** The key of a project's rows, of one action and (or) one target type. */
export const projectKey = (projectId: number, by: { action?: string; targetType?: string } = {}) =>
  `p${projectId}${by.action !== undefined ? `:a:${by.action}` : ''}${by.targetType !== undefined ? `:t:${by.targetType}` : ''}`;
export const authorKey = (userId: number) => `u${userId}`;

/** The subscriber: lists a new row under each of its keys. */
export function indexRow(ctx: Context<unknown>, e: StoredEvent): void {
  const row = rowOf(e);
  if (!row) return;
  ctx.update((draft) => {
    const d = draft as State;
    const day = dayOf(e.at);
    for (const key of keysOf(row)) tset(tableOf(d, key), e.id, e.id);
    for (const key of projectKeys(row)) tset(tableOf(d, daysKey(key)), day, day);
    // Days find a project's rows only while its rows come in time order (a clock set back breaks it).
    const last = tget(d.eventTimes, row.projectId);
    tset(d.eventTimes, row.projectId, { lastAt: Math.max(last?.lastAt ?? e.at, e.at), ordered: (last?.ordered ?? true) && e.at >= (last?.lastAt ?? e.at) });
  });
}

function tableOf(d: State, key: string): Table<number> {
  let ids = tget(d.eventRows, key);
  if (!ids) {
    tset(d.eventRows, key, emptyTable<number>());
    ids = tget(d.eventRows, key)!;
  }
  return ids;
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
  const day = dayOf(e.at);
  for (const key of projectKeys(row)) {
    const days = tget(d.eventRows, daysKey(key));
    if (days && !tget(d.eventRows, dayKey(key, day))) {
      tdel(days, day);
      if (days.size === 0) tdel(d.eventRows, daysKey(key));
    }
  }
}

/** Whether a project's rows came in time order, so its days find them. */
export const inTimeOrder = (state: State, projectId: number): boolean => tget(state.eventTimes, projectId)?.ordered ?? true;

export const rowIds = (state: State, key: string): Table<number> | undefined => tget(state.eventRows, key);
