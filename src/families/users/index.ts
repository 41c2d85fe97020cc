// Users (GET /users, /user and what administrators change), their emails, keys, statuses and
// follows, their tokens (personal, impersonation, project and group access tokens), runners,
// and activity; the profile entities every family renders authors and owners with.
import { emptyTable } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { UsersSlice } from './records.js';
import { profileRoutes } from './profile-routes.js';
import { userRoutes } from './routes.js';
import { runnerRoutes } from './runners.js';
import { tokenRoutes } from './token-routes.js';
import { seedUsers, type FixtureUserPart } from './seed.js';
import { DESTROY_USER } from './service.js';

export const users: Family<UsersSlice, { user: FixtureUserPart }> = defineFamily({
  name: 'users',
  state: () => ({
    userEmails: emptyTable(),
    emailOwners: emptyTable(),
    identities: emptyTable(),
    identityOwners: emptyTable(),
    scimIdentities: emptyTable(),
    customAttributes: emptyTable(),
    sshKeys: emptyTable(),
    gpgKeys: emptyTable(),
    followees: emptyTable(),
    followers: emptyTable(),
    statuses: emptyTable(),
    userTokens: emptyTable(),
    tokenIds: emptyTable(),
    runners: emptyTable(),
    runnerTokens: emptyTable(),
  }),
  routes: [...userRoutes, ...profileRoutes, ...tokenRoutes, ...runnerRoutes],
  seed: { run: seedUsers },
  tasks: [DESTROY_USER],
});

export { createSession, createToken, createUser, findUserByUsername, setScimIdentity, userByEmail, type TokenInput, type UserInput } from './rules.js';
export { fixtureMembers, fixtureUserId, type FixtureMember, type FixtureToken, type FixtureUserPart } from './seed.js';
export { userBasic, currentUser, tokenEntity, type UrlBase, type UserView } from './entity.js';
export { writeMembership, type MembershipSource } from './memberships.js';
export type { UsersSlice } from './records.js';
export { changeUser } from './service.js';
export { recordActivity } from './activity.js';
