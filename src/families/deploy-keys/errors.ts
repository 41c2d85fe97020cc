// The deploy keys and keys APIs' own answers.
import { messageError, notFound, recordNotFound, validationFailed } from '../../core/errors.js';

/** `not_found!('Deploy key')`. */
export const deployKeyNotFound = () => notFound('Deploy key');
/** `find_by!` on the project's deploy keys: ActiveRecord::RecordNotFound. */
export const deployKeysProjectNotFound = () => recordNotFound();
/** `Key.find`: ActiveRecord::RecordNotFound. */
export const keyNotFound = () => recordNotFound();
/** `not_found!('Key')`: no key has the fingerprint. */
export const noKeyWithFingerprint = () => notFound('Key');
/** KeysFinder::InvalidFingerprint. */
export const invalidFingerprint = () => messageError(400, 'Failed to return the key');
/** `render_validation_error!`. */
export const invalidKey = (errors: Record<string, string[]>) => validationFailed(errors);
