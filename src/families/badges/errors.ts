// The badges API's own answers.
import { messageError, recordNotFound, validationFailed } from '../../core/errors.js';

/** `source.badges.find`: ActiveRecord::RecordNotFound. */
export const badgeNotFound = () => recordNotFound();
/** `render_validation_error!(badge)`. */
export const invalidBadge = (errors: Record<string, string[]>) => validationFailed(errors);
/** A group's badge is removed through its group. */
export const groupBadgeThroughProject = () => messageError(403, 'To delete a Group badge please use the Group endpoint');
