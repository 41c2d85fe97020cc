// SCIM provisioning of a group's users (the SCIM surface, /api/scim/v2): an identity provider
// creates, finds, changes, deactivates and removes the users of a group through its SCIM token.
import type { Infer } from '../../core/schema.js';
import { emptyTable, tdel, tentries, tget, tset } from '../../store/table.js';
import type { State } from '../world.js';
import { defineFamily, fixtureGroupPath, groupWhere, type Family, type SeedRun } from '../define.js';
import { EmulatorError } from '../../core/errors.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import { scimRoutes } from './routes.js';
import { newScimToken, type ScimSlice } from './rules.js';
import { scimGroupSchema } from './schema.js';

/** Gives the group a SCIM token (configuring its SAML SSO and SCIM), as its settings page would. */
export function createScimToken(draft: State, groupId: number, value?: string): string {
  const token = value ?? newScimToken(draft);
  if (tget(draft.scimTokens, token) !== undefined) throw new EmulatorError(`SCIM token '${token}' is used already`);
  tset(draft.scimTokens, token, groupId);
  return token;
}

export type FixtureScimGroupPart = Infer<typeof scimGroupSchema>;

function seedScim(s: SeedRun): void {
  const groups = (s.fixture.groups ?? []).filter((g) => g.scim_token !== undefined);
  if (!groups.length) return;
  s.update((draft) => {
    for (const g of groups) {
      const token = g.scim_token!;
      if (typeof token !== 'string' || token === '') throw new EmulatorError(`${groupWhere(g)} has an empty scim_token`);
      createScimToken(draft, s.handles.groups[fixtureGroupPath(g)]!.id, token);
    }
  });
}

declare module '../world.js' {
  interface Slices extends ScimSlice {}
  interface FixtureGroupParts extends FixtureScimGroupPart {}
}

export const scim: Family<ScimSlice> = defineFamily({
  name: 'scim',
  schema: { group: scimGroupSchema },
  state: () => ({ scimTokens: emptyTable(), scimUsers: emptyTable() }),
  seed: { after: ['groups'], run: seedScim },
  provides: {
    scimToken(host, groupPath) {
      const group = namespaceByIdOrPath(host.state(), groupPath);
      if (!group || group.kind !== 'group') throw new EmulatorError(`no group '${groupPath}'`);
      return host.update((draft) => createScimToken(draft, group.id));
    },
  },
  routes: scimRoutes,
  forget: {
    group: (draft, id) => {
      const d = draft as State;
      tdel(d.scimUsers, id);
      for (const [token, groupId] of [...tentries(d.scimTokens)]) if (groupId === id) tdel(d.scimTokens, token);
    },
  },
});
