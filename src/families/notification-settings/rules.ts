// NotificationSetting (app/models/notification_setting.rb): one per user for the instance (the
// global one, `participating` until changed) and one per user and project or group (`global`
// until changed: it follows the global one); a `custom` level picks events one by one.
import { messageError, validationFailed } from '../../core/errors.js';
import { pget, pset, tget, tset } from '../../store/table.js';
import type { User } from '../../store/state.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';

export const LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const;
export type Level = (typeof LEVELS)[number];

/** NotificationSetting::EMAIL_EVENTS. */
export const EMAIL_EVENTS = [
  'new_release', 'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request', 'change_reviewer_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project', 'merge_when_pipeline_succeeds',
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];

export interface NotificationSetting {
  level: Level;
  /** The events chosen one by one; an unset one is null (failed and fixed pipelines read as true). */
  events: Partial<Record<EmailEvent, boolean>>;
  /** The global setting's address for notifications; null for the primary email. */
  notificationEmail?: string | null;
}

export type Source = { kind: 'project' | 'group'; id: number };

export interface NotificationSlice {
  /** User id -> the user's global setting. */
  globalNotificationSettings: import('../../store/table.js').Table<NotificationSetting>;
  /** Project id -> user id -> the user's setting for it. */
  projectNotificationSettings: import('../../store/table.js').Partitioned<NotificationSetting>;
  /** Group id -> user id -> the user's setting for it. */
  groupNotificationSettings: import('../../store/table.js').Partitioned<NotificationSetting>;
}

export function globalSetting(state: State, user: User): NotificationSetting {
  return tget(state.globalNotificationSettings, user.id) ?? { level: 'participating', events: {} };
}

const table = (state: State, source: Source) => (source.kind === 'project' ? state.projectNotificationSettings : state.groupNotificationSettings);

export function sourceSetting(state: State, user: User, source: Source): NotificationSetting {
  return pget(table(state, source), source.id, user.id) ?? { level: 'global', events: {} };
}

export interface SettingInput {
  level?: string;
  events: Partial<Record<EmailEvent, boolean>>;
  notificationEmail?: string;
}

/** The setting with the input applied: an unknown level is the enum's ArgumentError, a 400. */
function applied(current: NotificationSetting, input: SettingInput): NotificationSetting {
  if (input.level !== undefined && !(LEVELS as readonly string[]).includes(input.level)) throw messageError(400, `'${input.level}' is not a valid level`);
  return { ...current, level: (input.level as Level | undefined) ?? current.level, events: { ...current.events, ...input.events } };
}

/** The global setting changed; a notification email must be one of the user's own addresses. */
export function updateGlobal(state: State, user: User, input: SettingInput): Change<NotificationSetting> {
  const next = applied(globalSetting(state, user), input);
  if (input.notificationEmail !== undefined) {
    const email = input.notificationEmail.toLowerCase();
    const own = email === user.email.toLowerCase() || tget(state.emailOwners, email) === user.id;
    if (!own) throw validationFailed({ notification_email: ['must be an email you have verified'] });
    next.notificationEmail = email === user.email.toLowerCase() ? null : input.notificationEmail;
  }
  return (draft) => {
    tset(draft.globalNotificationSettings, user.id, next);
    return next;
  };
}

export function updateForSource(state: State, user: User, source: Source, input: SettingInput): Change<NotificationSetting> {
  const next = applied(sourceSetting(state, user, source), input);
  return (draft) => {
    pset(table(draft as State, source), source.id, user.id, next);
    return next;
  };
}
