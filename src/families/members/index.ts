// Members of groups and projects: direct and effective lists, adding (one or in bulk),
// editing and removing members, membership states, LDAP overrides, billable members, and
// sharing projects and groups with groups. Memberships and shares are core tables
// (store/members.ts) that every family's permission checks read through policy/access.ts.
import { sharesSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { memberRoutes } from './routes.js';
import { groupMemberRoutes } from './group-routes.js';
import { shareRoutes } from './share-routes.js';
import { seedShares, type FixtureSharesPart } from './seed.js';

declare module '../world.js' {
  interface FixtureGroupParts extends FixtureSharesPart {}
  interface FixtureProjectParts extends FixtureSharesPart {}
}

export const members: Family = defineFamily({
  name: 'members',
  schema: { group: sharesSchema, project: sharesSchema },
  seed: { after: ['users', 'groups', 'projects'], run: seedShares },
  routes: [...memberRoutes, ...groupMemberRoutes, ...shareRoutes],
});

export { canAdminMembers, directMembers, effectiveList, ROLE_NAMES } from './rules.js';
