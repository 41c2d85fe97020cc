// Users::CreateService, UpdateService, the state changes (block, deactivate, ban...) and the
// asynchronous deletion (DeleteUserWorker), as an administrator drives them through the API.
import { validationFailed } from '../../core/errors.js';
import { isReservedTopLevel, isValidNamespacePath, isOciPath, NAMESPACE_PATH_MESSAGE, OCI_PATH_MESSAGE, tooLong } from '../../policy/paths.js';
import type { User } from '../../store/state.js';
import { partition, pdel, tdel, tentries, tget, tset, tvalues, type Table } from '../../store/table.js';
import { defineTask, plain, schedule, type Change, type TaskContext } from '../define.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import { dropMemberships } from './memberships.js';
import type { Draft } from 'immer';
import { addEmail, addIdentity, createUser, identityKey, tokensOf, type UserInput } from './rules.js';
import { activateBlocked, blockSelf, emailTaken, refused, unblockDeactivated, usernameTaken } from './errors.js';
import { NON_INTERNAL_TYPES } from './finder.js';

/** The attributes POST and PUT /users take (lib/api/users.rb :optional_attributes). */
export interface UserAttributes {
  email?: string;
  name?: string;
  username?: string;
  password?: string;
  reset_password?: boolean;
  force_random_password?: boolean;
  skip_confirmation?: boolean;
  skip_reconfirmation?: boolean;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  discord?: string;
  website_url?: string;
  organization?: string;
  projects_limit?: number;
  extern_uid?: string;
  provider?: string;
  bio?: string | null;
  location?: string;
  pronouns?: string;
  public_email?: string;
  commit_email?: string;
  admin?: boolean;
  auditor?: boolean;
  can_create_group?: boolean;
  external?: boolean;
  theme_id?: number;
  color_scheme_id?: number;
  private_profile?: boolean | null;
  note?: string;
  job_title?: string;
  shared_runners_minutes_limit?: number | null;
  extra_shared_runners_minutes_limit?: number | null;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;
const THEMES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
const COLOR_SCHEMES = new Set([1, 2, 3, 4, 5, 6]);
/** A few of the most common passwords (config/weak_password_digests.yml holds thousands). */
const COMMON_PASSWORDS = new Set([
  'password', 'password1', 'password123', '12345678', '123456789', '1234567890', 'qwertyui', 'qwerty123', 'iloveyou',
  'abc12345', 'letmein1', 'welcome1', 'sunshine', 'football', 'baseball', 'princess', 'admin123', 'trustno1',
]);

/** Security::WeakPasswords: common passwords, "gitlab", and the user's own names. */
/**
 * Security::WeakPasswords.weak_for_user?: a password on the weak list, or one (under 64
 * characters) holding `gitlab`, `devops`, or a part of 4+ characters of the user's name,
 * username or email: each in full, split on what is not a letter or digit, and the email's
 * local part and domain.
 */
export function isWeakPassword(password: string, u: { username?: string; name?: string; email?: string }): boolean {
  const p = password.toLowerCase();
  if (COMMON_PASSWORDS.has(p)) return true;
  if (password.length >= 64) return false; // PASSWORD_SUBSTRING_CHECK_MAX_LENGTH
  const parts = (text: string | undefined, extra: string[] = []) => (text ? [text, ...extra, ...text.split(/[^\p{L}\p{N}]/u)] : []);
  const words = ['gitlab', 'devops', ...parts(u.name), ...parts(u.username), ...parts(u.email, u.email?.split('@') ?? [])];
  return words.some((w) => w.length >= 4 && p.includes(w.toLowerCase()));
}

type Errors = Record<string, string[]>;
const add = (errors: Errors, key: string, text: string) => (errors[key] ??= []).push(text);

/** User's validations on the attributes being set. */
function validate(state: State, a: UserAttributes, existing: User | undefined): Errors {
  const errors: Errors = {};
  if (a.name !== undefined) {
    if (a.name.trim() === '') add(errors, 'name', "can't be blank");
    if (a.name.length > 255) add(errors, 'name', tooLong(255));
  }
  if (a.username !== undefined) {
    if (a.username === '') add(errors, 'username', "can't be blank");
    else {
      if (a.username.length > 255) add(errors, 'username', tooLong(255));
      if (!isValidNamespacePath(a.username)) add(errors, 'username', NAMESPACE_PATH_MESSAGE);
      if (!isOciPath(a.username)) add(errors, 'username', OCI_PATH_MESSAGE);
      if (isReservedTopLevel(a.username)) add(errors, 'username', `${a.username} is a reserved name`);
      else {
        const taken = tget(state.paths, a.username.toLowerCase());
        if (taken && !(existing && taken.kind === 'namespace' && taken.id === existing.namespaceId)) add(errors, 'username', 'has already been taken');
      }
    }
  }
  if (a.email !== undefined && !EMAIL.test(a.email)) add(errors, 'email', 'is invalid');
  if (a.password !== undefined) {
    if (a.password.length < 8) add(errors, 'password', 'is too short (minimum is 8 characters)');
    else if (a.password.length > 128) add(errors, 'password', 'is too long (maximum is 128 characters)');
    else if (isWeakPassword(a.password, { username: a.username ?? existing?.username, name: a.name ?? existing?.name, email: a.email ?? existing?.email }))
      add(errors, 'password', 'must not contain commonly used combinations of words and letters');
  }
  if (a.bio && a.bio.length > 255) add(errors, 'bio', tooLong(255));
  if (a.projects_limit !== undefined && a.projects_limit < 0) add(errors, 'projects_limit', 'must be greater than or equal to 0');
  if (a.projects_limit !== undefined && a.projects_limit > 2147483647) add(errors, 'projects_limit', 'must be less than or equal to 2147483647');
  if (a.theme_id !== undefined && !THEMES.has(a.theme_id)) add(errors, 'theme_id', 'is not included in the list');
  if (a.color_scheme_id !== undefined && !COLOR_SCHEMES.has(a.color_scheme_id)) add(errors, 'color_scheme_id', 'is not included in the list');
  if (a.note !== undefined && a.note.length > 1000) add(errors, 'note', tooLong(1000));
  for (const k of ['skype', 'linkedin', 'twitter', 'website_url', 'location', 'organization', 'job_title'] as const)
    if ((a[k]?.length ?? 0) > 500) add(errors, k, tooLong(500));
  if (a.pronouns !== undefined && a.pronouns.length > 50) add(errors, 'pronouns', tooLong(50));
  if (a.discord !== undefined && a.discord !== '' && !/^\d{17,20}$/.test(a.discord)) add(errors, 'discord', 'must contain only a discord user ID.');
  if (a.shared_runners_minutes_limit != null && a.shared_runners_minutes_limit < 0)
    add(errors, 'shared_runners_minutes_limit', 'must be greater than or equal to 0');
  if (a.extra_shared_runners_minutes_limit != null && a.extra_shared_runners_minutes_limit < 0)
    add(errors, 'extra_shared_runners_minutes_limit', 'must be greater than or equal to 0');
  if (existing) {
    const verified = verifiedEmails(state, existing);
    if (a.public_email !== undefined && a.public_email !== '' && !verified.has(a.public_email.toLowerCase()))
      add(errors, 'public_email', 'is not an email you own');
    if (a.commit_email !== undefined && a.commit_email !== '' && a.commit_email !== '_private' && !verified.has(a.commit_email.toLowerCase()))
      add(errors, 'commit_email', 'is not an email you own');
  } else {
    if (a.public_email && a.public_email.toLowerCase() !== a.email?.toLowerCase()) add(errors, 'public_email', 'is not an email you own');
    if (a.commit_email && a.commit_email !== '_private' && a.commit_email.toLowerCase() !== a.email?.toLowerCase())
      add(errors, 'commit_email', 'is not an email you own');
  }
  return errors;
}

/** The primary email and the confirmed secondary ones, lower-cased. */
export function verifiedEmails(state: State, user: User): Set<string> {
  const out = new Set([user.email.toLowerCase()]);
  const t = tget(state.userEmails, user.id);
  if (t) for (const e of tvalues(t)) if (e.confirmedAt !== null) out.add(e.email.toLowerCase());
  return out;
}

/** Another user holds this address (primary, or a confirmed secondary): GitLab's 409. */
function emailHeldByOther(state: State, email: string, userId?: number): boolean {
  const owner = tget(state.emailOwners, email.toLowerCase());
  if (owner === undefined || owner === userId) return false;
  const user = tget(state.users, owner);
  if (!user) return false;
  return verifiedEmails(state, user).has(email.toLowerCase());
}

/** POST /users: 409 for a taken email or username (case-insensitive), else the validations' 400. */
export function newUser(state: State, a: UserAttributes & { email: string; name: string; username: string }, creator: User, now: number): Change<User> {
  const errors = validate(state, a, undefined);
  if (Object.keys(errors).length) {
    if (emailHeldByOther(state, a.email)) throw emailTaken();
    if (tget(state.usernames, a.username.toLowerCase()) !== undefined) throw usernameTaken();
    throw validationFailed(errors);
  }
  if (emailHeldByOther(state, a.email)) throw emailTaken();
  if (tget(state.usernames, a.username.toLowerCase()) !== undefined) throw usernameTaken();
  const unconfirmedOwner = tget(state.emailOwners, a.email.toLowerCase());
  if (unconfirmedOwner !== undefined) throw validationFailed({ email: ['has already been taken'] });
  return (draft) => {
    const input: UserInput = {
      username: a.username,
      name: a.name,
      email: a.email,
      admin: a.admin ?? false,
      auditor: draft.instance.tier !== 'free' ? a.auditor ?? false : false,
      external: a.external ?? false,
      bio: a.bio ?? '',
      location: a.location,
      organization: a.organization,
      job_title: a.job_title,
      website_url: a.website_url,
      skype: a.skype,
      linkedin: a.linkedin,
      twitter: a.twitter,
      discord: a.discord,
      pronouns: a.pronouns,
      note: a.note,
      theme_id: a.theme_id,
      color_scheme_id: a.color_scheme_id,
      private_profile: a.private_profile ?? undefined,
      projects_limit: a.projects_limit,
      can_create_group: a.can_create_group,
      created_by_id: creator.id,
      public_email: a.public_email || null,
      // Without skip_confirmation the new user is sent a confirmation email and is unconfirmed until then.
      confirmed: a.skip_confirmation === true,
    };
    const user = createUser(draft, input, now);
    if (a.commit_email) user.commitEmail = a.commit_email;
    if (a.shared_runners_minutes_limit !== undefined) user.sharedRunnersMinutesLimit = a.shared_runners_minutes_limit;
    if (a.extra_shared_runners_minutes_limit !== undefined) user.extraSharedRunnersMinutesLimit = a.extra_shared_runners_minutes_limit;
    if (a.extern_uid !== undefined && a.provider !== undefined) addIdentity(draft, user.id, a.provider, a.extern_uid, now);
    return plain(user);
  };
}

/** PUT /users/:id (Users::UpdateService). */
export function changeUser(state: State, user: User, a: UserAttributes, actor: User, now: number): Change<User> {
  if (a.email !== undefined && emailHeldByOther(state, a.email, user.id)) throw emailTaken();
  if (a.username !== undefined) {
    const owner = tget(state.usernames, a.username.toLowerCase());
    if (owner !== undefined && owner !== user.id) throw usernameTaken();
  }
  const errors = validate(state, a, user);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return (draft) => {
    const u = tget(draft.users, user.id)!;
    if (a.name !== undefined) u.name = a.name;
    if (a.username !== undefined && a.username !== u.username) renameUser(draft, u, a.username, now);
    // The primary email becomes one of the user's confirmed addresses at once; any other waits
    // for its confirmation as unconfirmed_email, unless told to skip it.
    if (a.email !== undefined && a.email.toLowerCase() !== u.email.toLowerCase()) {
      if (a.skip_reconfirmation || verifiedEmails(draft, plain(u)).has(a.email.toLowerCase())) setPrimaryEmail(draft, u, a.email, now);
      else u.unconfirmedEmail = a.email;
    }
    const strings = { skype: 'skype', linkedin: 'linkedin', twitter: 'twitter', discord: 'discord', website_url: 'websiteUrl', organization: 'organization', location: 'location', job_title: 'jobTitle' } as const;
    for (const [k, field] of Object.entries(strings)) {
      const v = a[k as keyof typeof strings];
      if (v !== undefined) u[field] = v;
    }
    if ('bio' in a) u.bio = a.bio ?? '';
    if (a.pronouns !== undefined) u.pronouns = a.pronouns;
    if (a.note !== undefined) u.note = a.note;
    if (a.projects_limit !== undefined) u.projectsLimit = a.projects_limit;
    if (a.admin !== undefined) u.admin = a.admin;
    if (a.auditor !== undefined && draft.instance.tier !== 'free') u.auditor = a.auditor;
    if (a.can_create_group !== undefined) u.canCreateGroup = a.can_create_group;
    if (a.external !== undefined) u.external = a.external;
    if (a.theme_id !== undefined) u.themeId = a.theme_id;
    if (a.color_scheme_id !== undefined) u.colorSchemeId = a.color_scheme_id;
    if (a.private_profile !== undefined) u.privateProfile = a.private_profile ?? draft.instance.settings.user_defaults_to_private_profile;
    if (a.public_email !== undefined) u.publicEmail = a.public_email === '' ? null : a.public_email;
    if (a.commit_email !== undefined) u.commitEmail = a.commit_email === '' ? null : a.commit_email;
    if (a.shared_runners_minutes_limit !== undefined) u.sharedRunnersMinutesLimit = a.shared_runners_minutes_limit;
    if (a.extra_shared_runners_minutes_limit !== undefined) u.extraSharedRunnersMinutesLimit = a.extra_shared_runners_minutes_limit;
    if (a.password !== undefined && actor.id !== user.id) u.passwordExpiresAt = now;
    if (a.extern_uid !== undefined && a.provider !== undefined) addIdentity(draft, u.id, a.provider, a.extern_uid, now);
    u.updatedAt = now;
    return plain(u);
  };
}

/** User#update_emails_with_primary_email: the new address leaves the secondary list, the old one joins it. */
function setPrimaryEmail(draft: State, u: User, email: string, now: number): void {
  const old = u.email;
  u.email = email;
  u.unconfirmedEmail = null;
  tset(draft.emailOwners, email.toLowerCase(), u.id);
  const emails = partition(draft.userEmails, u.id);
  for (const e of tvalues(emails)) if (e.email.toLowerCase() === email.toLowerCase()) tdel(emails, e.id);
  addEmail(draft, u.id, old, now, now);
}

/** A new username moves the personal namespace and its path. */
function renameUser(draft: State, u: User, username: string, now: number): void {
  emit(draft, { kind: 'user.renamed', userId: u.id, oldUsername: u.username });
  tdel(draft.usernames, u.username.toLowerCase());
  tset(draft.usernames, username.toLowerCase(), u.id);
  const ns = tget(draft.namespaces, u.namespaceId);
  if (ns) {
    tdel(draft.paths, ns.fullPath.toLowerCase());
    ns.path = username;
    ns.fullPath = username;
    ns.updatedAt = now;
    tset(draft.paths, username.toLowerCase(), { kind: 'namespace', id: ns.id });
    for (const p of tvalues(draft.projects)) {
      if (p.namespaceId !== ns.id) continue;
      const old = `${u.username}/${p.path}`.toLowerCase();
      const entry = tget(draft.paths, old);
      if (entry) {
        tdel(draft.paths, old);
        tset(draft.paths, `${username}/${p.path}`.toLowerCase(), entry);
      }
    }
  }
  u.username = username;
}

// ---- State changes (POST /users/:id/block and the like): each answers `true` or a refusal ----

const MINIMUM_INACTIVE_DAYS = 90;

export type StateAction = 'block' | 'unblock' | 'deactivate' | 'activate' | 'ban' | 'unban' | 'approve' | 'reject';

/**
 * What the action does to the user: the new state, `null` for "nothing to do" (the API's
 * `break`, a 201 with `null`), `false` for a transition that does not apply; or a refusal.
 */
export function stateChange(user: User, action: StateAction, actor: User, now: number): User['state'] | null | false {
  const internal = !NON_INTERNAL_TYPES.has(user.userType);
  switch (action) {
    case 'block':
      if (user.id === actor.id) throw blockSelf();
      if (user.state === 'blocked') return null;
      if (internal) throw refused(403, 'An internal user cannot be blocked');
      return 'blocked';
    case 'unblock':
      if (user.state === 'deactivated') throw unblockDeactivated();
      return user.state === 'blocked' || user.state === 'blocked_pending_approval' ? 'active' : false;
    case 'deactivate': {
      if (user.state === 'blocked' || user.state === 'banned') throw refused(403, 'Error occurred. A blocked user cannot be deactivated');
      if (internal) throw refused(403, 'Internal users cannot be deactivated');
      if (user.state === 'deactivated') return null;
      const cutoff = new Date(now - MINIMUM_INACTIVE_DAYS * 86_400_000).toISOString().slice(0, 10);
      if (user.lastActivityOn !== null && user.lastActivityOn > cutoff)
        throw refused(403, `The user you are trying to deactivate has been active in the past ${MINIMUM_INACTIVE_DAYS} days and cannot be deactivated`);
      return 'deactivated';
    }
    case 'activate':
      if (user.state === 'blocked' || user.state === 'banned') throw activateBlocked();
      return user.state === 'deactivated' ? 'active' : false;
    case 'ban':
      if (user.state !== 'active') throw refused(403, `You cannot ban ${user.state} users.`);
      return 'banned';
    case 'unban':
      if (user.state !== 'banned') throw refused(403, `You cannot unban ${user.state} users.`);
      return 'active';
    case 'approve':
      if (user.state !== 'blocked_pending_approval') throw refused(403, 'The user you are trying to approve is not pending approval');
      return 'active';
    case 'reject':
      if (user.state !== 'blocked_pending_approval') throw refused(403, 'User does not have a pending request');
      return 'blocked_pending_approval';
  }
}

export function setState(user: User, next: User['state'], now: number): Change {
  return (draft) => {
    const u = tget(draft.users, user.id)!;
    u.state = next;
    u.updatedAt = now;
  };
}

// ---- Deletion: DELETE /users/:id schedules DeleteUserWorker on the clock ----

export const DESTROY_USER = defineTask<{ userId: number; hard: boolean; projectIds: number[] }>('user.destroy', (draft, p, ctx) =>
  destroyUser(draft, p.userId, ctx, p.projectIds),
);

export function scheduleUserDeletion(state: State, user: User, hard: boolean, now: number): Change {
  // The personal projects go with the user (Users::DestroyService).
  const projectIds: number[] = [];
  for (const p of tvalues(state.projects)) if (p.namespaceId === user.namespaceId) projectIds.push(p.id);
  return (draft) => {
    emit(draft, { kind: 'user.destroyed', userId: user.id, username: user.username, name: user.name });
    schedule(draft, DESTROY_USER, now, { userId: user.id, hard, projectIds });
  };
}

/** Removes what a reject or a deletion removes: the user, their credentials, memberships and namespace. */
export function destroyUser(draft: Draft<State>, userId: number, ctx: TaskContext, projectIds: number[] = []): void {
  const d = draft as State;
  const user = tget(d.users, userId);
  if (!user) return;
  for (const id of projectIds) destroyPersonalProject(d, id, ctx);
  for (const t of tokensOf(d, userId)) {
    tdel(d.tokens, t.token);
    tdel(d.tokenIds, t.id);
  }
  tdel(d.userTokens, userId);
  for (const [k, v] of [...tentries(d.sessions)]) if (v === userId) tdel(d.sessions, k);
  dropMemberships(d, userId);
  if (tget(d.emailOwners, user.email.toLowerCase()) === userId) tdel(d.emailOwners, user.email.toLowerCase());
  const emails = tget(d.userEmails, userId);
  if (emails) for (const e of tvalues(emails)) if (tget(d.emailOwners, e.email.toLowerCase()) === userId) tdel(d.emailOwners, e.email.toLowerCase());
  const ids = tget(d.identities, userId);
  if (ids) for (const i of tvalues(ids)) tdel(d.identityOwners, identityKey(i.provider, i.externUid));
  for (const table of [d.userEmails, d.identities, d.scimIdentities, d.customAttributes, d.sshKeys, d.gpgKeys] as Table<unknown>[]) tdel(table, userId);
  const followees = tget(d.followees, userId);
  if (followees) for (const [k] of tentries(followees)) pdel(d.followers, Number(k), userId);
  const followers = tget(d.followers, userId);
  if (followers) for (const [k] of tentries(followers)) pdel(d.followees, Number(k), userId);
  tdel(d.followees, userId);
  tdel(d.followers, userId);
  tdel(d.statuses, userId);
  tdel(d.preferences, userId);
  const ns = tget(d.namespaces, user.namespaceId);
  if (ns) {
    if (tget(d.paths, ns.fullPath.toLowerCase())?.id === ns.id) tdel(d.paths, ns.fullPath.toLowerCase());
    tdel(d.namespaces, ns.id);
  }
  tdel(d.usernames, user.username.toLowerCase());
  tdel(d.users, userId);
}

/** A personal project of a deleted user: its path, its name and every family's data go with it. */
function destroyPersonalProject(d: State, id: number, ctx: TaskContext): void {
  const project = tget(d.projects, id);
  if (!project) return;
  const ns = tget(d.namespaces, project.namespaceId);
  if (ns) {
    const key = `${ns.fullPath}/${project.path}`.toLowerCase();
    if (tget(d.paths, key)?.id === id) tdel(d.paths, key);
  }
  const nameKey = `${project.namespaceId}/${project.name}`;
  if (tget(d.projectNames, nameKey) === id) tdel(d.projectNames, nameKey);
  tdel(d.projects, id);
  ctx.forget('project', id, d as Draft<State>);
}
