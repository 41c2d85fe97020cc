// The broadcast messages API's own answers; the rest are the shared envelopes.
import { recordNotFound, validationFailed } from '../../core/errors.js';

/** `BroadcastMessage.find`: ActiveRecord::RecordNotFound, rescued as `404 Not found`. */
export const messageNotFound = () => recordNotFound();
/** `render_validation_error!`. */
export const invalidMessage = (errors: Record<string, string[]>) => validationFailed(errors);
