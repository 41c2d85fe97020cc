// The wikis family's part of the fixture format: the pages of a group's or project's wiki.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

export const wikiPageSchema = object({
  title: str,
  content: str,
  /** markdown (default), rdoc, asciidoc or org. */
  format: opt(oneOf('markdown', 'rdoc', 'asciidoc', 'org')),
  /** The username of the commit's author. */
  author: opt(str),
});

export const wikisSchema = object({
  /** Pages of the wiki, committed in order. */
  wiki: opt(arrayOf(wikiPageSchema)),
});
