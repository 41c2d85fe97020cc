// What the users family keeps besides the core's User and Token records: emails, identities,
// keys, follows, statuses, custom attributes, runners, and the indexes their lookups need.
import type { Partitioned, Table } from '../../store/table.js';

/** A secondary email address of a user (app/models/email.rb). */
export interface Email {
  id: number;
  userId: number;
  email: string;
  confirmedAt: number | null;
  createdAt: number;
}

/** A sign-in through an external provider (app/models/identity.rb). */
export interface Identity {
  provider: string;
  externUid: string;
  /** The group SAML provider, for `group_saml` identities. */
  samlProviderId: number | null;
  createdAt: number;
}

/** A SCIM identity: the group that provisioned the user through SCIM (higher tiers). */
export interface ScimIdentity {
  groupId: number;
  externUid: string;
  active: boolean;
}

export interface SshKey {
  id: number;
  userId: number;
  title: string;
  key: string;
  fingerprint: string;
  usageType: 'auth' | 'signing' | 'auth_and_signing';
  createdAt: number;
  expiresAt: number | null;
}

export interface GpgKey {
  id: number;
  userId: number;
  key: string;
  createdAt: number;
  revoked: boolean;
}

export interface UserStatus {
  emoji: string | null;
  message: string | null;
  availability: 'not_set' | 'busy';
  clearStatusAt: number | null;
}

/** UserPreference: what PUT /user/preferences changes. */
export interface Preferences {
  viewDiffsFileByFile: boolean;
  showWhitespaceInDiffs: boolean;
  passUserIdentitiesToCiJwt: boolean;
}

export interface Runner {
  id: number;
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  /** The group or projects a group or project runner belongs to. */
  groupId: number | null;
  projectIds: number[];
  description: string;
  maintenanceNote: string;
  paused: boolean;
  locked: boolean;
  runUntagged: boolean;
  tagList: string[];
  accessLevel: 'not_protected' | 'ref_protected';
  maximumTimeout: number | null;
  /** The authentication token, shown once at creation. */
  token: string;
  tokenExpiresAt: number | null;
  creatorId: number;
  createdAt: number;
  contactedAt: number | null;
}

export interface UsersSlice {
  /** User id -> email id -> a secondary email. */
  userEmails: Partitioned<Email>;
  /** Lower-cased address -> the user it belongs to (primary and secondary emails). */
  emailOwners: Table<number>;
  /** User id -> provider -> identity. */
  identities: Partitioned<Identity>;
  /** `provider\0extern_uid` (lower-cased) -> user id. */
  identityOwners: Table<number>;
  /** User id -> group id -> SCIM identity. */
  scimIdentities: Partitioned<ScimIdentity>;
  /** User id -> key -> value. */
  customAttributes: Partitioned<string>;
  sshKeys: Partitioned<SshKey>;
  gpgKeys: Partitioned<GpgKey>;
  /** Follower id -> followee id -> when. */
  followees: Partitioned<number>;
  /** Followee id -> follower id -> when. */
  followers: Partitioned<number>;
  statuses: Table<UserStatus>;
  /** User id -> preferences (absent: the defaults). */
  preferences: Table<Preferences>;
  /** User id -> token id -> token value: the tokens a user owns. */
  userTokens: Partitioned<string>;
  /** Token id -> token value. */
  tokenIds: Table<string>;
  runners: Table<Runner>;
  /** Runner authentication token -> runner id. */
  runnerTokens: Table<number>;
}
