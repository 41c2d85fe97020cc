// The webhook APIs' own answers (lib/api/helpers/web_hooks_helpers.rb, WebHooks::CreateService).
import { grapeError, messageError, notFound, recordNotFound } from '../../core/errors.js';

/** `hooks.find`: ActiveRecord::RecordNotFound. */
export const hookNotFound = () => recordNotFound();
export const urlInvalid = () => grapeError(422, 'Invalid url given');
export const branchFilterInvalid = () => grapeError(422, 'Invalid branch filter given');
/** CreateService's message, and save_hook's on update. */
export const customHeadersInvalid = (creating: boolean) =>
  grapeError(422, creating ? 'Custom headers must be a valid json schema' : 'Custom headers validation failed');
/** CreateService: the full messages as a sentence; an update: render_validation_error!. */
export function hookInvalid(errors: Record<string, string[]>, creating: boolean) {
  if (!creating) return messageError(422, errors);
  const sentence = Object.entries(errors).flatMap(([field, list]) => list.map((m) => `${humanize(field)} ${m}`));
  return grapeError(422, sentence.length <= 2 ? sentence.join(' and ') : `${sentence.slice(0, -1).join(', ')}, and ${sentence[sentence.length - 1]}`);
}
const humanize = (field: string) => field.charAt(0).toUpperCase() + field.slice(1).replaceAll('_', ' ');
export const noParameters = () => grapeError(400, 'No parameters provided');
export const urlVariableNotFound = () => notFound('URL variable');
export const customHeaderNotFound = () => notFound('Custom header');
export const illegalKeyOrValue = () => grapeError(422, 'Illegal key or value');
export const hookLogNotFound = () => recordNotFound();
// render_api_error!(result.message, 422) in lib/api/hooks/trigger_test.rb: a `message` body.
export const testTriggerError = (message: string) => messageError(422, message);
