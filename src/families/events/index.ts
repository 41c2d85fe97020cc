// GitLab's events API, read from the event stream's log; the payloads of push events are worked
// out when the push happens, by a subscriber.
import { emptyTable, tvalues, type Table } from '../../store/table.js';
import type { Context } from '../define.js';
import type { EventKind, StoredEvent } from '../stream.js';
import { defineFamily, type Family } from '../define.js';
import { forgetRow, indexRow } from './index-rows.js';
import { recordPushPayload, type PushPayload } from './push.js';
import { eventRoutes } from './routes.js';

export interface EventsSlice {
  /** Push event id -> what PushEventPayload says of its push. */
  pushPayloads: Table<PushPayload>;
  /** The ids of the log's events that are GitLab rows, by project (and action, and target type) and by author: see index-rows.ts. */
  eventRows: Table<Table<number>>;
  /** Project id -> the time of its newest row, and whether its rows came in time order. */
  eventTimes: Table<{ lastAt: number; ordered: boolean }>;
}

/** `emulator.events`: the stream as a test reads it. */
export interface EventsMembers {
  readonly events: {
    /** The events the log holds, oldest first; of some kinds only when named. */
    list<K extends EventKind>(...kinds: K[]): StoredEvent<K>[];
  };
}

declare module '../world.js' {
  interface Slices extends EventsSlice {}
  interface FamilyHandles extends EventsMembers {}
}

export const events: Family<EventsSlice> = defineFamily({
  name: 'events',
  handle: (host) => ({
    events: {
      list: <K extends EventKind>(...kinds: K[]) =>
        [...tvalues(host.state().events)].filter((e) => kinds.length === 0 || (kinds as EventKind[]).includes(e.kind)) as unknown as StoredEvent<K>[],
    },
  }),
  state: () => ({ pushPayloads: emptyTable(), eventRows: emptyTable(), eventTimes: emptyTable() }),
  routes: eventRoutes,
  on: {
    push: async (ctx: Context<unknown>, e: StoredEvent<'push'>) => {
      await recordPushPayload(ctx, e);
      indexRow(ctx, e);
    },
    'project.created': indexRow,
    'member.added': indexRow,
    'member.removed': indexRow,
    'milestone.created': indexRow,
    'milestone.closed': indexRow,
    'milestone.reopened': indexRow,
    'milestone.destroyed': indexRow,
    'wiki_page.created': indexRow,
    'wiki_page.updated': indexRow,
    'wiki_page.deleted': indexRow,
    'issue.opened': indexRow,
    'issue.closed': indexRow,
    'issue.reopened': indexRow,
    'merge_request.opened': indexRow,
    'merge_request.closed': indexRow,
    'merge_request.reopened': indexRow,
    'merge_request.merged': indexRow,
    'merge_request.approved': indexRow,
    'note.created': indexRow,
  },
  forget: { event: forgetRow },
});
