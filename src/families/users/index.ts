// Users (the current user, `GET /user`), their tokens and sessions; the profile entities every
// family renders authors and owners with.
import { defineFamily, type Family } from '../define.js';
import { userRoutes } from './routes.js';
import { seedUsers, type FixtureUserPart } from './seed.js';

export const users: Family<object, { user: FixtureUserPart }> = defineFamily({
  name: 'users',
  routes: userRoutes,
  seed: { run: seedUsers },
});

export { createSession, createToken, createUser, findUserByUsername, type TokenInput, type UserInput } from './rules.js';
export { fixtureMembers, fixtureUserId, type FixtureMember, type FixtureToken, type FixtureUserPart } from './seed.js';
export * from './entity.js';
