// The wikis family's part of the fixture format: the pages of a group's or project's wiki.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

export const wikisSchema = object({
  wiki: opt(arrayOf(object({ title: str, content: str, format: opt(oneOf('markdown', 'rdoc', 'asciidoc', 'org')), author: opt(str) }))),
});
