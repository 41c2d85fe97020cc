// The users of a fixture, with their tokens and sessions; and the lookups other families'
// seeds use to name users and members.
import { EmulatorError } from '../../core/errors.js';
import { accessLevel, type RoleName } from '../../policy/access.js';
import type { Member } from '../../store/state.js';
import type { SeedRun } from '../define.js';
import type { State } from '../world.js';
import { createSession, createToken, createUser, findUserByUsername, type TokenInput, type UserInput } from './rules.js';

export interface FixtureToken {
  token?: string;
  name?: string;
  scopes?: string[];
  expires_at?: string | null;
  revoked?: boolean;
  kind?: 'personal' | 'impersonation' | 'oauth';
}

/** A user of a fixture: `username` and the profile, tokens, and session cookies that sign them in. */
export interface FixtureUserPart extends UserInput {
  tokens?: FixtureToken[];
  /** Session cookie values (`_gitlab_session`) that sign this user in. */
  sessions?: string[];
}

export interface FixtureMember {
  user: string;
  access_level: number | RoleName;
  expires_at?: string | null;
  /** `awaiting`: a membership that grants nothing until it is activated (paid tiers). */
  state?: 'active' | 'awaiting';
  /** Synced from LDAP (its level may then be overridden). */
  ldap?: boolean;
}

export function seedUsers(s: SeedRun): void {
  if (!s.fixture.users?.length) return;
  s.update((draft) => {
    for (const u of s.fixture.users ?? []) {
      const { tokens, sessions, ...input } = u;
      const user = createUser(draft, input, s.now);
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
