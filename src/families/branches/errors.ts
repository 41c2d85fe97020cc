// What the branch routes answer when a request is refused (lib/api/branches.rb).
import { messageError } from '../../core/errors.js';

/** find_branch!: a name git would refuse as a ref. */
export const branchRefnameInvalid = () => messageError(400, 'The branch refname is invalid');
/** BranchesFinder: a `regex` RE2 cannot compile. */
export const regexInvalid = () => messageError(400, 'Regex is invalid');
