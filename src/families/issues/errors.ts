// What the issues routes answer when a rule refuses (lib/api/issues.rb, time_tracking_endpoints.rb).
import { messageError, notFound, validationFailed } from '../../core/errors.js';

export const duplicatedIssue = () => messageError(409, 'Duplicated issue');
export const issueNotFound = () => notFound('Issue');
export const issueInvalid = (errors: Record<string, string[]>) => validationFailed(errors);
export const subtractTooMuch = () => validationFailed({ base: ['Time to subtract exceeds the total time spent'] });
export const moveError = (text: string) => messageError(400, text);
