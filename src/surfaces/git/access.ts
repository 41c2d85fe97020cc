// Who is calling over git's smart HTTP, as GitLab finds it
// (app/controllers/repositories/git_http_client_controller.rb, lib/gitlab/auth.rb
// find_for_git_client), and its 401; who may then use a repository is its family's to say.
import type { ApiError } from '../../core/errors.js';
import type { Caller } from '../../http/auth.js';
import { plainError } from '../../http/git-access.js';
import { OPERATIONS } from '../../families/registry.js';
import type { CoreState, Token, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { today } from '../../policy/access.js';
import { looksLikeLfsToken, lfsTokenValid } from './lfs-token.js';

/** GitHttpClientController#render_access_denied, with the challenge that makes git ask for credentials. */
export function accessDenied(origin: string): ApiError {
  const help = `${origin}/help/topics/git/troubleshooting_git.md#error-on-git-fetch-http-basic-access-denied`;
  return plainError(
    401,
    `HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped. See ${help}`,
    { 'WWW-Authenticate': 'Basic realm="GitLab"' },
  );
}

/** A token that works now: not expired, not revoked. */
function active(token: Token, now: number): boolean {
  return !token.revoked && (token.expiresAt === null || token.expiresAt > today(now));
}

/** An account that may sign in (blocked, banned, deactivated or pending users may not). */
const mayLogIn = (user: User) => user.state === 'active';

/**
 * Gitlab::Auth.find_for_git_client for the credentials the emulator has (tokens; no passwords):
 * `gitlab-ci-token` and a running job's token, `oauth2` and an OAuth token with `api`, or any
 * username and a personal, project, group or impersonation token (`gitlab-ci-token` too: the
 * job-token check falls through), a username and the LFS token the batch API gave that user for
 * the project `projectId` names, or a deploy token's username and token. When none matches, why
 * (for the journal and the request log; git's answer is the same 401 whatever the reason).
 */
export function findForGitClient(state: CoreState, login: string, password: string, now: number, projectId?: number): Caller | string {
  if (password === '') return `no password for ${login}`;
  const token = tget(state.tokens, password);
  if (login !== 'gitlab-ci-token' && !token && looksLikeLfsToken(password)) {
    // lfs_token_check: the user the login names, and a token the LFS batch API gave that user.
    const id = tget(state.usernames, login.toLowerCase());
    const user = id === undefined ? undefined : tget(state.users, id);
    return user && lfsTokenValid(user, password, projectId, now) ? { user, method: 'lfs_token' } : `LFS token of ${login} invalid or expired`;
  }
  if (!token) return deployToken(state, login, password, projectId, now) ?? `the password of ${login} is no token`;
  if (token.revoked) return 'token revoked';
  if (!active(token, now)) return `token expired on ${token.expiresAt}`;
  const user = tget(state.users, token.userId);
  // build_access_token_check: a running job's token; any other password falls through to the
  // checks that follow, and personal_access_token_check ignores the username.
  if (token.kind === 'job') {
    if (login !== 'gitlab-ci-token') return `a job token sent with the username ${login} (git takes it as gitlab-ci-token)`;
    const runner = OPERATIONS.jobUser(state, token);
    if (!runner) return 'job token of a job that is not running';
    return mayLogIn(runner) ? { user: runner, method: 'job', token } : `user ${runner.username} is ${runner.state}`;
  }
  if (token.kind === 'oauth') {
    if (login !== 'oauth2') return `an OAuth token sent with the username ${login} (git takes it as oauth2)`;
    if (!token.scopes.includes('api')) return 'an OAuth token without the api scope';
    if (!user) return "the token's user is gone";
    return mayLogIn(user) ? { user, method: 'oauth', token } : `user ${user.username} is ${user.state}`;
  }
  if (token.kind === 'impersonation' && !state.instance.settings.impersonation_enabled) return 'impersonation disabled';
  if (!user) return 'the token\'s user is gone';
  return mayLogIn(user) ? { user, method: token.kind, token } : `user ${user.username} is ${user.state}`;
}

/** deploy_token_check, the last of the token checks: an actor that is no user, for one project; else why not, or null when no deploy token has that password. */
function deployToken(state: CoreState, login: string, password: string, projectId: number | undefined, now: number): Caller | string | null {
  const found = OPERATIONS.deployTokenLogin(state, login, password, projectId, now);
  return found === null || typeof found === 'string' ? found : { user: null, method: 'deploy_token', deployToken: found };
}
