// Who is calling (lib/gitlab/auth/auth_finders.rb, lib/api/api_guard.rb): OAuth and personal,
// project and impersonation tokens, CI job tokens on the routes that allow them, the session
// cookie; then scopes, expiry and revocation on the clock, blocked users, and sudo.
import type { CoreState, Token, User } from '../store/state.js';
import { tget } from '../store/table.js';
import type { HeaderReader, Incoming } from './incoming.js';
import type { Authenticator } from './surface.js';
import { today } from '../policy/access.js';
import { forbidden, insufficientScope, invalidToken, notFound, unauthorized } from '../core/errors.js';

export type AuthMethod = 'none' | 'personal' | 'project' | 'group' | 'impersonation' | 'oauth' | 'job' | 'session' | 'lfs_token' | 'deploy_token';

/** A deploy token git authenticated (Gitlab::Auth#deploy_token_check): an actor that is no user. */
export interface DeployTokenActor {
  id: number;
  username: string;
  scopes: readonly string[];
  /** The project it was presented for, which it reaches (DeployToken#has_access_to?). */
  projectId: number;
}

export interface Caller {
  user: User | null;
  method: AuthMethod;
  token?: Token;
  /** The administrator who used sudo, when the request runs as another user. */
  sudoFrom?: User;
  /** The deploy token git authenticated with (`method: 'deploy_token'`, no user). */
  deployToken?: DeployTokenActor;
}

export const ANONYMOUS: Caller = Object.freeze({ user: null, method: 'none' as const });

/** What authentication asks of the families: who a CI job token acts as. */
export interface Credentials {
  /** The user a job token acts as while its job runs; undefined otherwise. */
  jobUser(state: CoreState, token: Token): User | undefined;
}

/** What git's login needs of the families besides tokens: a deploy token that opens a project. */
export interface GitCredentials {
  /**
   * Gitlab::Auth#deploy_token_check: an active deploy token whose username is `login`, that
   * reaches the project `projectId` names and whose repository is not disabled; else why the
   * deploy token of that password may not log in, or null when the password is none.
   */
  deployTokenLogin(state: CoreState, login: string, password: string, projectId: number | undefined, now: number): DeployTokenActor | string | null;
}

export interface AuthRequirements {
  /** `none`: credentials are never looked at; `public`: anonymous allowed; `user`; `admin`. */
  auth: 'none' | 'public' | 'user' | 'admin';
  /** Scopes accepted besides `api` (and `read_api` on GET/HEAD), e.g. `read_repository`. */
  scopes: readonly string[];
  /** Scopes accepted on every method, writes included (`create_runner`, `self_rotate`). */
  anyMethodScopes?: readonly string[];
  jobToken: boolean;
}

const SESSION_COOKIES = ['_gitlab_session', '_service_session'];

function bearer(headers: HeaderReader): string | undefined {
  const h = headers.get('authorization');
  const m = h ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m ? m[1]!.trim() : undefined;
}

function basicJobToken(headers: HeaderReader): string | undefined {
  const h = headers.get('authorization');
  const m = h ? /^Basic\s+(.+)$/i.exec(h.trim()) : null;
  if (!m) return undefined;
  try {
    const [user, pass] = atob(m[1]!).split(':', 2);
    return user === 'gitlab-ci-token' ? pass : undefined;
  } catch {
    return undefined;
  }
}

function cookie(headers: HeaderReader): string | undefined {
  const h = headers.get('cookie');
  if (!h) return undefined;
  for (const part of h.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k && SESSION_COOKIES.includes(k)) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined; // not a cookie this server could have set
      }
    }
  }
  return undefined;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** AccessTokenValidationService's order: expired, revoked, scopes, impersonation; then the owner. */
function checkToken(state: CoreState, token: Token, now: number, method: string, req: AuthRequirements): User {
  if (token.expiresAt !== null && token.expiresAt <= today(now))
    throw refused(invalidToken('Token is expired. You can either do re-authorization or token refresh.'), `token expired on ${token.expiresAt}`);
  if (token.revoked) throw refused(invalidToken('Token was revoked. You have to re-authorize from the user.'), 'token revoked');
  checkScopes(token, method, req);
  if (token.kind === 'impersonation' && !state.instance.settings.impersonation_enabled)
    throw refused(invalidToken('Token is an impersonation token but impersonation was disabled.'), 'impersonation disabled');
  if (token.kind === 'project' && state.instance.offering === 'hosted' && state.instance.tier === 'free') throw unauthorized();
  const user = tget(state.users, token.userId);
  if (!user) throw unauthorized();
  return user;
}

/** lib/gitlab/auth/user_access_denied_reason.rb: users who may not use the API, and why. */
function checkUserState(user: User, webBase: string): void {
  if (user.state === 'blocked' || user.state === 'banned') throw forbidden('Your account has been blocked.');
  if (user.state === 'blocked_pending_approval')
    throw forbidden('Your account is pending approval from your administrator and hence blocked.');
  if (user.state === 'deactivated')
    throw forbidden(
      `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${webBase}`,
    );
}

function checkScopes(token: Token, method: string, req: AuthRequirements): void {
  const read = method === 'GET' || method === 'HEAD';
  const always = req.anyMethodScopes ?? [];
  const accepted = read ? ['api', 'read_api', ...req.scopes, ...always] : ['api', ...always];
  if (!token.scopes.some((s) => accepted.includes(s))) throw insufficientScope([...req.scopes, 'api', 'read_api']);
}

/**
 * Finds the caller; throws GitLab's 401/403 for bad credentials. Sudo is applied separately.
 * `webBase` is the URL GitLab believes it lives at (the request's origin unless configured).
 */
export function authenticate(
  state: CoreState,
  request: Incoming,
  params: Record<string, unknown>,
  req: AuthRequirements,
  now: number,
  credentials: Credentials,
  webBase: string = new URL(request.url).origin,
): Caller {
  if (req.auth === 'none') return ANONYMOUS;
  const h = request.headers;
  const oauthValue = bearer(h) ?? str(params.access_token);
  const oauth = oauthValue ? tget(state.tokens, oauthValue) : undefined;
  let caller: Caller | undefined;
  if (oauth && oauth.kind === 'oauth') {
    caller = { user: checkToken(state, oauth, now, request.method, req), method: 'oauth', token: oauth };
  } else {
    const patValue = str(params.private_token) ?? str(h.get('private-token')) ?? oauthValue;
    const jobValue = req.jobToken ? str(params.job_token) ?? str(h.get('job-token')) ?? basicJobToken(h) : undefined;
    if (patValue) {
      const token = tget(state.tokens, patValue);
      if (token && token.kind === 'job' && req.jobToken) caller = jobCaller(state, token, credentials);
      else if (!token || token.kind === 'job' || token.kind === 'oauth')
        // A token that matches none the log says by itself (`unknownCredential`).
        throw !token ? unauthorized() : refused(unauthorized(), token.kind === 'job' ? 'a job token where this route takes none' : 'an OAuth token sent as a private token');
      else caller = { user: checkToken(state, token, now, request.method, req), method: token.kind, token };
    } else if (jobValue) {
      const token = tget(state.tokens, jobValue);
      if (!token || token.kind !== 'job') throw refused(unauthorized(), 'job token matches no job');
      caller = jobCaller(state, token, credentials);
    } else {
      const session = cookie(h);
      const safe = request.method === 'GET' || request.method === 'HEAD' || h.has('x-csrf-token');
      const userId = session && safe ? tget(state.sessions, session) : undefined;
      const user = userId !== undefined ? tget(state.users, userId) : undefined;
      caller = user ? { user, method: 'session' } : ANONYMOUS;
    }
  }
  if (caller.user) checkUserState(caller.user, webBase);
  return caller;
}

function jobCaller(state: CoreState, token: Token, credentials: Credentials): Caller {
  const project = token.projectId !== undefined ? tget(state.projects, token.projectId) : undefined;
  const user = project ? credentials.jobUser(state, token) : undefined;
  if (!user) throw refused(unauthorized(), 'job token of a job that is not running');
  return { user, method: 'job', token };
}

/** The `sudo` parameter (a string, or a number in a JSON body), else the `Sudo` header. */
export function sudoValue(request: Incoming, params: Record<string, unknown>): string | undefined {
  const p = params.sudo;
  if (typeof p === 'string' && p !== '') return p;
  if (typeof p === 'number' && Number.isInteger(p)) return String(p);
  return request.headers.get('sudo') ?? undefined;
}

/** `sudo` parameter or `Sudo` header: an admin with a sudo-scoped token acts as another user. */
export function applySudo(state: CoreState, caller: Caller, value: string | undefined): Caller {
  if (value === undefined || value === '') return caller;
  if (!caller.user) throw unauthorized();
  if (!caller.user.admin) throw forbidden('Must be admin to use sudo');
  if (!caller.token || caller.method === 'job')
    throw forbidden('Must be authenticated using an OAuth or personal access token to use sudo');
  if (!caller.token.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const id = /^\d+$/.test(value) ? Number(value) : tget(state.usernames, value.toLowerCase());
  const target = id !== undefined ? tget(state.users, id) : undefined;
  if (!target) throw notFound(`User with ID or username '${value}'`);
  return { ...caller, user: target, sudoFrom: caller.user };
}

/** The route's own demand: a signed-in user, or an administrator. */
export function requireAuth(caller: Caller, req: AuthRequirements): void {
  if (req.auth === 'user' && !caller.user) throw unauthorized();
  if (req.auth === 'admin') {
    if (!caller.user) throw unauthorized();
    if (!caller.user.admin) throw forbidden();
  }
}

/** How GitLab's API and web paths know the caller: credentials, then sudo (unless the route never reads credentials). */
export function gitlabCaller(credentials: Credentials): Authenticator {
  return (state, request, params, req, now, origin) => {
    const caller = authenticate(state, request, params, req, now, credentials, origin);
    return req.auth === 'none' ? caller : applySudo(state, caller, sudoValue(request, params));
  };
}

/**
 * Whether the request carries a token (header, query parameter or job token) that matches no
 * token of the world: for a request log, so a person sees why a request was answered 401.
 */
export function unknownCredential(state: CoreState, request: Incoming, url: URL): boolean {
  const h = request.headers;
  const q = url.searchParams;
  const values = [bearer(h), str(h.get('private-token')), str(h.get('job-token')), basicJobToken(h), str(q.get('private_token')), str(q.get('access_token')), str(q.get('job_token'))];
  return values.some((v) => v !== undefined && tget(state.tokens, v) === undefined);
}

// ---- Why a login was refused, for the journal and the request log ----

/** What went wrong with the credentials of a refused request, kept with the error it threw. */
const REFUSALS = new WeakMap<object, string>();

/** Marks `error` (a 401 or 403 of authentication) with why the credentials were refused; returns it. */
export function refused<E extends object>(error: E, reason: string): E {
  REFUSALS.set(error, reason);
  return error;
}

/** Why the credentials of a request that threw `error` were refused, when authentication said. */
export function refusalOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? REFUSALS.get(error) : undefined;
}

/** Every scope a token may hold: who a request is, asked only to name it, whatever its method. */
const ANY_SCOPE = [
  'api', 'read_api', 'read_user', 'create_runner', 'manage_runner', 'k8s_proxy', 'self_rotate', 'read_repository', 'write_repository',
  'read_registry', 'write_registry', 'read_virtual_registry', 'write_virtual_registry', 'sudo', 'admin_mode', 'read_service_ping',
  'ai_features', 'openid', 'profile', 'email',
];
const IDENTIFY: AuthRequirements = { auth: 'public', scopes: [], anyMethodScopes: ANY_SCOPE, jobToken: true };

/**
 * Who a request without a route is, for the journal and the request log: the surface's own
 * authentication, asked only to name the caller (any scope, any method); anonymous when it
 * carries no credentials or ones that fail.
 */
export function identifyCaller(authenticator: Authenticator | undefined, state: CoreState, request: Incoming, params: Record<string, unknown>, now: number, origin: string): Caller {
  if (!authenticator) return ANONYMOUS;
  try {
    return authenticator(state, request, params, IDENTIFY, now, origin);
  } catch {
    return ANONYMOUS;
  }
}
