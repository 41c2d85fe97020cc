// Users (GET /users, /user and what administrators change), their emails, keys, statuses and
// follows, their tokens (personal, impersonation, project and group access tokens), runners,
// and activity; the profile entities every family renders authors and owners with.
import { userSchema } from './schema.js';
import { emptyTable, tdel, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import { defineFamily, type Family, type Host } from '../define.js';
import { EmulatorError } from '../../core/errors.js';
import { emit } from '../stream.js';
import { createSession, findUserByUsername, recordSignIn } from './rules.js';
import { recordActivity } from './activity.js';
import type { UsersSlice } from './records.js';
import { profileRoutes } from './profile-routes.js';
import { userRoutes } from './routes.js';
import { runnerRoutes } from './runners.js';
export { addRunner } from './runners.js';
import { tokenRoutes } from './token-routes.js';
import { avatarRoutes } from './avatar.js';
import { seedUsers, type FixtureUserPart } from './seed.js';
import { DESTROY_USER } from './service.js';

declare module '../world.js' {
  interface Slices extends UsersSlice {}
  interface FixtureUserParts extends FixtureUserPart {}
}

export const users: Family<UsersSlice> = defineFamily({
  name: 'users',
  schema: { user: userSchema },
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
    preferences: emptyTable(),
    userTokens: emptyTable(),
    tokenIds: emptyTable(),
    runners: emptyTable(),
    runnerTokens: emptyTable(),
  }),
  routes: [...userRoutes, ...profileRoutes, ...tokenRoutes, ...runnerRoutes, ...avatarRoutes],
  // Users::ActivityService and the token's last use, for each API request a user made.
  on: { request: recordActivity },
  seed: { run: seedUsers },
  tasks: [DESTROY_USER],
  provides: { signIn },
  // A deleted project's or group's access tokens die with it, and so do its own runners.
  forget: {
    project: (draft, id) => forgetOwner(draft as State, 'project', id),
    group: (draft, id) => forgetOwner(draft as State, 'group', id),
  },
});

/** Devise's `inactive_message` for a blocked user (User#blocked?), as the sign-in page shows it. */
const REFUSED: Partial<Record<string, string>> = {
  blocked: 'Your account has been blocked. Please contact your GitLab administrator if you think this is an error.',
  banned: 'Your account has been blocked. Please contact your GitLab administrator if you think this is an error.',
  blocked_pending_approval: 'Your account is pending approval from your GitLab administrator and hence blocked. Please contact your GitLab administrator if you think this is an error.',
};

/**
 * A session for the user, as if signed in on the web at the host's time. A blocked user is
 * refused once the credentials matched, and the refusal is an event (Warden's before_logout:
 * BlockedUserTracker, the system hooks' `user_failed_login`).
 */
function signIn(host: Host, username: string): string {
  const user = findUserByUsername(host.state(), username);
  if (!user) throw new EmulatorError(`no user '${username}'`);
  const refused = REFUSED[user.state];
  if (refused) {
    host.update((draft) => emit(draft, { kind: 'user.failed_login', userId: user.id }));
    throw new EmulatorError(refused);
  }
  return host.update((draft) => {
    const cookie = createSession(draft, user.id);
    recordSignIn(draft, user.id, host.now());
    return cookie;
  });
}

function forgetOwner(draft: State, kind: 'project' | 'group', id: number): void {
  for (const t of tvalues(draft.tokens)) {
    if (t.kind === 'project' && kind === 'project' && t.projectId === id) t.revoked = true;
    if (t.kind === 'group' && kind === 'group' && t.groupId === id) t.revoked = true;
  }
  for (const r of [...tvalues(draft.runners)]) {
    if (kind === 'group' && r.runnerType === 'group_type' && r.groupId === id) dropRunner(draft, r.id, r.token);
    if (kind === 'project' && r.runnerType === 'project_type' && r.projectIds.includes(id)) {
      if (r.projectIds.length === 1) dropRunner(draft, r.id, r.token);
      else r.projectIds = r.projectIds.filter((p) => p !== id);
    }
  }
}

function dropRunner(draft: State, id: number, token: string): void {
  tdel(draft.runners, id);
  tdel(draft.runnerTokens, token);
}

export { tokenById } from './rules.js';
export { createSession, createToken, createUser, findUserByIdOrUsername, findUserByUsername, recordSignIn, setScimIdentity, userByEmail, type TokenInput, type UserInput } from './rules.js';
export { fixtureMembers, fixtureUserId, type FixtureMember, type FixtureToken, type FixtureUserPart } from './seed.js';
export { canReadProfile, commitEmail, userAvatarUrl, userBasic, userDetails, userPublic, currentUser, tokenEntity, type UrlBase, type UserView } from './entity.js';
export { visibleUser } from './resolvers.js';
export { membersOf, readMembership, writeMembership, type MembershipSource } from './memberships.js';
export type { UsersSlice } from './records.js';
export { changeUser } from './service.js';
export { userIds } from './rules.js';
export { accessLevelSchema, memberSchema, projectTokenSchema, tokenSchema } from './schema.js';
export { canReadUser } from './resolvers.js';
