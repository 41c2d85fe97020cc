// Application settings (lib/api/settings.rb): administrators read them (Entities::ApplicationSetting)
// and change them. What other families obey lives in the instance's settings; the rest is kept here.
import { validationFailed } from '../../core/errors.js';
import type { Constraint } from '../../http/params.js';
import { json } from '../../http/route.js';
import { defaultSettings, type Instance, type Settings } from '../../store/state.js';
import { defineFamily, route, type Change, type Family } from '../define.js';
import { applicationSettings } from '../instance/index.js';
import type { State } from '../world.js';
import { EXTRA_DEFAULTS, INSTANCE_FIELDS, numericError, settableFields } from './fields.js';

export interface ApplicationSettingsSlice {
  /** The settings changed through the API that the instance's own settings do not hold, by name. */
  applicationSettings: Record<string, unknown>;
}

declare module '../world.js' {
  interface Slices extends ApplicationSettingsSlice {}
}

const FIELDS = settableFields(applicationSettings({ tier: 'free', offering: 'self-managed', settings: defaultSettings() } as Instance));
const NAMES = Object.keys(FIELDS);
const AT_LEAST_ONE: Constraint[] = [{ kind: 'at_least_one_of', names: NAMES }];

/** Entities::ApplicationSetting: the instance's, then GitLab's defaults of the others, then what was changed. */
export function renderSettings(state: State) {
  return { ...applicationSettings(state.instance, state.hookSettings), ...EXTRA_DEFAULTS, ...state.applicationSettings };
}

/** A setting as kept (GitLab stores a stable value; a value read from a setting other families read). */
export function setting(state: State, name: string): unknown {
  return (renderSettings(state) as Record<string, unknown>)[name];
}

/** The settings the webhooks obey, kept with the hooks (a fixture's `webhooks` sets them too). */
const HOOK_FIELDS: Record<string, 'allowLocalWebHooks' | 'allowLocalSystemHooks'> = {
  allow_local_requests_from_web_hooks_and_services: 'allowLocalWebHooks',
  allow_local_requests_from_hooks_and_services: 'allowLocalWebHooks',
  allow_local_requests_from_system_hooks: 'allowLocalSystemHooks',
};

function updateSettings(given: Record<string, unknown>): Change<void> {
  const errors: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(given)) {
    const e = typeof v === 'number' ? numericError(k, v) : null;
    if (e) errors[k] = [e];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  return (draft) => {
    for (const [k, v] of Object.entries(given)) {
      if (Object.hasOwn(HOOK_FIELDS, k)) draft.hookSettings[HOOK_FIELDS[k]!] = v as boolean;
      else if (Object.hasOwn(INSTANCE_FIELDS, k)) (draft.instance.settings as Record<string, unknown>)[k] = v as Settings[keyof Settings];
      else draft.applicationSettings[k] = v;
    }
  };
}

const routes = [
  route({ method: 'GET', path: '/application/settings', auth: 'admin', handler: (ctx) => json(renderSettings(ctx.state)) }),
  route({
    method: 'PUT', path: '/application/settings', auth: 'admin', params: FIELDS, constraints: AT_LEAST_ONE,
    handler: (ctx) => {
      const given = Object.fromEntries(Object.entries(ctx.params as Record<string, unknown>).filter(([k, v]) => NAMES.includes(k) && v !== undefined));
      ctx.update(updateSettings(given));
      return json(renderSettings(ctx.state));
    },
  }),
];

export const applicationSettingsFamily: Family<ApplicationSettingsSlice> = defineFamily({
  name: 'application-settings',
  state: () => ({ applicationSettings: {} }),
  routes,
});
