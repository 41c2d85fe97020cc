// Who may fetch from and push to a repository over HTTP, as GitLab decides it
// (app/controllers/repositories/git_http_client_controller.rb, lib/gitlab/auth.rb
// find_for_git_client and abilities_for_scopes, lib/gitlab/git_access.rb check), with its messages.
import type { ApiError } from '../../core/errors.js';
import type { Caller } from '../../http/auth.js';
import { abilitiesOf, checkCommand, gitForbidden, gitNotFound, MESSAGES, plainError } from '../../http/git-access.js';
import { canReadProject } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { canPushCode, canReadCode } from '../../families/repositories/index.js';
import type { State } from '../../families/world.js';
import { OPERATIONS } from '../../families/registry.js';
import type { CoreState, Project, Token, User } from '../../store/state.js';
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

/**
 * The repository a git URL names: `/<full path>(.git)`, or a project's wiki, `/<full path>.wiki(.git)`
 * (`wiki`); `dotGit` says whether the suffix was there.
 */
export interface GitTarget {
  fullPath: string;
  dotGit: boolean;
  project: Project | undefined;
  /** The project's wiki repository, not its code. */
  wiki: boolean;
}

export function gitTarget(state: CoreState, repoPath: string): GitTarget {
  const path = repoPath.replace(/^\/+/, '');
  const dotGit = path.endsWith('.git');
  const fullPath = dotGit ? path.slice(0, -4) : path;
  const wiki = fullPath.endsWith('.wiki');
  const projectPath = wiki ? fullPath.slice(0, -5) : fullPath;
  const project = /^\d+$/.test(projectPath) ? undefined : projectByIdOrPath(state, projectPath);
  return { fullPath, dotGit, project: project && !project.pendingDelete ? project : undefined, wiki };
}

/** A token that works now: not expired, not revoked. */
function active(token: Token, now: number): boolean {
  return !token.revoked && (token.expiresAt === null || token.expiresAt > today(now));
}

/** An account that may sign in (blocked, banned, deactivated or pending users may not). */
function mayLogIn(user: User | undefined): user is User {
  return user !== undefined && (user.state === 'active');
}

/**
 * Gitlab::Auth.find_for_git_client for the credentials the emulator has (tokens; no passwords):
 * `gitlab-ci-token` and a running job's token, `oauth2` and an OAuth token with `api`, or any
 * username and a personal, project, group or impersonation token, or a username and the LFS token
 * the batch API gave that user for the project `projectId` names. Null when none matches.
 */
export function findForGitClient(state: CoreState, login: string, password: string, now: number, projectId?: number): Caller | null {
  if (password === '') return null;
  const token = tget(state.tokens, password);
  if (login !== 'gitlab-ci-token' && !token && looksLikeLfsToken(password)) {
    // lfs_token_check: the user the login names, and a token the LFS batch API gave that user.
    const id = tget(state.usernames, login.toLowerCase());
    const user = id === undefined ? undefined : tget(state.users, id);
    return user && lfsTokenValid(user, password, projectId, now) ? { user, method: 'lfs_token' } : null;
  }
  if (!token || !active(token, now)) return null;
  const user = tget(state.users, token.userId);
  if (login === 'gitlab-ci-token') {
    if (token.kind !== 'job') return null;
    const runner = OPERATIONS.jobUser(state, token);
    return mayLogIn(runner) ? { user: runner, method: 'job', token } : null;
  }
  if (token.kind === 'oauth') return login === 'oauth2' && token.scopes.includes('api') && mayLogIn(user) ? { user, method: 'oauth', token } : null;
  if (token.kind === 'job') return null;
  if (token.kind === 'impersonation' && !state.instance.settings.impersonation_enabled) return null;
  return mayLogIn(user) ? { user, method: token.kind, token } : null;
}

/** ProjectPolicy `download_code`: who may read the project, where its repository is open to them. */
export function canDownloadCode(state: State, user: User | null, project: Project, now: number): boolean {
  return canReadProject(state, user, project, now) && canReadCode(state, user, project, now);
}

/** Whether anyone may clone the project without credentials (`http_download_allowed?`). */
export function anonymousCanDownload(state: State, project: Project, now: number): boolean {
  return canDownloadCode(state, null, project, now);
}

/**
 * Gitlab::GitAccess#check for one command, up to the per-ref rules of a push (`changes == ANY`).
 * Throws GitLab's 403 or 404 with its plain-text message. `readOnly` is where a repository that
 * cannot take writes (a storage move in progress) refuses a push.
 */
export function checkAccess(state: State, caller: Caller, target: GitTarget, command: string | null, now: number, readOnly: (project: Project) => boolean): Project {
  const abilities = abilitiesOf(caller);
  checkCommand(abilities, command);
  const project = target.project;
  if (!project) throw gitNotFound();
  const user = caller.user;
  if (caller.method === 'job') {
    // A job's token reaches its own project and those that allow it (the inbound allowlist).
    const source = caller.token?.projectId;
    if (source !== project.id && (source === undefined || !project.jobTokenAllowlist.includes(source))) {
      const from = source !== undefined ? tget(state.projects, source) : undefined;
      throw gitForbidden(`Authentication by CI/CD job token not allowed from ${from?.path ?? ''} to ${project.path}.`);
    }
    if (!canDownloadCode(state, user, project, now)) throw gitForbidden(`Insufficient permissions to pull from the repository of project ${project.path}.`);
  } else if (!canReadProject(state, user, project, now)) throw gitNotFound();
  if (command === 'git-upload-pack') {
    const asUser = abilities.has('download_code') && canDownloadCode(state, user, project, now);
    if (!asUser && !abilities.has('build_download_code') && !anonymousCanDownload(state, project, now)) throw gitForbidden(MESSAGES.download);
    return project;
  }
  // check_push_access!: the single place a repository that may not take writes refuses a push.
  if (readOnly(project)) throw gitForbidden(MESSAGES.readOnly);
  if (project.archived) throw gitForbidden(MESSAGES.archived);
  if (!user) throw gitForbidden(MESSAGES.upload);
  if (!canPushCode(state, user, project, now)) throw gitForbidden(MESSAGES.pushCode);
  return project;
}

