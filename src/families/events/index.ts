// GitLab's events API, read from the event stream's log; the payloads of push events are worked
// out when the push happens, by a subscriber.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { recordPushPayload, type PushPayload } from './push.js';
import { eventRoutes } from './routes.js';

export interface EventsSlice {
  /** Push event id -> what PushEventPayload says of its push. */
  pushPayloads: Table<PushPayload>;
}

export const events: Family<EventsSlice> = defineFamily({
  name: 'events',
  state: () => ({ pushPayloads: emptyTable() }),
  routes: eventRoutes,
  on: { push: recordPushPayload },
});
