// Users as GitLab renders them (lib/api/entities/user_basic.rb, user.rb, user_public.rb,
// user_with_admin.rb, user_details_with_admin.rb and their EE additions): more fields the more
// the viewer may see. Also the entities of a user's emails, keys, status, memberships, tokens.
import type { Tier, Token, User } from '../../store/state.js';
import { tentries, tget, tvalues } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { today } from '../../policy/access.js';
import type { State } from '../world.js';
import type { Email, GpgKey, SshKey, UserStatus } from './records.js';
import { hexOf, utf8 } from '../../git/bytes.js';
import { sha256Portable } from '../../git/sha256.js';

/** Gravatar hashes by email: every rendered user has one, and hashing each time was per-render work. */
const gravatarHashes = new Map<string, string>();

function gravatarHash(email: string): string {
  let hash = gravatarHashes.get(email);
  if (hash === undefined) {
    if (gravatarHashes.size >= 10_000) gravatarHashes.clear();
    gravatarHashes.set(email, (hash = hexOf(sha256Portable(utf8(email.trim().toLowerCase())))));
  }
  return hash;
}

/**
 * User#avatar_url: the uploaded avatar (`/uploads/-/system/user/avatar/<id>/<file>`), else
 * GravatarService's URL for the email (SHA-256 of it trimmed and lower-cased, 40 px at scale 2).
 */
export function userAvatarUrl(user: User, u: UrlBase): string {
  if (user.avatar) return `${u.webBase}/uploads/-/system/user/avatar/${user.id}/${encodeURIComponent(user.avatar.filename)}`;
  const hash = gravatarHash(user.email);
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

export interface UrlBase {
  webBase: string;
}

/** UserBasic: the user inside other entities (authors, owners, members). */
export function userBasic(user: User, u: UrlBase) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: userAvatarUrl(user, u) as string | null,
    web_url: `${u.webBase}/${user.username}`,
  };
}

function localTime(now: number): string {
  const d = new Date(now);
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** What an entity needs to know of the world and the viewer. */
export interface UserView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
  /** `with_custom_attributes=true` from an administrator. */
  customAttributes?: boolean;
}

const countOf = (state: State, table: 'followers' | 'followees', id: number) => tget(state[table], id)?.size ?? 0;

/** `read_user_profile`: the user themself, an administrator, or anyone for a public profile. */
export function canReadProfile(viewer: User | null, user: User): boolean {
  return !user.privateProfile || (viewer !== null && (viewer.id === user.id || viewer.admin));
}

function withCustomAttributes<T extends object>(entity: T, user: User, v: UserView): T {
  if (!v.customAttributes) return entity;
  const attrs = tget(v.state.customAttributes, user.id);
  const list = attrs ? [...tentries(attrs)].map(([key, value]) => ({ key, value })) : [];
  return { ...entity, custom_attributes: list.sort((a, b) => (a.key < b.key ? -1 : 1)) };
}

/** UserBasic with custom attributes when asked. */
export function userListItem(user: User, v: UserView) {
  return withCustomAttributes(userBasic(user, v), user, v);
}

/** User: GET /users/:id for a signed-in viewer; the profile only when the viewer may read it. */
export function userDetails(user: User, v: UserView) {
  const base = userBasic(user, v);
  const profile = canReadProfile(v.viewer, user)
    ? {
        created_at: iso(user.createdAt),
        bio: user.bio,
        location: user.location,
        public_email: user.publicEmail,
        skype: user.skype,
        linkedin: user.linkedin,
        twitter: user.twitter,
        discord: user.discord,
        website_url: user.websiteUrl,
        organization: user.organization,
        job_title: user.jobTitle,
        pronouns: user.pronouns,
        bot: user.bot,
        work_information: workInformation(user),
        followers: countOf(v.state, 'followers', user.id),
        following: countOf(v.state, 'followees', user.id),
        is_followed: v.viewer ? tget(v.state.followees, v.viewer.id) !== undefined && tget(tget(v.state.followees, v.viewer.id)!, user.id) !== undefined : false,
      }
    : {};
  return { ...base, ...profile, local_time: localTime(v.now) };
}

function workInformation(user: User): string | null {
  if (user.jobTitle && user.organization) return `${user.jobTitle} at ${user.organization}`;
  return user.jobTitle || user.organization || null;
}

const ee = (tier: Tier) => tier !== 'free';

function identities(user: User, v: UserView) {
  const t = tget(v.state.identities, user.id);
  const list = t ? [...tvalues(t)] : [];
  return list.map((i) => ({ provider: i.provider, extern_uid: i.externUid, ...(ee(v.state.instance.tier) ? { saml_provider_id: i.samlProviderId } : {}) }));
}

/** UserPublic: GET /user for the caller. */
export function userPublic(user: User, v: UserView) {
  return {
    ...userDetails(user, { ...v, viewer: user }),
    last_sign_in_at: iso(user.lastSignInAt),
    confirmed_at: iso(user.confirmedAt),
    last_activity_on: user.lastActivityOn,
    email: user.email,
    theme_id: user.themeId,
    color_scheme_id: user.colorSchemeId,
    projects_limit: user.projectsLimit,
    current_sign_in_at: iso(user.currentSignInAt),
    identities: identities(user, v),
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0 && !user.external,
    two_factor_enabled: user.twoFactorEnabled,
    external: user.external,
    private_profile: user.privateProfile,
    commit_email: commitEmail(user),
    preferred_language: 'en',
  };
}

/** `commit_email_or_default`: the chosen address, the private no-reply one, or the primary email. */
export function commitEmail(user: User): string {
  if (user.commitEmail === '_private') return `${user.id}-${user.username}@users.noreply.gitlab.example.com`;
  return user.commitEmail ?? user.email;
}

/** UserWithAdmin: administrators' list items, POST/PUT /users, GET /user for an administrator. */
export function userWithAdmin(user: User, v: UserView) {
  const creator = user.createdById !== null ? tget(v.state.users, user.createdById) : undefined;
  const base = {
    ...userPublic(user, { ...v, viewer: user }),
    is_admin: user.admin,
    note: user.note,
    namespace_id: user.namespaceId,
    created_by: creator ? userBasic(creator, v) : null,
    email_reset_offered_at: null,
  };
  const withTier = ee(v.state.instance.tier)
    ? {
        ...base,
        shared_runners_minutes_limit: user.sharedRunnersMinutesLimit,
        extra_shared_runners_minutes_limit: user.extraSharedRunnersMinutesLimit,
        is_auditor: user.auditor,
        using_license_seat: !user.bot && user.state === 'active',
        provisioned_by_group_id: user.provisionedByGroupId,
        scim_identities: scimIdentities(user, v),
      }
    : base;
  return withCustomAttributes(withTier, user, v);
}

function scimIdentities(user: User, v: UserView) {
  const t = tget(v.state.scimIdentities, user.id);
  return t ? [...tvalues(t)].map((s) => ({ extern_uid: s.externUid, group_id: s.groupId, active: s.active })) : [];
}

/** UserDetailsWithAdmin: GET /users/:id for an administrator. */
export function userDetailsWithAdmin(user: User, v: UserView, highestRole: number) {
  return {
    ...userWithAdmin(user, v),
    highest_role: highestRole,
    current_sign_in_ip: user.currentSignInAt !== null ? '127.0.0.1' : null,
    last_sign_in_ip: user.lastSignInAt !== null ? '127.0.0.1' : null,
    sign_in_count: user.signInCount,
    ...(ee(v.state.instance.tier) ? { plan: null, trial: false } : {}),
  };
}

/** Kept for other families: the caller as GET /user renders it. */
export function currentUser(user: User, v: UserView) {
  return user.admin ? userWithAdmin(user, v) : userPublic(user, v);
}

export const emailEntity = (e: Email) => ({ id: e.id, email: e.email, confirmed_at: iso(e.confirmedAt) });

export const sshKeyEntity = (k: SshKey) => ({
  id: k.id,
  title: k.title,
  created_at: iso(k.createdAt),
  expires_at: iso(k.expiresAt),
  key: k.key,
  usage_type: k.usageType,
});

export const gpgKeyEntity = (k: GpgKey) => ({ id: k.id, key: k.key, created_at: iso(k.createdAt) });

export function statusEntity(s: UserStatus | undefined) {
  return {
    emoji: s?.emoji ?? null,
    availability: s?.availability ?? null,
    message: s?.message ?? null,
    message_html: s?.message ? escapeHtml(s.message) : null,
    clear_status_at: iso(s?.clearStatusAt ?? null),
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Entities::PersonalAccessToken (and ImpersonationToken, ResourceAccessToken): never the secret but at creation. */
export function tokenEntity(token: Token, now: number, extra: { withToken?: boolean; accessLevel?: number } = {}) {
  const active = !token.revoked && (token.expiresAt === null || token.expiresAt > today(now));
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: iso(token.createdAt),
    description: token.description ?? '',
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: iso(token.lastUsedAt ?? null),
    active,
    expires_at: token.expiresAt,
    ...(token.kind === 'impersonation' ? { impersonation: true } : {}),
    ...(extra.accessLevel !== undefined ? { access_level: extra.accessLevel } : {}),
    ...(extra.withToken ? { token: token.token } : {}),
  };
}

export const activityEntity = (user: User) => ({
  username: user.username,
  last_activity_on: user.lastActivityOn,
  last_activity_at: user.lastActivityOn,
});

