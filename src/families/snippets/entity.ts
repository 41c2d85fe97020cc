// Entities::BasicSnippet, Snippet, ProjectSnippet and PersonalSnippet (lib/api/entities/*snippet.rb).
import { tget } from '../../store/table.js';
import { urlPath } from '../../render/url.js';
import { iso } from '../../render/time.js';
import { projectPaths } from '../projects/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';

/** The branch a snippet's files are read at. */
export const SNIPPET_REF = 'main';

export interface SnippetUrls {
  web: string;
  http: string;
  ssh: string;
}

export function snippetUrls(state: State, s: Snippet, u: UrlBase): SnippetUrls {
  const host = new URL(u.webBase).hostname;
  const project = s.projectId === null ? undefined : tget(state.projects, s.projectId);
  const path = project ? projectPaths(state, project).fullPath : null;
  return path
    ? { web: `${u.webBase}/${path}/-/snippets/${s.id}`, http: `${u.webBase}/${path}/snippets/${s.id}.git`, ssh: `git@${host}:${path}/snippets/${s.id}.git` }
    : { web: `${u.webBase}/-/snippets/${s.id}`, http: `${u.webBase}/snippets/${s.id}.git`, ssh: `git@${host}:snippets/${s.id}.git` };
}

export function snippetEntity(state: State, s: Snippet, u: UrlBase) {
  const urls = snippetUrls(state, s, u);
  const author = tget(state.users, s.authorId);
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    updated_at: iso(s.updatedAt),
    created_at: iso(s.createdAt),
    project_id: s.projectId,
    web_url: urls.web,
    raw_url: `${urls.web}/raw`,
    ssh_url_to_repo: urls.ssh,
    http_url_to_repo: urls.http,
    author: author ? userBasic(author, u) : null,
    file_name: s.files[0]?.path ?? null,
    files: s.files.map((f) => ({ path: f.path, raw_url: `${urls.web}/raw/${SNIPPET_REF}/${urlPath(f.path)}` })),
    imported: false,
    imported_from: 'none',
  };
}
