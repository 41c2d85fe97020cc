// The messages the snippets family answers itself (lib/api/snippets.rb, project_snippets.rb,
// lib/api/helpers/snippets_helpers.rb, app/services/snippets/*, app/models/snippet_repository.rb).
import { messageError, notFound, recordNotFound } from '../../core/errors.js';

export const snippetNotFound = () => notFound('Snippet');
export const fileNotFound = () => notFound('File');
export const referenceNotFound = () => notFound('Reference');
export const userAgentDetailNotFound = () => notFound('UserAgentDetail');
/** `Snippet.find` of a missing id: ActiveRecord::RecordNotFound. */
export const snippetRecordNotFound = () => recordNotFound();
/** `render_api_error!({ error: message }, status)`. */
export const snippetError = (status: number, text: string) => messageError(status, { error: text });
export const multipleFilesNeedFiles = () => snippetError(400, 'To update Snippets with multiple files, you must use the `files` parameter');
export const invalidActions = () => snippetError(422, 'Snippet actions have invalid data');
/** The model's validation errors, as `errors.full_messages.to_sentence` joins them. */
export function snippetInvalid(messages: string[]) {
  const text = messages.length <= 2 ? messages.join(' and ') : `${messages.slice(0, -1).join(', ')}, and ${messages[messages.length - 1]}`;
  return snippetError(400, text);
}
/** A save without content (a create whose `files` is empty): the model's validation. */
export const contentBlank = () => snippetError(400, "Content can't be blank");
/**
 * A commit the repository refused (Snippets::BaseService#repository_error_message): a
 * SnippetRepository::CommitError says no more; its InvalidPathError adds "Invalid file name".
 */
export const repositoryError = (verb: 'creating' | 'updating', invalidPath: boolean) =>
  snippetError(400, `Repository Error ${verb} the snippet${invalidPath ? ' - Invalid file name' : ''}`);
export { forbidden as forbiddenSnippet } from '../../core/errors.js';
