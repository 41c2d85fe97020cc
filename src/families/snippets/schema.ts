// The snippets family's part of the fixture format: a project's snippets and a user's personal ones.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

export const snippetFileSchema = object({ path: str, content: str });
const common = {
  title: str,
  description: opt(str),
  /** The instance's default snippet visibility (`private`) unless given. */
  visibility: opt(oneOf('private', 'internal', 'public')),
  files: arrayOf(snippetFileSchema),
};

export const snippetSchema = object(common);
export const projectSnippetSchema = object({
  ...common,
  /** The username of its author; the project's creator by default. */
  author: opt(str),
});
export const userSnippetsSchema = object({
  /** The user's personal snippets. */
  snippets: opt(arrayOf(snippetSchema)),
});
export const projectSnippetsSchema = object({
  /** The project's snippets. */
  snippets: opt(arrayOf(projectSnippetSchema)),
});
