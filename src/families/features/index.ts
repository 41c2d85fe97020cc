// Instance feature flags (lib/api/features.rb, Entities::Feature): administrators list the flags
// set, turn one on or off (a boolean) or on for a percentage of the time, and delete one. The
// emulator keeps them as GitLab's Flipper does; its own behaviour follows GitLab's defaults
// whatever they say.
import { messageError } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { defineFamily, route, type Family } from '../define.js';
import { emptyTable, tdel, tentries, tget, tset, type Table } from '../../store/table.js';

export interface FeatureGate {
  boolean: boolean;
  /** `percentage_of_time`, when set. */
  percentage: number | null;
}

export interface FeaturesSlice {
  /** Flag name -> its gates. */
  features: Table<FeatureGate>;
}

declare module '../world.js' {
  interface Slices extends FeaturesSlice {}
}

function featureEntity(name: string, g: FeatureGate) {
  const gates: { key: string; value: boolean | number }[] = [{ key: 'boolean', value: g.boolean }];
  if (g.percentage !== null) gates.push({ key: 'percentage_of_time', value: g.percentage });
  return { name, state: g.boolean ? 'on' : g.percentage !== null ? 'conditional' : 'off', gates, definition: null };
}

/** Feature names as Flipper keeps them: letters, digits and underscores. */
const NAME = /^[a-z0-9_]+$/;

const routes = [
  route({
    method: 'GET', path: '/features', auth: 'admin',
    handler: (ctx): Reply => json([...tentries(ctx.state.features)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, g]) => featureEntity(n, g))),
  }),
...['/features/:name', '/features//:name'].map((path) =>
  route({
    method: 'POST', path, auth: 'admin', params: { name: str().required(), value: str().required() },
    handler: (ctx): Reply => {
      const { name, value } = ctx.params;
      if (!NAME.test(name)) throw messageError(400, `Invalid feature name: ${name}`);
      let gate: FeatureGate;
      if (value === 'true') gate = { boolean: true, percentage: null };
      else if (value === 'false' || value === '0') gate = { boolean: false, percentage: null };
      else if (/^\d+(\.\d+)?$/.test(value) && Number(value) <= 100) gate = { boolean: false, percentage: Number(value) };
      else throw messageError(400, 'Value must be a boolean or an integer');
      ctx.update((draft) => void tset(draft.features, name, gate));
      return created(featureEntity(name, gate));
    },
  })),
  // python-gitlab joins its `/features/` path and the name with another slash, which GitLab's router takes.
  ...['/features/:name', '/features//:name'].map((path) =>
  route({
    method: 'DELETE', path, auth: 'admin', params: { name: str().required() },
    handler: (ctx): Reply => {
      const name = ctx.params.name;
      if (tget(ctx.state.features, name)) ctx.update((draft) => void tdel(draft.features, name));
      return noContent();
    },
  })),
];

export const features: Family<FeaturesSlice> = defineFamily({ name: 'features', state: () => ({ features: emptyTable() }), routes });
