// SCIM provisioning of a group's users (ee/lib/ee/gitlab/scim/*: ParamsParser, ProvisioningService,
// DeprovisionService, ReprovisionService; ee/app/finders/scim_finder.rb): who the identity
// provider made, found by their external id, and their membership of the group.
import { ApiError } from '../../core/errors.js';
import { pdel, pget, pset, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { ACCESS, randomHex, type Namespace, type User } from '../../store/state.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { changeUser, createUser, findUserByUsername, readMembership, setScimIdentity, userByEmail, writeMembership } from '../users/index.js';

export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** EE::API::Entities::Scim::Error and its kinds: the SCIM error envelope with the entity's status. */
const scimError = (status: number, detail: string) =>
  new ApiError(status, { schemas: [SCIM_ERROR], detail, status });
export const scimNotFound = (detail: string) => scimError(404, detail);
export const scimConflict = (detail: string) => scimError(409, detail);
export const scimFailure = (detail: string) => scimError(412, detail);

export interface ScimSlice {
  /** A group's SCIM token -> the group. */
  scimTokens: Table<number>;
  /** Group id -> lower-cased external id -> the user provisioned with it. */
  scimUsers: Partitioned<number>;
}

export interface Provisioned {
  user: User;
  externUid: string;
  active: boolean;
}

/** The SCIM identity of `externUid` in the group. */
export function findIdentity(state: State, group: Namespace, externUid: string): Provisioned | undefined {
  const userId = pget(state.scimUsers, group.id, externUid.toLowerCase());
  const user = userId === undefined ? undefined : tget(state.users, userId);
  const identity = user ? pget(state.scimIdentities, user.id, group.id) : undefined;
  return user && identity ? { user, externUid: identity.externUid, active: identity.active } : undefined;
}

/** Every SCIM identity of the group, in the order they were made. */
export function groupIdentities(state: State, group: Namespace): Provisioned[] {
  const t = tget(state.scimUsers, group.id);
  if (!t) return [];
  const out: Provisioned[] = [];
  for (const userId of tvalues(t)) {
    const user = tget(state.users, userId);
    const identity = user ? pget(state.scimIdentities, user.id, group.id) : undefined;
    if (user && identity) out.push({ user, externUid: identity.externUid, active: identity.active });
  }
  return out.sort((a, b) => a.user.id - b.user.id);
}

/** ScimFinder: `id`/`externalId eq "…"` and `userName eq "…"`; any other filter is unsupported. */
export function searchIdentities(state: State, group: Namespace, filter: string | undefined): Provisioned[] {
  const all = groupIdentities(state, group);
  if (filter === undefined || filter.trim() === '') return all;
  const m = /^\s*(id|externalId|userName|emails\[type eq "?work"?\]\.value)\s+eq\s+"?([^"]*)"?\s*$/i.exec(filter);
  if (!m) throw scimFailure('Unsupported Filter');
  const [, attr, raw] = m;
  const value = raw!.toLowerCase();
  const key = attr!.toLowerCase();
  if (key === 'username') return all.filter((p) => p.user.username.toLowerCase() === value);
  if (key.startsWith('emails')) return all.filter((p) => p.user.email.toLowerCase() === value);
  return all.filter((p) => p.externUid.toLowerCase() === value);
}

/** What ParamsParser reads from a SCIM user resource. */
export interface ScimAttributes {
  externUid?: string;
  username?: string;
  email?: string;
  name?: string;
  active?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function emailOf(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const list = emails.filter(isObject);
  const pick = list.find((e) => e.primary === true) ?? list.find((e) => e.type === 'work') ?? list[0];
  return typeof pick?.value === 'string' ? pick.value : undefined;
}

function nameOf(name: unknown, displayName: unknown): string | undefined {
  if (isObject(name)) {
    if (typeof name.formatted === 'string' && name.formatted !== '') return name.formatted;
    const parts = [name.givenName, name.familyName].filter((p): p is string => typeof p === 'string' && p !== '');
    if (parts.length) return parts.join(' ');
  }
  return typeof displayName === 'string' ? displayName : undefined;
}

const activeOf = (v: unknown): boolean | undefined => (v === true || v === 'true' || v === 'True' ? true : v === false || v === 'false' || v === 'False' ? false : undefined);

/** A whole resource (POST, PUT). */
export function resourceAttributes(body: Json): ScimAttributes {
  return {
    externUid: typeof body.externalId === 'string' ? body.externalId : undefined,
    username: typeof body.userName === 'string' ? body.userName : undefined,
    email: emailOf(body.emails),
    name: nameOf(body.name, body.displayName),
    active: activeOf(body.active),
  };
}

/** PATCH `Operations`: `Add` and `Replace` of a path, or of an object of attributes (as Azure sends them). */
export function patchAttributes(operations: unknown): ScimAttributes {
  const out: ScimAttributes = {};
  if (!Array.isArray(operations)) return out;
  for (const op of operations.filter(isObject)) {
    const kind = String(op.op ?? '').toLowerCase();
    if (kind !== 'add' && kind !== 'replace') continue;
    const apply = (path: string, value: unknown) => {
      const p = path.toLowerCase();
      if (p === 'active') out.active = activeOf(value);
      else if (p === 'name.formatted' || p === 'displayname') out.name = typeof value === 'string' ? value : out.name;
      else if (p === 'username') out.username = typeof value === 'string' ? value : out.username;
      else if (p === 'externalid' || p === 'id') out.externUid = typeof value === 'string' ? value : out.externUid;
      else if (p.startsWith('emails')) out.email = typeof value === 'string' ? value : emailOf(value) ?? out.email;
      else if (p === 'name' && isObject(value)) out.name = nameOf(value, undefined) ?? out.name;
    };
    if (typeof op.path === 'string' && op.path !== '') apply(op.path, op.value);
    else if (isObject(op.value)) for (const [k, v] of Object.entries(op.value)) apply(k, v);
  }
  return out;
}

/** Ruby's Hash#inspect of the request's parameters, as GitLab's messages quote them. */
export function rubyInspect(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(rubyInspect).join(', ')}]`;
  return `{${Object.entries(value as Json).map(([k, v]) => `${JSON.stringify(k)}=>${rubyInspect(v)}`).join(', ')}}`;
}

/** The group's default role for provisioned users (the SAML provider's default membership role). */
const DEFAULT_ROLE = ACCESS.guest;

/**
 * ProvisioningService: a new user (or the existing one of that email, if the group already
 * knows them), their SCIM identity and a membership of the group.
 */
export function provision(state: State, group: Namespace, a: ScimAttributes, body: Json, now: number): Change<Provisioned> {
  const say = (reason: string) => `Error saving user with ${rubyInspect(body)}: ${reason}`;
  if (!a.externUid) throw scimFailure(say("Extern uid can't be blank"));
  if (!a.email) throw scimFailure(say("Email can't be blank"));
  if (findIdentity(state, group, a.externUid)) throw scimConflict(say('Extern uid has already been taken'));
  const existing = userByEmail(state, a.email);
  if (existing && existing.provisionedByGroupId !== group.id && !readMembership(state, { kind: 'namespace', id: group.id }, existing.id)) throw scimConflict(say('Email has already been taken'));
  const username = a.username ?? a.email.split('@')[0]!;
  if (!existing && findUserByUsername(state, username)) throw scimConflict(say('Username has already been taken'));
  return (draft) => {
    let user = existing ? tget(draft.users, existing.id)! : undefined;
    if (!user) {
      user = createUser(draft, { username, name: a.name ?? username, email: a.email!, confirmed: true }, now);
      user.provisionedByGroupId = group.id;
    }
    setScimIdentity(draft, user.id, group.id, a.externUid!, a.active ?? true);
    pset(draft.scimUsers, group.id, a.externUid!.toLowerCase(), user.id);
    if (a.active !== false && !readMembership(draft, { kind: 'namespace', id: group.id }, user.id))
      writeMembership(draft, { kind: 'namespace', id: group.id }, user.id, { userId: user.id, accessLevel: DEFAULT_ROLE, createdAt: now, createdById: null, expiresAt: null });
    return { user: { ...user }, externUid: a.externUid!, active: a.active ?? true };
  };
}

/** DeprovisionService: the identity goes inactive and the user leaves the group. */
export function deprovision(group: Namespace, p: Provisioned): Change {
  return (draft) => {
    setScimIdentity(draft, p.user.id, group.id, p.externUid, false);
    writeMembership(draft, { kind: 'namespace', id: group.id }, p.user.id, null);
  };
}

/** ReprovisionService: active again, and a member again. */
export function reprovision(group: Namespace, p: Provisioned, now: number): Change {
  return (draft) => {
    setScimIdentity(draft, p.user.id, group.id, p.externUid, true);
    if (!readMembership(draft, { kind: 'namespace', id: group.id }, p.user.id))
      writeMembership(draft, { kind: 'namespace', id: group.id }, p.user.id, { userId: p.user.id, accessLevel: DEFAULT_ROLE, createdAt: now, createdById: null, expiresAt: null });
  };
}

/** PATCH or PUT: deprovision, reprovision, a new external id, or the user's name, username and email. */
export function updateIdentity(state: State, group: Namespace, p: Provisioned, a: ScimAttributes, body: Json, now: number): Change {
  if (a.active === false) return deprovision(group, p);
  if (a.active === true && !p.active) return reprovision(group, p, now);
  if (a.externUid !== undefined && a.externUid !== p.externUid) {
    if (findIdentity(state, group, a.externUid)) throw scimFailure(`Error updating ${p.user.name} with ${rubyInspect(body)}`);
    return (draft) => {
      pdel(draft.scimUsers, group.id, p.externUid.toLowerCase());
      pset(draft.scimUsers, group.id, a.externUid!.toLowerCase(), p.user.id);
      setScimIdentity(draft, p.user.id, group.id, a.externUid!, p.active);
    };
  }
  if (a.email !== undefined) {
    const holder = userByEmail(state, a.email);
    if (holder && holder.id !== p.user.id) throw scimConflict('Email has already been taken');
  }
  if (a.username !== undefined) {
    const holder = findUserByUsername(state, a.username);
    if (holder && holder.id !== p.user.id) throw scimFailure(`Error updating ${p.user.name} with ${rubyInspect(body)}`);
  }
  // Users::UpdateService with what the identity provider sent; an email needs no confirmation.
  return changeUser(state, p.user, { name: a.name, email: a.email, username: a.username, skip_reconfirmation: true }, p.user, now);
}

/** A token for a group's SCIM, as GitLab's group settings would generate it. */
export const newScimToken = (draft: State) => randomHex(draft, 20);
