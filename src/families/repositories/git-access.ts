// Who may fetch from and push to a project's repository over git's smart HTTP, as GitLab decides
// it (lib/gitlab/git_access.rb check, GitAccessProject, LfsRequest), with its messages; and which
// project a git URL names (Gitlab::RepoPath: `<full path>(.git)`, a wiki's `<full path>.wiki`).
import type { Caller } from '../../http/auth.js';
import { abilitiesOf, checkCommand, gitForbidden, gitNotFound, MESSAGES } from '../../http/git-access.js';
import { canReadProject } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { jobTokenReaches } from '../../policy/job-token.js';
import type { CoreState, Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import type { State } from '../world.js';
import { canPushCode, canReadCode } from './rules.js';

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
  const abilities = checkCommand(abilitiesOf(caller), command);
  const project = target.project;
  if (!project) throw gitNotFound();
  const user = caller.user;
  if (caller.deployToken) {
    // A deploy token reaches the project it logged in for (DeployToken#has_access_to?) and reads
    // it whatever its visibility; it has no ability to push (check_command refused that above).
    if (caller.deployToken.projectId !== project.id) throw gitNotFound();
    if (command === 'git-upload-pack') return project;
    throw gitForbidden(MESSAGES.upload);
  }
  if (caller.method === 'job') {
    // A job's token reaches its own project and those that allow it (the inbound allowlist).
    const source = caller.token?.projectId;
    if (!jobTokenReaches(state, source, project)) {
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


/** LfsRequest#lfs_check_access! for an operation: `allowed`, else `forbidden` (403) to whoever may see the project, `hidden` (404) to anyone else. */
export function lfsAccess(state: State, caller: Caller, project: Project, operation: unknown, now: number): 'allowed' | 'forbidden' | 'hidden' {
  const upload = operation === 'upload';
  const abilities = abilitiesOf(caller);
  // lfs_download_access?: a deploy token that may download the project's code.
  const deployToken = caller.deployToken?.projectId === project.id && abilities.has('download_code');
  const job = caller.method === 'job' && jobTokenReaches(state, caller.token?.projectId, project);
  const allowed = upload
    ? abilities.has('push_code') && canPushCode(state, caller.user, project, now)
    : deployToken || (abilities.has('download_code') && canDownloadCode(state, caller.user, project, now)) || (job && canDownloadCode(state, caller.user, project, now));
  if (allowed && (operation === 'upload' || operation === 'download')) return 'allowed';
  return project.visibility === 'public' || canReadProject(state, caller.user, project, now) ? 'forbidden' : 'hidden';
}
