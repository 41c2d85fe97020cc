// Notification settings (lib/api/notification_settings.rb, Entities::NotificationSetting and
// GlobalNotificationSetting): a signed-in user's level for the instance, and for each project and
// group they can see; `custom` shows the events one by one.
import { bool, str, type Parsed } from '../../http/params.js';
import { json } from '../../http/route.js';
import { emptyTable, tdel } from '../../store/table.js';
import type { User } from '../../store/state.js';
import { defineFamily, group, project, route, type Family } from '../define.js';
import type { State } from '../world.js';
import {
  EMAIL_EVENTS, globalSetting, sourceSetting, updateForSource, updateGlobal, type EmailEvent, type NotificationSetting, type NotificationSlice, type SettingInput,
} from './rules.js';

declare module '../world.js' {
  interface Slices extends NotificationSlice {}
}

/** Entities::NotificationSetting: the level, and the events when it is custom. */
function settingEntity(s: NotificationSetting) {
  if (s.level !== 'custom') return { level: s.level };
  const events: Record<string, boolean | null> = {};
  for (const e of EMAIL_EVENTS) {
    const v = s.events[e];
    // NotificationSetting#failed_pipeline and #fixed_pipeline: unset reads as on.
    events[e] = v ?? (e === 'failed_pipeline' || e === 'fixed_pipeline' ? true : null);
  }
  return { level: s.level, events };
}

const globalEntity = (s: NotificationSetting, user: User) => ({ ...settingEntity(s), notification_email: s.notificationEmail ?? user.email });

const EVENT_PARAMS = Object.fromEntries(EMAIL_EVENTS.map((e) => [e, bool()])) as Record<EmailEvent, ReturnType<typeof bool>>;
const PARAMS = { level: str(), ...EVENT_PARAMS };

function input(p: Partial<Parsed<typeof PARAMS>> & { notification_email?: string }): SettingInput {
  const events: Partial<Record<EmailEvent, boolean>> = {};
  for (const e of EMAIL_EVENTS) if (p[e] !== undefined) events[e] = p[e];
  return { level: p.level, events, notificationEmail: p.notification_email };
}

const sourceRoutes = (kind: 'project' | 'group') => {
  const scope = kind === 'project' ? project() : group();
  const base = kind === 'project' ? '/projects/:id/notification_settings' : '/groups/:id/notification_settings';
  const sourceOf = (ctx: { project: { id: number }; group: { id: number } }) => ({ kind, id: kind === 'project' ? ctx.project.id : ctx.group.id });
  return [
    route({
      method: 'GET', path: base, auth: 'user', scope,
      handler: (ctx) => json(settingEntity(sourceSetting(ctx.state, ctx.user!, sourceOf(ctx)))),
    }),
    route({
      method: 'PUT', path: base, auth: 'user', scope, params: PARAMS,
      handler: (ctx) => json(settingEntity(ctx.update(updateForSource(ctx.state, ctx.user!, sourceOf(ctx), input(ctx.params))))),
    }),
  ];
};

const routes = [
  route({
    method: 'GET', path: '/notification_settings', auth: 'user',
    handler: (ctx) => json(globalEntity(globalSetting(ctx.state, ctx.user!), ctx.user!)),
  }),
  route({
    method: 'PUT', path: '/notification_settings', auth: 'user', params: { ...PARAMS, notification_email: str() },
    handler: (ctx) => json(globalEntity(ctx.update(updateGlobal(ctx.state, ctx.user!, input(ctx.params))), ctx.user!)),
  }),
  ...sourceRoutes('group'),
  ...sourceRoutes('project'),
];

export const notificationSettings: Family<NotificationSlice> = defineFamily({
  name: 'notification-settings',
  state: () => ({ globalNotificationSettings: emptyTable(), projectNotificationSettings: emptyTable(), groupNotificationSettings: emptyTable() }),
  routes,
  forget: {
    project: (draft, id) => void tdel((draft as State).projectNotificationSettings, id),
    group: (draft, id) => void tdel((draft as State).groupNotificationSettings, id),
  },
});
