// The draft notes' messages (lib/api/draft_notes.rb, app/services/draft_notes/*, app/models/draft_note.rb).
import { ApiError, badRequest, validationFailed } from '../../core/errors.js';

/** CreateService#base_error: `{"message":{"base":[...]}}`. */
const baseError = (text: string) => validationFailed({ base: [text] });
export const threadNotFound = () => baseError('Thread to reply to cannot be found');
export const replyToSystemNote = () => baseError('Replies to system notes are not allowed');
export const cannotResolveThread = () => baseError('User is not allowed to resolve thread');
/** DraftNote's `validates :author_id, uniqueness: { scope: [:merge_request_id, :discussion_id] }`: one draft reply per thread. */
export const replyDrafted = () => validationFailed({ author_id: ['has already been taken'] });
/** DiffPositionableNote#diff_refs_match_commit. */
export const commitMismatch = () => validationFailed({ commit_id: ['does not match the diff refs'] });
/** `bad_request!('Missing params to modify')`: an edit without a note. */
export const nothingToModify = () => badRequest('Missing params to modify');
/**
 * A publish PublishService refused (`Not allowed to create notes`): the route answers `status 500`,
 * whose value Grape then renders as the body.
 */
export const publishRefused = () => new ApiError(500, 500);
