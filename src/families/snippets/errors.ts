// The messages the snippets family answers itself (lib/api/snippets.rb, project_snippets.rb,
// lib/api/helpers/snippets_helpers.rb, app/services/snippets/*).
import { messageError, notFound } from '../../core/errors.js';

export const snippetNotFound = () => notFound('Snippet');
export const fileNotFound = () => notFound('File');
export const referenceNotFound = () => notFound('Reference');
/** `render_api_error!({ error: message }, status)`. */
export const snippetError = (status: number, text: string) => messageError(status, { error: text });
export const multipleFilesNeedFiles = () => snippetError(400, 'To update Snippets with multiple files, you must use the `files` parameter');
export const invalidActions = () => snippetError(422, 'Snippet actions have invalid data');
export { forbidden as forbiddenSnippet } from '../../core/errors.js';
