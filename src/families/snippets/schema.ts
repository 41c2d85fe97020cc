// The snippets family's part of the fixture format: a project's snippets and a user's personal ones.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

const fileSchema = object({ path: str, content: str });
const common = { title: str, description: opt(str), visibility: opt(oneOf('private', 'internal', 'public')), files: arrayOf(fileSchema) };

export const snippetSchema = object(common);
export const projectSnippetSchema = object({ ...common, author: opt(str) });
export const userSnippetsSchema = object({ snippets: opt(arrayOf(snippetSchema)) });
export const projectSnippetsSchema = object({ snippets: opt(arrayOf(projectSnippetSchema)) });
