// The repositories family's part of the fixture format: a project's repository.
import { arrayOf, nullable, num, object, opt, recordOf, str, union } from '../../core/schema.js';
import { accessLevelSchema } from '../users/index.js';

export const signatureSchema = object({
  verification_status: opt(str),
  certificate: opt(
    object({
      subject: opt(str),
      subject_key_identifier: opt(str),
      email: opt(str),
      serial_number: opt(num),
      certificate_status: opt(str),
      issuer: opt(object({ subject: opt(str), subject_key_identifier: opt(str), crl_url: opt(str) })),
    }),
  ),
});

export const tagSchema = object({ ref: str, message: str, signature: opt(signatureSchema) });

export const commitSchema = object({
  /** The default branch when absent; a new branch starts from `start_branch`, else the default branch. */
  branch: opt(str),
  start_branch: opt(str),
  message: str,
  /** Username of the author and committer; the project's creator when absent. */
  author: opt(str),
  /** Path -> text; `null` deletes the file. */
  files: opt(recordOf(nullable(str))),
  /** Path -> Base64 content, for binary files. */
  base64: opt(recordOf(str)),
  /** Paths whose executable bit is set. */
  executable: opt(arrayOf(str)),
  /** ISO 8601 time of the commit. */
  date: opt(str),
});

export const repositorySchema = object({
  /** Path -> text, committed together as "Initial commit" on the default branch. */
  files: opt(recordOf(str)),
  /** New branches: name -> the branch, tag or commit they start from. */
  branches: opt(recordOf(str)),
  commits: opt(arrayOf(commitSchema)),
  /**
   * Lightweight tags name -> ref; annotated ones `{ ref, message }`; signed ones also carry the
   * `signature` record GitLab keeps for an X.509-signed tag.
   */
  tags: opt(recordOf(union(str, tagSchema))),
  /** HEAD; the project's `default_branch`, else `main`, when absent. */
  default_branch: opt(str),
  /**
   * Files kept in Git LFS: path -> Base64 content. The initial commit holds a pointer file at
   * the path and the project owns the object, so `/raw?lfs=true` serves the content.
   */
  lfs: opt(recordOf(str)),
  /** Protected branches (name or wildcard); who may push and merge, maintainers by default. */
  protected_branches: opt(recordOf(object({ push_access_level: opt(accessLevelSchema), merge_access_level: opt(accessLevelSchema) }))),
  /** Protected tags (name or wildcard such as `v*`); who may create them, maintainers by default. */
  protected_tags: opt(recordOf(object({ create_access_level: opt(accessLevelSchema) }))),
});

export const repositoryProjectSchema = object({ repository: opt(repositorySchema) });
