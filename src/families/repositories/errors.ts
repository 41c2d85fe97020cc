// What the repository services answer when Gitaly or a GitLab service refuses a change
// (app/services/commits/create_service.rb, files/*_service.rb, branches/*_service.rb).
import { ApiError, messageError } from '../../core/errors.js';

// Gitaly's index errors for the paths of a commit.
export const filePathMissing = () => messageError(400, 'You must provide a file path');
export const pathTraversal = () => messageError(400, 'Path cannot include directory traversal');
export const invalidPath = (path: string) => messageError(400, `invalid path: '${path}'`);
export const directoryExists = () => messageError(400, 'A directory with this name already exists');
export const fileExists = () => messageError(400, 'A file with this name already exists');
export const fileMissing = () => messageError(400, "A file with this name doesn't exist");
export const nothingCommitted = () =>
  messageError(400, 'Your changes could not be committed, maybe the file was changed by another process or there was nothing to commit?');

// Commits::CreateService#validate! and the files services' own checks.
export const pushNotAllowed = () => messageError(400, 'You are not allowed to push into this branch');
export const notOnBranch = () => messageError(400, 'You can only create or edit files when you are on a branch');
export const targetBranchExists = (branch: string) =>
  messageError(400, `A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
export const targetBranchInvalid = (branch: string) =>
  messageError(400, `Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
export const changedWhileEditing = () => messageError(400, 'You are attempting to update a file that has changed since you started editing it.');
export const changedBeforeDelete = () => messageError(400, 'You are attempting to delete a file that has been previously updated.');

/** A branch that moved between reading it and updating it (Gitaly's compare-and-swap of the ref). */
export const branchMoved = (branch: string) => messageError(400, `Could not update branch ${branch}. Please refresh and try again.`);

// Branches::CreateService and Branches::DeleteService.
export const branchNameInvalid = () => messageError(400, 'Branch name is invalid');
export const branchExists = () => messageError(400, 'Branch already exists');
export const invalidReference = (branch: string, ref: string) => messageError(400, `Failed to create branch '${branch}': invalid reference name '${ref}'`);
export const branchHierarchyConflict = (branch: string) =>
  messageError(400, `Failed to create branch '${branch}': Branch name conflicts with existing branch hierarchy.`);
export const defaultBranchUndeletable = () => messageError(400, 'The default branch of a project cannot be deleted.');
export const protectedBranchUndeletable = () =>
  messageError(400, 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');

// Commits::CreateService#validate_start_sha! and Files::MultiService#validate_file_status!.
export const startShaInvalid = (sha: string) => messageError(400, `Invalid start_sha '${sha}'`);
export const startShaMissing = (sha: string) => messageError(400, `Cannot find start_sha '${sha}'`);
export const fileChanged = (path: string) => messageError(400, `The file has changed since you started editing it: ${path}`);

/**
 * Commits::ChangeService: Gitaly could not apply the change (`conflict`) or it changed nothing
 * (`empty`); the API answers the service's message and code (and `dry_run: "error"` for a dry run).
 */
export const changeFailed = (kind: 'cherry-pick' | 'revert', code: 'conflict' | 'empty', dryRun: boolean) =>
  new ApiError(400, {
    message: `Sorry, we cannot ${kind} this commit automatically. This commit may already have been ${kind}ed, or a more recent commit may have updated some of its content.`,
    error_code: code,
    ...(dryRun ? { dry_run: 'error' } : {}),
  });

/** Gitlab::GitAccess ERROR_MESSAGES[:read_only]: every write to a repository while it moves between storages. */
export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';
export const repositoryReadOnly = () => messageError(400, READ_ONLY_MESSAGE);
