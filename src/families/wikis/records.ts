// The records of a wiki kept in the world: its head commit and its pages. The pages' content
// lives in the wiki's git repository (src/git/objects.ts); these records index it.

export const WIKI_FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;
export type WikiFormat = (typeof WIKI_FORMATS)[number];

/** The extension a page of each format is written with (Wiki::MARKUPS). */
export const EXTENSIONS: Record<WikiFormat, string> = { markdown: 'md', rdoc: 'rdoc', asciidoc: 'asciidoc', org: 'org' };

/** A wiki page: its file in the wiki repository (`dir/My-Page.md`) and its meta id. */
export interface WikiPage {
  /** The path of its file at the wiki's head. */
  path: string;
  format: WikiFormat;
  /** WikiPage::Meta's id, kept across renames. */
  metaId: number;
}

/** A wiki's repository: the tip of its one branch. */
export interface WikiRepo {
  head: string;
  /** The branch (the default branch when the wiki was made). */
  branch: string;
}
