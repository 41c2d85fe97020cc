// What git's smart HTTP credentials allow, and how a refused git request reads, as GitLab has
// them (lib/gitlab/auth.rb abilities_for_scopes, lib/gitlab/git_access.rb and its messages):
// shared by the git surface and the families whose repositories it serves.
import { ApiError } from '../core/errors.js';
import type { Caller } from './auth.js';

export type GitCommand = 'git-upload-pack' | 'git-receive-pack';

/** What a caller's credentials allow at all (Gitlab::Auth's authentication abilities). */
export type Ability = 'download_code' | 'push_code' | 'build_download_code';

// Gitlab::GitAccess::ERROR_MESSAGES.
export const MESSAGES = {
  download: 'You are not allowed to download code from this project.',
  upload: 'You are not allowed to upload code for this project.',
  authDownload: 'You are not allowed to download code.',
  authUpload: 'You are not allowed to upload code.',
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  commandNotAllowed: "The command you're trying to execute is not allowed.",
  readOnly: 'The repository is temporarily read-only. Please try again later.',
  archived: "You can't push code to an archived project.",
  pushCode: 'You are not allowed to push code to this project.',
} as const;

const PLAIN = 'text/plain; charset=utf-8';

/** `render plain:` with a status, as GitHttpController renders an access error. */
export const plainError = (status: number, text: string, headers: Record<string, string> = {}) => new ApiError(status, text, headers, PLAIN);
export const gitForbidden = (text: string) => plainError(403, text);
export const gitNotFound = (text: string = MESSAGES.projectNotFound) => plainError(404, text);

const SCOPE_ABILITIES: Record<string, Ability[]> = {
  api: ['download_code', 'push_code'],
  read_api: ['download_code'],
  read_repository: ['download_code'],
  write_repository: ['download_code', 'push_code'],
};

/** Gitlab::Auth#abilities_for_scopes, for what git needs; OAuth tokens (with `api`) have every ability, a job token the build's. */
export function abilitiesOf(caller: Caller): ReadonlySet<Ability> {
  if (caller.method === 'none') return new Set(['download_code']);
  // An OAuth token (with `api`), and an LFS token (read_write_project_authentication_abilities).
  if (caller.method === 'oauth' || caller.method === 'lfs_token') return new Set(['download_code', 'push_code']);
  if (caller.method === 'job') return new Set(['build_download_code']);
  const out = new Set<Ability>();
  for (const s of caller.deployToken?.scopes ?? caller.token?.scopes ?? []) for (const a of SCOPE_ABILITIES[s] ?? []) out.add(a);
  return out;
}

/**
 * GitAccess#check_authentication_abilities! and check_command_existence!: the credentials allow
 * the command at all, and it is one git's smart HTTP serves. Throws GitLab's 403; returns the
 * abilities, for the checks that follow.
 */
export function checkCommand(abilities: ReadonlySet<Ability>, command: string | null): ReadonlySet<Ability> {
  if (command === 'git-upload-pack' && !abilities.has('download_code') && !abilities.has('build_download_code')) throw gitForbidden(MESSAGES.authDownload);
  if (command === 'git-receive-pack' && !abilities.has('push_code')) throw gitForbidden(MESSAGES.authUpload);
  if (command !== 'git-upload-pack' && command !== 'git-receive-pack') throw gitForbidden(MESSAGES.commandNotAllowed);
  return abilities;
}
