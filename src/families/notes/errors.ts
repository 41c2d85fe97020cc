// The notes family's messages (lib/api/helpers/notes_helpers.rb, app/models/note.rb,
// app/services/notes/*): a note's validation errors are Ruby's Hash#inspect inside "Note ...".
import { badRequest, notFound } from '../../core/errors.js';

/** `bad_request!("Note #{note.errors.messages}")`. */
export const noteInvalid = (field: string, text: string) => notesInvalid([[field, text]]);
/** A note's validation errors, each field with its message, as Ruby prints the errors' hash. */
export const notesInvalid = (errors: readonly [string, string][]) => badRequest(`Note {${errors.map(([f, t]) => `:${f}=>[${JSON.stringify(t)}]`).join(', ')}}`);
export const bodyBlank = () => noteInvalid('note', "can't be blank");
export const bodyTooLong = (max: number) => noteInvalid('note', `is too long (maximum is ${max} characters)`);
export const tooManyNotes = () => noteInvalid('base', 'Maximum number of comments exceeded');
export const internalNotAllowed = () => noteInvalid('confidential', 'can not be set for this resource');
export const confidentialityChanged = () => noteInvalid('confidential', 'can not be changed for existing notes');
/** A note of commands only, none of which could run. */
export const commandsFailed = () => badRequest('Failed to apply commands.');
/** The note exists but the caller may not read it (`get_note`). */
export const noteNotReadable = () => notFound('Note');
/** The noteable is missing or unreadable: `not_found!(noteable_type)`. */
export const noteableNotFound = (type: string) => notFound(type);
/** `resolve_note` on a note that is not part of a merge request's thread. */
export const notResolvable = () => badRequest('Note is not resolvable');
/** A discussion that is not there, or none of whose notes the caller may read. */
export const discussionNotFound = (what: 'Discussion' | 'Notes' = 'Discussion') => notFound(what);
/** A reply to a note that stands alone on what takes no replies to those (a snippet), or to a system note. */
export const cannotReply = () => badRequest('Discussion can not be replied to.');
