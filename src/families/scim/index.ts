// SCIM provisioning of a group's users (the SCIM surface, /api/scim/v2): an identity provider
// creates, finds, changes, deactivates and removes the users of a group through its SCIM token.
import { emptyTable, tset } from '../../store/table.js';
import { defineFamily, fixtureGroupPath, groupWhere, type Family, type SeedRun } from '../define.js';
import { EmulatorError } from '../../core/errors.js';
import { scimRoutes } from './routes.js';
import type { ScimSlice } from './rules.js';

export interface FixtureScimGroupPart {
  /** The group's SCIM token (its SAML SSO and SCIM are then configured), as an identity provider would hold it. */
  scim_token?: string;
}

function seedScim(s: SeedRun): void {
  const groups = (s.fixture.groups ?? []).filter((g) => g.scim_token !== undefined);
  if (!groups.length) return;
  s.update((draft) => {
    for (const g of groups) {
      const token = g.scim_token!;
      if (typeof token !== 'string' || token === '') throw new EmulatorError(`${groupWhere(g)} has an empty scim_token`);
      const id = s.handles.groups[fixtureGroupPath(g)]!.id;
      tset(draft.scimTokens, token, id);
    }
  });
}

export const scim: Family<ScimSlice, { group: FixtureScimGroupPart }> = defineFamily({
  name: 'scim',
  state: () => ({ scimTokens: emptyTable(), scimUsers: emptyTable() }),
  seed: { after: ['groups'], run: seedScim },
  routes: scimRoutes,
});
