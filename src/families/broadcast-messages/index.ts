// Broadcast messages: the banners and notifications an administrator shows the instance.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { BroadcastMessage } from './records.js';
import { broadcastMessageRoutes } from './routes.js';

export interface BroadcastMessagesSlice {
  /** Broadcast messages by id. */
  broadcastMessages: Table<BroadcastMessage>;
}

declare module '../world.js' {
  interface Slices extends BroadcastMessagesSlice {}
}

export const broadcastMessages: Family<BroadcastMessagesSlice> = defineFamily({
  name: 'broadcast-messages',
  state: () => ({ broadcastMessages: emptyTable() }),
  routes: broadcastMessageRoutes,
});
