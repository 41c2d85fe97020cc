// The notes family's part of the fixture format: notes of a project's issues and merge requests,
// and of a group's epics.
import { arrayOf, bool, num, object, opt, str } from '../../core/schema.js';

const note = { body: str, author: opt(str), internal: opt(bool), system: opt(bool), created_at: opt(str) };

export const projectNotesSchema = object({ notes: opt(arrayOf(object({ issue: opt(num), merge_request: opt(num), ...note }))) });
export const groupNotesSchema = object({ notes: opt(arrayOf(object({ epic: num, ...note }))) });
