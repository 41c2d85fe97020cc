// Users as GitLab renders them (lib/api/entities/user_basic.rb, user.rb, user_public.rb,
// user_with_admin.rb): more fields the more the viewer may see.
import type { User } from '../../store/state.js';
import { iso } from '../../render/time.js';

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
    avatar_url: null as string | null,
    web_url: `${u.webBase}/${user.username}`,
  };
}

function localTime(now: number): string {
  const d = new Date(now);
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** User: GET /users/:id for a signed-in viewer. */
export function userDetails(user: User, u: UrlBase, now: number) {
  return {
    ...userBasic(user, u),
    created_at: iso(user.createdAt),
    bio: user.bio,
    location: user.location,
    public_email: user.publicEmail,
    skype: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
    pronouns: null,
    bot: user.bot,
    work_information: null,
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: localTime(now),
  };
}

/** UserPublic (GET /user), and UserWithAdmin when the viewer is an administrator. */
export function currentUser(user: User, u: UrlBase, now: number, asAdmin: boolean) {
  const base = {
    ...userDetails(user, u, now),
    last_sign_in_at: iso(user.lastSignInAt),
    confirmed_at: iso(user.confirmedAt),
    last_activity_on: user.lastActivityOn,
    email: user.email,
    theme_id: 3,
    color_scheme_id: 1,
    projects_limit: user.projectsLimit,
    current_sign_in_at: iso(user.lastSignInAt),
    identities: [] as unknown[],
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: user.twoFactorEnabled,
    external: user.external,
    private_profile: user.privateProfile,
    commit_email: user.email,
    preferred_language: 'en',
  };
  if (!asAdmin) return base;
  return {
    ...base,
    is_admin: user.admin,
    note: null,
    namespace_id: user.namespaceId,
    created_by: null,
    email_reset_offered_at: null,
  };
}
