// Snippets: a project's or a user's (personal) snippet. Its files live in its own git repository
// (src/families/snippets/repository.ts); the record keeps what the API renders without reading
// git: the paths at the head of its branch, in the order `git ls-files` lists them.
import type { Visibility } from '../../store/state.js';

export interface Snippet {
  id: number;
  /** The project of a project snippet; null for a personal snippet. */
  projectId: number | null;
  authorId: number;
  title: string;
  description: string | null;
  visibility: Visibility;
  /** The `file_name` column: the first file's path as the last create or update named it. */
  fileName: string;
  /** The paths of its files at the head of `branch`, sorted as git lists them. */
  paths: string[];
  /** The branch its files are committed to (Snippet#default_branch when it was made). */
  branch: string;
  createdAt: number;
  updatedAt: number;
  /** UserAgentDetail: who created it through the API (absent for a snippet seeded from a fixture). */
  userAgent?: { userAgent: string; ipAddress: string };
}

