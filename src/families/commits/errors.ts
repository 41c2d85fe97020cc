// What the commit routes answer when a request is refused (lib/api/commits.rb).
import { messageError } from '../../core/errors.js';

/** A `ref_name` git would read as an option. */
export const refNameInvalid = () => messageError(400, 'ref_name is invalid');
