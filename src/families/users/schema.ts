// The users family's part of the fixture format (src/core/schema.ts): each user, and the
// members and tokens other families' records carry.
import { arrayOf, bool, nullable, num, object, oneOf, opt, recordOf, str, union } from '../../core/schema.js';

const ROLE = union(num, oneOf('guest', 'planner', 'reporter', 'developer', 'maintainer', 'owner', 'minimal'));

/** An access level: a number (30) or a role's name (`developer`). */
export const accessLevelSchema = ROLE;

/** `{ user, access_level }`: a member of a group or project. */
export const memberSchema = object({
  user: str,
  access_level: ROLE,
  expires_at: opt(nullable(str)),
  /** `awaiting`: a membership that grants nothing until it is activated (paid tiers). */
  state: opt(oneOf('active', 'awaiting')),
  /** Synced from LDAP (its level may then be overridden). */
  ldap: opt(bool),
});

const tokenProps = {
  /** When it was last used (ISO 8601); a use within ten minutes of it records nothing new. */
  last_used_at: opt(str),
  token: opt(str),
  name: opt(str),
  scopes: opt(arrayOf(str)),
  expires_at: opt(nullable(str)),
  revoked: opt(bool),
  kind: opt(oneOf('personal', 'impersonation', 'oauth')),
};
/** A personal access token of a user. */
export const tokenSchema = object(tokenProps);
/** A project access token: a token and the level of its bot. */
export const projectTokenSchema = object({ ...tokenProps, access_level: opt(ROLE) });

export const userSchema = object({
  username: str,
  name: opt(str),
  email: opt(str),
  admin: opt(bool),
  auditor: opt(bool),
  external: opt(bool),
  bot: opt(bool),
  /** `human` (default), `project_bot` (the default of a bot), `service_account`, `alert_bot`, `support_bot`, `ghost`... */
  user_type: opt(str),
  state: opt(oneOf('active', 'blocked', 'deactivated', 'banned', 'blocked_pending_approval')),
  bio: opt(str),
  location: opt(str),
  organization: opt(str),
  job_title: opt(str),
  website_url: opt(str),
  public_email: opt(nullable(str)),
  skype: opt(str),
  linkedin: opt(str),
  twitter: opt(str),
  discord: opt(str),
  pronouns: opt(nullable(str)),
  note: opt(nullable(str)),
  theme_id: opt(num),
  color_scheme_id: opt(num),
  private_profile: opt(bool),
  projects_limit: opt(num),
  can_create_group: opt(bool),
  two_factor_enabled: opt(bool),
  created_by_id: opt(nullable(num)),
  /** Whether the email is confirmed (default true). */
  confirmed: opt(bool),
  last_activity_on: opt(nullable(str)),
  tokens: opt(arrayOf(tokenSchema)),
  /** Session cookie values (`_gitlab_session`) that sign this user in. */
  sessions: opt(arrayOf(str)),
  /** Sign-ins through external providers. */
  identities: opt(arrayOf(object({ provider: str, extern_uid: str, saml_provider_id: opt(num) }))),
  /** Secondary email addresses (confirmed unless `confirmed: false`). */
  emails: opt(arrayOf(object({ email: str, confirmed: opt(bool) }))),
  custom_attributes: opt(recordOf(str)),
});
