// The messages the wikis family answers itself (lib/api/wikis.rb, app/models/wiki_page.rb,
// app/models/wiki.rb, app/services/wikis/create_attachment_service.rb).
import { messageError, notFound, validationFailed } from '../../core/errors.js';

export const pageNotFound = () => notFound('Wiki Page');
export const pageInvalid = (errors: Record<string, string[]>) => validationFailed(errors);
export const duplicatePage = (file: string) => validationFailed({ base: [`Duplicate page: A page with that title already exists in the file ${file}`] });
export const renameTaken = () => messageError(400, 'There is already a page with the same title in that path.');
export const attachmentFailed = (text: string) => messageError(400, text);
export const pageMoved = () => messageError(400, 'You are attempting to update a page that has changed since you started editing it.');
