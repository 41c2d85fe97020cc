// The notes family's part of the fixture format: notes of a project's issues and merge requests,
// and of a group's epics.
import { arrayOf, bool, num, object, opt, str } from '../../core/schema.js';

const note = {
  body: str,
  /** A username; the project's creator (or the group's first owner) when absent. */
  author: opt(str),
  internal: opt(bool),
  /** A system note (as GitLab writes about changes), not a comment. */
  system: opt(bool),
  created_at: opt(str),
};

/** A note on one issue or merge request (by iid) of the project. */
export const projectNoteSchema = object({ issue: opt(num), merge_request: opt(num), ...note });
/** A note on one epic (by iid) of the group. */
export const groupNoteSchema = object({ epic: num, ...note });

export const projectNotesSchema = object({ notes: opt(arrayOf(projectNoteSchema)) });
export const groupNotesSchema = object({ notes: opt(arrayOf(groupNoteSchema)) });
