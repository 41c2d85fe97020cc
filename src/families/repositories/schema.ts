// The repositories family's part of the fixture format: a project's repository.
import { arrayOf, nullable, num, object, opt, recordOf, str, union } from '../../core/schema.js';
import { accessLevelSchema } from '../users/index.js';

const signature = object({
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

export const commitSchema = object({
  branch: opt(str),
  start_branch: opt(str),
  message: str,
  author: opt(str),
  files: opt(recordOf(nullable(str))),
  base64: opt(recordOf(str)),
  executable: opt(arrayOf(str)),
  date: opt(str),
});

export const repositorySchema = object({
  repository: opt(
    object({
      files: opt(recordOf(str)),
      branches: opt(recordOf(str)),
      commits: opt(arrayOf(commitSchema)),
      tags: opt(recordOf(union(str, object({ ref: str, message: str, signature: opt(signature) })))),
      default_branch: opt(str),
      lfs: opt(recordOf(str)),
      protected_branches: opt(recordOf(object({ push_access_level: opt(accessLevelSchema), merge_access_level: opt(accessLevelSchema) }))),
      protected_tags: opt(recordOf(object({ create_access_level: opt(accessLevelSchema) }))),
    }),
  ),
});
