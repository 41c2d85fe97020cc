// The releases family's part of the fixture format: releases of a project, from its tags.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

const link = object({ name: str, url: str, direct_asset_path: opt(str), link_type: opt(oneOf('other', 'runbook', 'image', 'package')) });

export const releaseSchema = object({
  tag_name: str,
  name: opt(str),
  description: opt(str),
  created_at: opt(str),
  released_at: opt(str),
  author: opt(str),
  milestones: opt(arrayOf(str)),
  links: opt(arrayOf(link)),
});

export const releasesSchema = object({
  /** Releases, made from tags of `repository` once it is built. */
  releases: opt(arrayOf(releaseSchema)),
});
