// Webhooks: project, group and system hooks (their APIs, logs and test triggers), and the
// deliveries of what the event stream says happened, sent after the answer on the emulator's clock.
import { emptyTable, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { hooksHandle, type HooksMembers } from './dispatch.js';
import type { Delivery, Hook } from './records.js';
import { reacting, type HookEvent } from './queue.js';
import { dropHook } from './rules.js';
import { hookRoutes } from './routes.js';
import { hookSubscribers } from './subscribers.js';
import { repositoryUpdate, systemSubscribers } from './system.js';
import { moreSubscribers } from './more.js';
import { ciSubscribers } from './ci.js';
import { emojiSubscribers } from './emoji.js';
import { EXPIRING_TOKEN, tokenSubscribers } from './tokens.js';
import { hooksOf } from './rules.js';
import { hooksTopSchema, type FixtureHooksPart } from './schema.js';

export interface HooksSlice {
  /** Every hook by id (one id space, as GitLab's web_hooks table). */
  hooks: Table<Hook>;
  /** Hook ids by project and by group; the system hooks' ids. */
  projectHookIds: Partitioned<number>;
  groupHookIds: Partitioned<number>;
  systemHookIds: Table<number>;
  /** Deliveries by id: queued, then sent (the logs). */
  hookDeliveries: Table<Delivery>;
  /** Each hook's deliveries (its log), by hook. */
  hookLogIds: Partitioned<number>;
  /** Events hooks take, kept outside a subscriber (a push's repository update), whose deliveries are not queued yet. */
  hookEvents: HookEvent[];
  /** The last event of the stream whose hook events (kept on the event by its subscribers) are queued. */
  hookPlannedThrough: number;
  /** The deliveries not sent yet, by id. */
  hookQueue: Table<number>;
  /** The oldest delivery id the world may still keep (deliveries past the limit go from there). */
  hookOldest: number;
  /** `allow_local_requests_from_web_hooks_and_services` and `..._from_system_hooks`: on in the emulator, whose receivers are local. */
  hookSettings: { allowLocalWebHooks: boolean; allowLocalSystemHooks: boolean };
}

declare module '../world.js' {
  interface Slices extends HooksSlice {}
  interface FixtureTopParts extends FixtureHooksPart {}
  interface FamilyHandles extends HooksMembers {}
}

export const hooks: Family<HooksSlice> = defineFamily({
  name: 'hooks',
  state: () => ({
    hooks: emptyTable(), projectHookIds: emptyTable(), groupHookIds: emptyTable(), systemHookIds: emptyTable(), hookDeliveries: emptyTable(),
    hookLogIds: emptyTable(), hookEvents: [], hookPlannedThrough: 0, hookQueue: emptyTable(), hookOldest: 1, hookSettings: { allowLocalWebHooks: true, allowLocalSystemHooks: true },
  }),
  schema: { top: hooksTopSchema },
  seed: {
    run: (s) => {
      const given = s.fixture.webhooks;
      if (!given) return;
      s.update((draft) => {
        if (given.allow_local_requests_from_web_hooks_and_services !== undefined) draft.hookSettings.allowLocalWebHooks = given.allow_local_requests_from_web_hooks_and_services;
        if (given.allow_local_requests_from_system_hooks !== undefined) draft.hookSettings.allowLocalSystemHooks = given.allow_local_requests_from_system_hooks;
      });
    },
  },
  routes: hookRoutes,
  on: reacting({ ...hookSubscribers, ...systemSubscribers, ...moreSubscribers, ...ciSubscribers, ...emojiSubscribers, ...tokenSubscribers }),
  tasks: [EXPIRING_TOKEN],
  postReceive: repositoryUpdate,
  handle: hooksHandle,
  forget: {
    project: (draft, id) => hooksOf(draft, 'project', id).forEach((h) => dropHook(draft, h)),
    group: (draft, id) => hooksOf(draft, 'group', id).forEach((h) => dropHook(draft, h)),
  },
});

export type { Hook, Delivery } from './records.js';
export type { FixtureHooksPart } from './schema.js';
export type { DeliveryFilter, DeliveryView, HooksMembers } from './dispatch.js';
