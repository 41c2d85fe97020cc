// What the merge requests routes answer when a rule refuses (lib/api/merge_requests.rb).
import { notFound, validationFailed } from '../../core/errors.js';

export const mergeRequestNotFound = () => notFound('Merge Request');
export const branchNotFound = (which: 'source' | 'target') =>
  validationFailed({ [`${which}_branch`]: [`${which === 'source' ? 'Source' : 'Target'} branch does not exist`] });
