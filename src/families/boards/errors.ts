// The boards APIs' own answers.
import { grapeError, recordNotFound, validationFailed } from '../../core/errors.js';

/** `boards.find` / `lists.find`: ActiveRecord::RecordNotFound. */
export const boardNotFound = () => recordNotFound();
/** Boards::Lists::CreateService's error, as `render_api_error!({ error: ... }, 400)`. */
export const listNotCreated = (text: string) => grapeError(400, text);
export const listNotMoved = () => grapeError(400, 'List could not be moved!');
/** `render_validation_error!`. */
export const invalidBoard = (errors: Record<string, string[]>) => validationFailed(errors);
