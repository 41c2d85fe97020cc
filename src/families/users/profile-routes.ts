// The everyday neighbours of a user (lib/api/users.rb): activities, status, emails, SSH and GPG
// keys, followers; each for the caller under /user and, for administrators, under /users/:id.
import { emit } from '../stream.js';
import { hash53 } from '../../core/hash.js';
import { notFound, validationFailed } from '../../core/errors.js';
import { bool, datetime, int, str } from '../../http/params.js';
import { accepted, created, json, noContent } from '../../http/route.js';
import { today } from '../../policy/access.js';
import { partition, pdel, pget, plist, pset, tdel, tentries, tget, tset, tvalues } from '../../store/table.js';
import type { User } from '../../store/state.js';
import { route, type Context } from '../define.js';
import { activityEntity, canReadProfile, emailEntity, gpgKeyEntity, sshKeyEntity, statusEntity, userListItem } from './entity.js';
import type { GpgKey, Preferences, SshKey, UserStatus } from './records.js';
import { adminUser, readsProfile, userById, visibleUser, visibleUserToSignedIn } from './resolvers.js';
import { view } from './routes.js';
import { addEmail, userIds } from './rules.js';

const SIX_MONTHS_MS = 183 * 86_400_000;

// ---- Emails ----

const EMAIL = /^[^@\s]+@[^@\s]+$/;

function createEmail(ctx: Context, user: User, email: string, skipConfirmation: boolean) {
  const errors: Record<string, string[]> = {};
  if (!EMAIL.test(email)) errors.email = ['is invalid'];
  else if (tget(ctx.state.emailOwners, email.toLowerCase()) !== undefined) errors.email = ['has already been taken'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const now = ctx.now();
  return ctx.update((draft) => addEmail(draft, user.id, email, skipConfirmation ? now : null, now));
}

function deleteEmail(ctx: Context, user: User, emailId: number) {
  const email = pget(ctx.state.userEmails, user.id, emailId);
  if (!email) throw notFound('Email');
  ctx.update((draft) => {
    pdel(draft.userEmails, user.id, emailId);
    // The address is free again.
    if (tget(draft.emailOwners, email.email.toLowerCase()) === user.id) tdel(draft.emailOwners, email.email.toLowerCase());
    const u = tget(draft.users, user.id)!;
    if (u.publicEmail?.toLowerCase() === email.email.toLowerCase()) u.publicEmail = null;
    if (u.commitEmail?.toLowerCase() === email.email.toLowerCase()) u.commitEmail = null;
  });
  return noContent();
}

// ---- SSH keys ----

const KEY_TYPES = /^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+={0,3}( .*)?$/;

/** What tells two keys apart (the key's type and body, not its comment). */
const fingerprint = (key: string): string => hash53(key.split(' ').slice(0, 2).join(' '));

function createSshKey(ctx: Context, user: User, p: { key: string; title: string; expires_at?: number; usage_type?: SshKey['usageType'] }) {
  const key = p.key.trim();
  const errors: Record<string, string[]> = {};
  if (p.title.trim() === '') errors.title = ["can't be blank"];
  else if (p.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (!KEY_TYPES.test(key)) errors.key = ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'];
  else {
    const fp = fingerprint(key);
    for (const owner of tvalues(ctx.state.sshKeys)) for (const k of tvalues(owner)) if (k.fingerprint === fp) errors.fingerprint_sha256 = ['has already been taken'];
  }
  if (p.expires_at !== undefined && p.expires_at <= ctx.now()) errors.expires_at = ['must be in the future'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const now = ctx.now();
  return ctx.update((draft) => {
    const record: SshKey = {
      id: userIds.next(draft, 'ssh_key'),
      userId: user.id,
      title: p.title,
      key,
      fingerprint: fingerprint(key),
      usageType: p.usage_type ?? 'auth_and_signing',
      createdAt: now,
      expiresAt: p.expires_at ?? null,
    };
    pset(draft.sshKeys, user.id, record.id, record);
    emit(draft, { kind: 'key.created', userId: user.id, keyId: record.id });
    return record;
  });
}

/** Keys::DestroyService: the key goes, and the system hooks hear of it. */
function dropSshKey(ctx: Context, userId: number, keyId: number): void {
  ctx.update((draft) => {
    pdel(draft.sshKeys, userId, keyId);
    emit(draft, { kind: 'key.destroyed', userId, keyId });
  });
}

const SSH_PARAMS = {
  key: str().required(),
  title: str().required(),
  expires_at: datetime(),
  usage_type: str().values(['auth', 'signing', 'auth_and_signing'] as const).default('auth_and_signing'),
};

// ---- GPG keys ----

function createGpgKey(ctx: Context, user: User, key: string) {
  if (!/-----BEGIN PGP PUBLIC KEY BLOCK-----[\s\S]+-----END PGP PUBLIC KEY BLOCK-----/.test(key))
    throw validationFailed({ key: ['does not look like a valid PGP public key'] });
  const now = ctx.now();
  return ctx.update((draft) => {
    const record: GpgKey = { id: userIds.next(draft, 'gpg_key'), userId: user.id, key, createdAt: now, revoked: false };
    pset(draft.gpgKeys, user.id, record.id, record);
    return record;
  });
}

const gpgKeysOf = (ctx: Context, user: User) => plist(ctx.state.gpgKeys, user.id).filter((k) => !k.revoked);

// ---- Status ----

const CLEAR_AFTER: Record<string, number> = {
  '30_minutes': 30 * 60_000, '3_hours': 3 * 3_600_000, '8_hours': 8 * 3_600_000, '1_day': 86_400_000,
  '3_days': 3 * 86_400_000, '7_days': 7 * 86_400_000, '30_days': 30 * 86_400_000,
};

const STATUS_PARAMS = {
  emoji: str(),
  message: str(),
  availability: str(),
  clear_status_after: str().values(Object.keys(CLEAR_AFTER)),
};

/** Users::SetStatusService: PUT clears what it is not given, PATCH keeps it. */
function setStatus(ctx: Context, p: { emoji?: string; message?: string; availability?: string; clear_status_after?: string }, keepMissing: boolean) {
  const user = ctx.user!;
  if (p.message !== undefined && p.message.length > 100) throw validationFailed({ message: ['is too long (maximum is 100 characters)'] });
  if (p.availability !== undefined && !['not_set', 'busy'].includes(p.availability)) throw validationFailed({ availability: ['is not included in the list'] });
  const old = tget(ctx.state.statuses, user.id);
  const pick = <T>(given: T | undefined, kept: T | undefined, fallback: T): T => (given !== undefined ? given : keepMissing && kept !== undefined ? kept : fallback);
  const now = ctx.now();
  const status: UserStatus = {
    emoji: pick(p.emoji, old?.emoji ?? undefined, null) ?? (p.message ? 'speech_balloon' : null),
    message: pick(p.message, old?.message ?? undefined, null),
    availability: pick(p.availability as UserStatus['availability'] | undefined, old?.availability, 'not_set'),
    clearStatusAt: p.clear_status_after ? now + CLEAR_AFTER[p.clear_status_after]! : keepMissing ? old?.clearStatusAt ?? null : null,
  };
  ctx.update((draft) => tset(draft.statuses, user.id, status));
  return json(statusEntity(status));
}

/** A status past its clear_status_at is no status. */
function currentStatus(ctx: Context, userId: number): UserStatus | undefined {
  const s = tget(ctx.state.statuses, userId);
  return s && (s.clearStatusAt === null || s.clearStatusAt > ctx.now()) ? s : undefined;
}

// ---- Preferences ----

const DEFAULT_PREFERENCES: Preferences = { viewDiffsFileByFile: false, showWhitespaceInDiffs: true, passUserIdentitiesToCiJwt: false };
const preferencesOf = (ctx: Context, userId: number) => tget(ctx.state.preferences, userId) ?? DEFAULT_PREFERENCES;

/** Entities::UserPreferences (its id is the user's: one record each). */
const preferencesEntity = (user: User, p: Preferences) => ({
  id: user.id,
  user_id: user.id,
  view_diffs_file_by_file: p.viewDiffsFileByFile,
  show_whitespace_in_diffs: p.showWhitespaceInDiffs,
  pass_user_identities_to_ci_jwt: p.passUserIdentitiesToCiJwt,
});

// ---- Follows ----

const following = (ctx: Context, follower: number, followee: number) => pget(ctx.state.followees, follower, followee) !== undefined;

function idsOf(ctx: Context, table: 'followers' | 'followees', userId: number): User[] {
  const t = tget(ctx.state[table], userId);
  if (!t) return [];
  const out: User[] = [];
  for (const [k] of tentries(t)) {
    const u = tget(ctx.state.users, Number(k));
    if (u) out.push(u);
  }
  return out.sort((a, b) => a.id - b.id);
}

const keyId = { key_id: int().required() };

export const profileRoutes = [
  // ---- Activities ----
  route({
    method: 'GET',
    path: '/user/activities',
    auth: 'user',
    paginated: true,
    params: { from: datetime() },
    handler: (ctx) => {
      const from = today(ctx.params.from ?? ctx.now() - SIX_MONTHS_MS);
      const admin = ctx.user!.admin;
      const list: User[] = [];
      for (const u of tvalues(ctx.state.users)) {
        if (u.lastActivityOn === null || u.lastActivityOn < from) continue;
        if (!admin && !canReadProfile(ctx.user, u)) continue;
        list.push(u);
      }
      list.sort((a, b) => (a.lastActivityOn! < b.lastActivityOn! ? -1 : a.lastActivityOn! > b.lastActivityOn! ? 1 : a.id - b.id));
      return json(ctx.paginate(list).map(activityEntity));
    },
  }),

  // ---- Preferences ----
  route({ method: 'GET', path: '/user/preferences', auth: 'user', handler: (ctx) => json(preferencesEntity(ctx.user!, preferencesOf(ctx, ctx.user!.id))) }),
  route({
    method: 'PUT',
    path: '/user/preferences',
    auth: 'user',
    params: { view_diffs_file_by_file: bool(), show_whitespace_in_diffs: bool(), pass_user_identities_to_ci_jwt: bool() },
    constraints: [{ kind: 'at_least_one_of', names: ['view_diffs_file_by_file', 'show_whitespace_in_diffs', 'pass_user_identities_to_ci_jwt'] }],
    handler: (ctx) => {
      const p = ctx.params;
      const old = preferencesOf(ctx, ctx.user!.id);
      const next: Preferences = {
        viewDiffsFileByFile: p.view_diffs_file_by_file ?? old.viewDiffsFileByFile,
        showWhitespaceInDiffs: p.show_whitespace_in_diffs ?? old.showWhitespaceInDiffs,
        passUserIdentitiesToCiJwt: p.pass_user_identities_to_ci_jwt ?? old.passUserIdentitiesToCiJwt,
      };
      ctx.update((draft) => tset(draft.preferences, ctx.user!.id, next));
      return json(preferencesEntity(ctx.user!, next));
    },
  }),

  // ---- Status ----
  route({ method: 'GET', path: '/user/status', auth: 'user', handler: (ctx) => json(statusEntity(currentStatus(ctx, ctx.user!.id))) }),
  route({ method: 'PUT', path: '/user/status', auth: 'user', params: STATUS_PARAMS, handler: (ctx) => setStatus(ctx, ctx.params, false) }),
  route({
    method: 'PATCH',
    path: '/user/status',
    auth: 'user',
    params: STATUS_PARAMS,
    handler: (ctx) => (Object.values(ctx.params).every((v) => v === undefined) ? json(null) : setStatus(ctx, ctx.params, true)),
  }),
  route({
    method: 'GET',
    path: '/users/:user_id/status',
    params: { user_id: str().required() },
    subject: visibleUser('user_id'),
    handler: (ctx) => json(statusEntity(currentStatus(ctx, ctx.subject.id))),
  }),

  // ---- Emails ----
  route({ method: 'GET', path: '/user/emails', auth: 'user', paginated: true, handler: (ctx) => json(ctx.paginate(plist(ctx.state.userEmails, ctx.user!.id)).map(emailEntity)) }),
  route({
    method: 'GET',
    path: '/user/emails/:email_id',
    auth: 'user',
    params: { email_id: int().required() },
    handler: (ctx) => {
      const e = pget(ctx.state.userEmails, ctx.user!.id, ctx.params.email_id);
      if (!e) throw notFound('Email');
      return json(emailEntity(e));
    },
  }),
  route({
    method: 'POST',
    path: '/user/emails',
    auth: 'user',
    params: { email: str().required() },
    handler: (ctx) => created(emailEntity(createEmail(ctx, ctx.user!, ctx.params.email, false))),
  }),
  route({ method: 'DELETE', path: '/user/emails/:email_id', auth: 'user', params: { email_id: int().required() }, handler: (ctx) => deleteEmail(ctx, ctx.user!, ctx.params.email_id) }),
  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}/emails',
    auth: 'user',
    paginated: true,
    params: { id: int().required() },
    subject: adminUser('id'),
    handler: (ctx) => json(ctx.paginate(plist(ctx.state.userEmails, ctx.subject.id)).map(emailEntity)),
  }),
  route({
    method: 'POST',
    path: '/users/:id{[0-9]+}/emails',
    auth: 'user',
    params: { id: int().required(), email: str().required(), skip_confirmation: bool() },
    subject: adminUser('id'),
    handler: (ctx) => created(emailEntity(createEmail(ctx, ctx.subject, ctx.params.email, !!ctx.params.skip_confirmation))),
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}/emails/:email_id',
    auth: 'user',
    params: { id: int().required(), email_id: int().required() },
    subject: adminUser('id'),
    handler: (ctx) => deleteEmail(ctx, ctx.subject, ctx.params.email_id),
  }),

  // ---- SSH keys ----
  route({ method: 'GET', path: '/user/keys', auth: 'user', paginated: true, handler: (ctx) => json(ctx.paginate(plist(ctx.state.sshKeys, ctx.user!.id)).map(sshKeyEntity)) }),
  route({
    method: 'GET',
    path: '/user/keys/:key_id',
    auth: 'user',
    params: keyId,
    handler: (ctx) => {
      const k = pget(ctx.state.sshKeys, ctx.user!.id, ctx.params.key_id);
      if (!k) throw notFound('Key');
      return json(sshKeyEntity(k));
    },
  }),
  route({ method: 'POST', path: '/user/keys', auth: 'user', params: SSH_PARAMS, handler: (ctx) => created(sshKeyEntity(createSshKey(ctx, ctx.user!, ctx.params))) }),
  route({
    method: 'DELETE',
    path: '/user/keys/:key_id',
    auth: 'user',
    params: keyId,
    handler: (ctx) => {
      if (!pget(ctx.state.sshKeys, ctx.user!.id, ctx.params.key_id)) throw notFound('Key');
      dropSshKey(ctx, ctx.user!.id, ctx.params.key_id);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/users/:user_id/keys',
    paginated: true,
    params: { user_id: str().required() },
    subject: visibleUser('user_id'),
    handler: (ctx) => json(ctx.paginate(plist(ctx.state.sshKeys, ctx.subject.id)).map(sshKeyEntity)),
  }),
  route({
    method: 'GET',
    path: '/users/:id/keys/:key_id',
    params: { id: str().required(), ...keyId },
    subject: visibleUser('id'),
    handler: (ctx) => {
      const k = pget(ctx.state.sshKeys, ctx.subject.id, ctx.params.key_id);
      if (!k) throw notFound('Key');
      return json(sshKeyEntity(k));
    },
  }),
  route({
    method: 'POST',
    path: '/users/:user_id{[0-9]+}/keys',
    auth: 'user',
    params: { user_id: int().required(), ...SSH_PARAMS },
    subject: adminUser('user_id'),
    handler: (ctx) => created(sshKeyEntity(createSshKey(ctx, ctx.subject, ctx.params))),
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}/keys/:key_id',
    auth: 'user',
    params: { id: int().required(), ...keyId },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      if (!pget(ctx.state.sshKeys, user.id, ctx.params.key_id)) throw notFound('Key');
      dropSshKey(ctx, user.id, ctx.params.key_id);
      return noContent();
    },
  }),

  // ---- GPG keys ----
  route({ method: 'GET', path: '/user/gpg_keys', auth: 'user', paginated: true, handler: (ctx) => json(ctx.paginate(gpgKeysOf(ctx, ctx.user!)).map(gpgKeyEntity)) }),
  route({ method: 'POST', path: '/user/gpg_keys', auth: 'user', params: { key: str().required() }, handler: (ctx) => created(gpgKeyEntity(createGpgKey(ctx, ctx.user!, ctx.params.key))) }),
  route({
    method: 'GET',
    path: '/user/gpg_keys/:key_id',
    auth: 'user',
    params: keyId,
    handler: (ctx) => {
      const k = pget(ctx.state.gpgKeys, ctx.user!.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      return json(gpgKeyEntity(k));
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/gpg_keys/:key_id',
    auth: 'user',
    params: keyId,
    handler: (ctx) => {
      const k = pget(ctx.state.gpgKeys, ctx.user!.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      ctx.update((draft) => void pdel(draft.gpgKeys, ctx.user!.id, ctx.params.key_id));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/user/gpg_keys/:key_id/revoke',
    auth: 'user',
    params: keyId,
    handler: (ctx) => {
      const k = pget(ctx.state.gpgKeys, ctx.user!.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      ctx.update((draft) => void (tget(partition<GpgKey>(draft.gpgKeys, ctx.user!.id), ctx.params.key_id)!.revoked = true));
      return accepted();
    },
  }),
  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}/gpg_keys',
    paginated: true,
    params: { id: int().required() },
    subject: userById('id'),
    handler: (ctx) => json(ctx.paginate(gpgKeysOf(ctx, ctx.subject)).map(gpgKeyEntity)),
  }),
  route({
    method: 'POST',
    path: '/users/:id{[0-9]+}/gpg_keys',
    auth: 'user',
    params: { id: int().required(), key: str().required() },
    subject: adminUser('id'),
    handler: (ctx) => created(gpgKeyEntity(createGpgKey(ctx, ctx.subject, ctx.params.key))),
  }),

  route({
    method: 'GET',
    path: '/users/:id{[0-9]+}/gpg_keys/:key_id',
    params: { id: int().required(), ...keyId },
    subject: userById('id'),
    handler: (ctx) => {
      const k = pget(ctx.state.gpgKeys, ctx.subject.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      return json(gpgKeyEntity(k));
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/:id{[0-9]+}/gpg_keys/:key_id',
    auth: 'user',
    params: { id: int().required(), ...keyId },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const k = pget(ctx.state.gpgKeys, user.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      ctx.update((draft) => void pdel(draft.gpgKeys, user.id, ctx.params.key_id));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/users/:id{[0-9]+}/gpg_keys/:key_id/revoke',
    auth: 'user',
    params: { id: int().required(), ...keyId },
    subject: adminUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const k = pget(ctx.state.gpgKeys, user.id, ctx.params.key_id);
      if (!k || k.revoked) throw notFound('GPG Key');
      ctx.update((draft) => void (tget(partition<GpgKey>(draft.gpgKeys, user.id), ctx.params.key_id)!.revoked = true));
      return accepted();
    },
  }),

  // ---- Follows ----
  route({
    method: 'POST',
    path: '/users/:id{[0-9]+}/follow',
    auth: 'user',
    params: { id: int().required() },
    subject: visibleUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const me = ctx.user!;
      if (user.id === me.id) throw validationFailed({ base: ['You cannot follow yourself'] });
      if (following(ctx, me.id, user.id)) return { status: 304 };
      const now = ctx.now();
      ctx.update((draft) => {
        pset(draft.followees, me.id, user.id, now);
        pset(draft.followers, user.id, me.id, now);
      });
      return created(userListItem(user, view(ctx)));
    },
  }),
  route({
    method: 'POST',
    path: '/users/:id{[0-9]+}/unfollow',
    auth: 'user',
    params: { id: int().required() },
    subject: visibleUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      const me = ctx.user!;
      if (!following(ctx, me.id, user.id)) return { status: 304 };
      ctx.update((draft) => {
        pdel(draft.followees, me.id, user.id);
        pdel(draft.followers, user.id, me.id);
      });
      return created(userListItem(user, view(ctx)));
    },
  }),
  ...(['followers', 'following'] as const).map((which) =>
    route({
      method: 'GET',
      path: `/users/:id{[0-9]+}/${which}`,
      paginated: true,
      params: { id: int().required() },
      subject: visibleUserToSignedIn('id', readsProfile),
      handler: (ctx) => {
        const list = idsOf(ctx, which === 'followers' ? 'followers' : 'followees', ctx.subject.id);
        return json(ctx.paginate(list).map((u) => userListItem(u, view(ctx))));
      },
    }),
  ),
];
