// Members of groups and projects (lib/api/members.rb, lib/api/helpers/members_helpers.rb, EE's
// additions): list (direct and `/all`), get, add (one or in bulk), edit, remove. Every route
// needs a signed-in caller (`before { authenticate! }`).
import { forbidden, notFound, recordNotFound } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { arr, bool, datetime, int, str, type Constraint } from '../../http/params.js';
import { created, json, noContent, type PageParams, type Reply } from '../../http/route.js';
import { memberCount, memberPage, sharesOf, sourceRef } from '../../store/members.js';
import { offsetHeaders, pageRequest } from '../../http/pagination.js';
import { ancestry, today } from '../../policy/access.js';
import type { Member, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { findUserByUsername } from '../users/index.js';
import { group, project, route, type Context } from '../define.js';
import { memberEntity, type MemberView } from './entity.js';
import { memberExists } from './errors.js';
import {
  canAdminMembers, canReadGroupMembers, checkEdit, checkGrant, checkRemove, directMember, directMemberOr404, directMembers, effectiveFor,
  effectiveList, memberProblem, putMember, removeMember, unassignIssuables, validateMember, type MemberInput, type Source,
} from './rules.js';

const ids = () => arr(int(), { commaSeparated: true });
const LIST_PARAMS = { query: str(), user_ids: ids(), skip_users: ids(), show_seat_info: bool() };
const ALL_PARAMS = { query: str(), user_ids: ids(), show_seat_info: bool(), state: str().values(['awaiting', 'active'] as const) };
const ADD_PARAMS = {
  access_level: int().required(),
  user_id: str(),
  username: str(),
  expires_at: datetime(),
  invite_source: str().default('members-api'),
  member_role_id: int(),
};
const ADD_CONSTRAINTS: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['user_id', 'username'] },
  { kind: 'at_least_one_of', names: ['user_id', 'username'], missing: 'user_id' },
];
const EDIT_PARAMS = { access_level: int().required(), expires_at: datetime().nullable(), member_role_id: int() };
const REMOVE_PARAMS = { skip_subresources: bool().default(false), unassign_issuables: bool().default(false) };
const USER_ID = { user_id: int().required() };

/** The bulk limit of Members::CreateService. */
const BULK_LIMIT = 100;

const sourceOfCtx = (ctx: Context<unknown>, kind: 'projects' | 'groups'): Source => (kind === 'projects' ? ctx.project : ctx.group);

export function viewOf(ctx: Context<unknown>, extra: Partial<MemberView> = {}): MemberView {
  return { state: ctx.state, viewer: ctx.user!, now: ctx.now(), webBase: ctx.webBase, ...extra };
}

/** User.search: name or username containing the text, or the exact email, case-insensitively. */
export function matchesQuery(user: User, query: string): boolean {
  const q = query.toLowerCase();
  return user.username.toLowerCase().includes(q) || user.name.toLowerCase().includes(q) || user.email.toLowerCase() === q;
}

/** `expires_at` as the date the membership stores. */
const dateOf = (ms: number | null | undefined): string | null | undefined => (ms === undefined ? undefined : ms === null ? null : new Date(ms).toISOString().slice(0, 10));

interface AddParams {
  access_level: number;
  user_id?: string;
  username?: string;
  expires_at?: number;
}

function addOne(ctx: Context<unknown>, source: Source, p: AddParams): Reply {
  const state = ctx.state;
  const now = ctx.now();
  const input: MemberInput = { accessLevel: p.access_level, expiresAt: dateOf(p.expires_at) ?? null };
  checkGrant(state, ctx.user!, source, input.accessLevel, now);
  let user: User | undefined;
  if (p.user_id !== undefined) {
    const id = /^\s*\d+\s*$/.test(p.user_id) ? Number(p.user_id) : NaN;
    if (Number.isFinite(id) && directMember(state, source, id, now)) throw memberExists();
    user = Number.isFinite(id) ? tget(state.users, id) : undefined;
  } else {
    user = findUserByUsername(state, p.username!);
    if (user && directMember(state, source, user.id, now)) throw memberExists();
  }
  if (!user) throw notFound('User');
  validateMember(state, source, user, input, now);
  const member = ctx.update(putMember(source, ctx.user!, user, input, now));
  return created(memberEntity(viewOf(ctx), member, sourceRef(source)));
}

/** Bulk mode (a comma in `user_id` or `username`): Members::CreateService's `{status, message}`, always 201. */
function addMany(ctx: Context<unknown>, source: Source, p: AddParams): Reply {
  const state = ctx.state;
  const now = ctx.now();
  const text = (p.user_id ?? p.username)!;
  const names = [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (names.length === 0) return created({ status: 'error', message: 'No users specified.' });
  if (names.length > BULK_LIMIT) return created({ status: 'error', message: `Too many users specified (limit is ${BULK_LIMIT})` });
  const input: MemberInput = { accessLevel: p.access_level, expiresAt: dateOf(p.expires_at) ?? null };
  checkGrant(state, ctx.user!, source, input.accessLevel, now);
  const errors: string[] = [];
  const changes: ReturnType<typeof putMember>[] = [];
  for (const name of names) {
    const user = p.user_id !== undefined ? (/^\d+$/.test(name) ? tget(state.users, Number(name)) : undefined) : findUserByUsername(state, name);
    if (!user) continue; // CreatorService finds users by id; ids of no user add nobody
    // An existing member is updated, if the caller may (else GitLab's `unauthorized`: 403 for the request).
    const existing = directMember(state, source, user.id, now);
    if (existing) checkEdit(state, ctx.user!, source, existing, input.accessLevel, now);
    const problem = memberProblem(state, source, user, input, now);
    if (problem) errors.push(`${user.username}: ${problem}`);
    else changes.push(putMember(source, ctx.user!, user, input, now));
  }
  if (changes.length) ctx.update((draft) => void changes.forEach((c) => c(draft)));
  return created(errors.length ? { status: 'error', message: toSentence(errors) } : { status: 'success' });
}

/** Rails' Array#to_sentence. */
export function toSentence(list: readonly string[]): string {
  if (list.length <= 1) return list[0] ?? '';
  if (list.length === 2) return `${list[0]} and ${list[1]}`;
  return `${list.slice(0, -1).join(', ')}, and ${list[list.length - 1]}`;
}

/** One page of a source's direct members, with GitLab's headers, without reading the rest. */
function directPage(ctx: Context<PageParams>, source: Source, showSeatInfo: boolean | undefined): Reply {
  const { page, perPage } = pageRequest(ctx.params);
  const { total, members } = memberPage(ctx.state, source, today(ctx.now()), (page - 1) * perPage, perPage);
  Object.assign(ctx.responseHeaders, offsetHeaders(total, ctx.params, ctx.linkBase));
  const v = viewOf(ctx, { showSeatInfo });
  const ref = sourceRef(source);
  return json(members.map((m) => memberEntity(v, m, ref)));
}

/** Whether a source's effective members are its direct ones: no ancestor group has members, nothing is shared in. */
function onlyDirect(state: Context<unknown>['state'], source: Source): boolean {
  const shared = (s: Source) => !sharesOf(state, s).next().done;
  if (shared(source)) return false;
  const chain = 'namespaceId' in source ? ancestry(state, source.namespaceId) : ancestry(state, source.id).slice(1);
  return chain.every((g) => g.kind !== 'group' || (memberCount(state, g) === 0 && !shared(g)));
}

function routesFor(kind: 'projects' | 'groups') {
  const scope = () => (kind === 'projects' ? project() : group(canReadGroupMembers));
  const adminScope = () => (kind === 'projects' ? project() : group());
  const base = `/${kind}/:id/members`;
  return [
    route({
      method: 'GET', path: base, auth: 'user', scope: scope(), paginated: true, params: LIST_PARAMS,
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        const p = ctx.params;
        const v = viewOf(ctx, { showSeatInfo: p.show_seat_info });
        const ref = sourceRef(source);
        // Unfiltered: one page read straight off the source's ordered index.
        if (!p.user_ids?.length && !p.skip_users?.length && !p.query) return directPage(ctx, source, p.show_seat_info);
        const ids = p.user_ids?.length ? new Set(p.user_ids) : undefined;
        const skip = new Set(p.skip_users ?? []);
        const query = p.query || undefined;
        const list = directMembers(ctx.state, source, ctx.now()).filter((m) => {
          if (ids && !ids.has(m.userId)) return false;
          if (skip.has(m.userId)) return false;
          if (!query) return true;
          const user = tget(ctx.state.users, m.userId);
          return user !== undefined && matchesQuery(user, query);
        });
        return json(ctx.paginate(list).map((m) => memberEntity(v, m, ref)));
      },
    }),
    route({
      method: 'GET', path: `${base}/all`, auth: 'user', scope: scope(), paginated: true, params: ALL_PARAMS,
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        const p = ctx.params;
        const paid = ctx.state.instance.tier !== 'free';
        const ids = p.user_ids?.length ? new Set(p.user_ids) : undefined;
        const state = paid ? p.state : undefined;
        const query = p.query || undefined;
        if (!ids && !state && !query && onlyDirect(ctx.state, source)) {
          // Nothing is inherited or shared: `/all` is the direct list, one page off the ordered index.
          return directPage(ctx, source, p.show_seat_info);
        }
        let list = effectiveList(ctx.state, ctx.user!, source, ctx.now());
        if (ids || state || query) {
          list = list.filter((e) => {
            if (ids && !ids.has(e.member.userId)) return false;
            if (state && (e.member.state ?? 'active') !== state) return false;
            if (!query) return true;
            const user = tget(ctx.state.users, e.member.userId);
            return user !== undefined && matchesQuery(user, query);
          });
        }
        const v = viewOf(ctx, { showSeatInfo: p.show_seat_info });
        return json(ctx.paginate(list).map((e) => memberEntity(v, e.member, e.source, e.level)));
      },
    }),
    route({
      method: 'GET', path: `${base}/all/:user_id`, auth: 'user', scope: scope(), params: USER_ID,
      handler: (ctx) => {
        const found = effectiveFor(ctx.state, ctx.user!, sourceOfCtx(ctx, kind), ctx.now()).get(ctx.params.user_id);
        if (!found) throw recordNotFound();
        return json(memberEntity(viewOf(ctx), found.member, found.source, found.level));
      },
    }),
    route({
      method: 'GET', path: `${base}/:user_id`, auth: 'user', scope: scope(), params: USER_ID,
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        return json(memberEntity(viewOf(ctx), directMemberOr404(ctx.state, source, ctx.params.user_id, ctx.now()), sourceRef(source)));
      },
    }),
    route({
      method: 'POST', path: base, auth: 'user', scope: adminScope(), params: ADD_PARAMS, constraints: ADD_CONSTRAINTS,
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        if (!canAdminMembers(ctx.state, ctx.user, source, ctx.now())) throw forbidden();
        const text = ctx.params.user_id ?? ctx.params.username ?? '';
        return text.includes(',') ? addMany(ctx, source, ctx.params) : addOne(ctx, source, ctx.params);
      },
    }),
    route({
      method: 'PUT', path: `${base}/:user_id`, auth: 'user', scope: adminScope(), params: { ...USER_ID, ...EDIT_PARAMS },
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        const now = ctx.now();
        if (!canAdminMembers(ctx.state, ctx.user, source, now)) throw forbidden();
        const member = directMemberOr404(ctx.state, source, ctx.params.user_id, now);
        const expiresAt = dateOf(ctx.params.expires_at);
        const input: MemberInput = { accessLevel: ctx.params.access_level, expiresAt: expiresAt === undefined ? member.expiresAt : expiresAt };
        checkEdit(ctx.state, ctx.user!, source, member, input.accessLevel, now);
        validateMember(ctx.state, source, tget(ctx.state.users, member.userId)!, input, now);
        const updated = ctx.update(putMember(source, ctx.user!, tget(ctx.state.users, member.userId)!, input, now));
        return json(memberEntity(viewOf(ctx), updated, sourceRef(source)));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:user_id`, auth: 'user', scope: adminScope(), params: { ...USER_ID, ...REMOVE_PARAMS }, rateLimit: 'members_delete',
      handler: (ctx) => {
        const source = sourceOfCtx(ctx, kind);
        const now = ctx.now();
        const member: Member = directMemberOr404(ctx.state, source, ctx.params.user_id, now);
        checkUnmodifiedSince(ctx, member.updatedAt ?? member.createdAt);
        checkRemove(ctx.state, ctx.user!, source, member, now);
        ctx.update(removeMember(source, member.userId, ctx.params.skip_subresources));
        if (ctx.params.unassign_issuables) ctx.update(unassignIssuables(source, member.userId));
        return noContent();
      },
    }),
  ];
}

export const memberRoutes = [...routesFor('groups'), ...routesFor('projects')];
