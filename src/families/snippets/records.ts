// Snippets: a project's or a user's (personal) snippet with its files.
import type { Visibility } from '../../store/state.js';

export interface SnippetFile {
  path: string;
  content: string;
}

export interface Snippet {
  id: number;
  /** The project of a project snippet; null for a personal snippet. */
  projectId: number | null;
  authorId: number;
  title: string;
  description: string | null;
  visibility: Visibility;
  /** Its files, in the order the repository lists them (by path). */
  files: SnippetFile[];
  createdAt: number;
  updatedAt: number;
}
