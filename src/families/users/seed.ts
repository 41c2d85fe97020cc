// The users of a fixture, with their tokens and sessions; and the lookups other families'
// seeds use to name users and members.
import { EmulatorError } from '../../core/errors.js';
import { accessLevel } from '../../policy/access.js';
import type { Infer } from '../../core/schema.js';
import type { Member } from '../../store/state.js';
import type { SeedRun } from '../define.js';
import type { State } from '../world.js';
import { pset } from '../../store/table.js';
import { addEmail, addIdentity, createSession, createToken, createUser, findUserByUsername, type TokenInput } from './rules.js';
import type { memberSchema, tokenSchema, userSchema } from './schema.js';

export type FixtureToken = Infer<typeof tokenSchema>;

/** A user of a fixture: `username` and the profile, tokens, and session cookies that sign them in. */
export type FixtureUserPart = Infer<typeof userSchema>;

/** `{ user, access_level }`: a member of a group or project. */
export type FixtureMember = Infer<typeof memberSchema>;

export function seedUsers(s: SeedRun): void {
  if (!s.fixture.users?.length) return;
  s.update((draft) => {
    for (const u of s.fixture.users ?? []) {
      const { tokens, sessions, identities, emails, custom_attributes, ...input } = u;
      const user = createUser(draft, input, s.now);
      for (const i of identities ?? []) addIdentity(draft, user.id, i.provider, i.extern_uid, s.now, i.saml_provider_id ?? null);
      for (const e of emails ?? []) addEmail(draft, user.id, e.email, e.confirmed === false ? null : s.now, s.now);
      for (const [k, v] of Object.entries(custom_attributes ?? {})) pset(draft.customAttributes, user.id, k, v);
      const h = (s.handles.users[user.username] = { id: user.id, tokens: [] as string[], sessions: [] as string[] });
      for (const t of tokens ?? []) h.tokens.push(createToken(draft, user.id, t as TokenInput, s.now).token);
      for (const c of sessions ?? []) h.sessions.push(createSession(draft, user.id, c));
    }
  });
}

/** The id of a fixture's user, or a clear error naming the record that named it. */
export function fixtureUserId(state: State, username: string, where: string): number {
  const user = findUserByUsername(state, username);
  if (!user) throw new EmulatorError(`${where} names unknown user '${username}'`);
  return user.id;
}

/** A fixture's member list as member records, by user id. */
export function fixtureMembers(state: State, list: readonly FixtureMember[] | undefined, now: number, where: string): Member[] {
  const out = new Map<number, Member>();
  for (const m of list ?? []) {
    const id = fixtureUserId(state, m.user, where);
    out.set(id, { userId: id, accessLevel: accessLevel(m.access_level), createdAt: now, createdById: null, expiresAt: m.expires_at ?? null, ...(m.state ? { state: m.state } : {}), ...(m.ldap ? { ldap: true, override: false } : {}) });
  }
  return [...out.values()];
}
