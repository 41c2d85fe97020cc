// What the shared routes of issues and merge requests answer when a rule refuses
// (time_tracking_endpoints.rb, award_emoji.rb).
import { messageError, notFound, validationFailed } from '../../core/errors.js';

export const badEstimate = () => messageError(400, '400 Bad request - Time estimate must have a valid format and be greater than or equal to zero.');
export const spentInvalid = () => validationFailed({ time_spent: ["can't be blank"] });
export const awardNotFound = (detail?: string) => notFound(detail ? `Award Emoji ${detail}` : 'Award Emoji');
