// Entities::BasicSnippet and Snippet (lib/api/entities/basic_snippet.rb, snippet.rb), which
// ProjectSnippet and PersonalSnippet are; EE's `repository_storage` for administrators.
import type { User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { urlPath } from '../../render/url.js';
import { iso } from '../../render/time.js';
import { projectPaths } from '../projects/index.js';
import { repositoryStorageOf } from '../repositories/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';

export interface SnippetUrls {
  web: string;
  http: string;
  ssh: string;
}

/** Gitlab::UrlBuilder's snippet URLs: under the project's path, or `/-/snippets/` for a personal one. */
export function snippetUrls(state: State, s: Snippet, u: UrlBase): SnippetUrls {
  const host = new URL(u.webBase).hostname;
  const project = s.projectId === null ? undefined : tget(state.projects, s.projectId);
  const path = project ? projectPaths(state, project).fullPath : null;
  return path
    ? { web: `${u.webBase}/${path}/-/snippets/${s.id}`, http: `${u.webBase}/${path}/snippets/${s.id}.git`, ssh: `git@${host}:${path}/snippets/${s.id}.git` }
    : { web: `${u.webBase}/-/snippets/${s.id}`, http: `${u.webBase}/snippets/${s.id}.git`, ssh: `git@${host}:snippets/${s.id}.git` };
}

/** Entities::BasicSnippet: what a snippet storage move shows of its snippet. */
export function basicSnippetEntity(state: State, s: Snippet, u: UrlBase) {
  const urls = snippetUrls(state, s, u);
  const author = tget(state.users, s.authorId);
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    author: author ? userBasic(author, u) : null,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    project_id: s.projectId,
    web_url: urls.web,
    raw_url: `${urls.web}/raw`,
    ssh_url_to_repo: urls.ssh,
    http_url_to_repo: urls.http,
  };
}

/**
 * Entities::Snippet for `viewer` (`current_user`): the files are the repository's at the head of
 * the snippet's branch (`list_files`), each with its raw URL at that branch; administrators also
 * see the storage shard the repository is on.
 */
export function snippetEntity(state: State, s: Snippet, u: UrlBase, viewer: User | null = null) {
  const urls = snippetUrls(state, s, u);
  return {
    ...basicSnippetEntity(state, s, u),
    file_name: s.paths[0] ?? s.fileName,
    files: s.paths.map((path) => ({ path, raw_url: `${urls.web}/raw/${urlPath(s.branch)}/${urlPath(path)}` })),
    imported: false,
    imported_from: 'none',
    ...(viewer?.admin ? { repository_storage: repositoryStorageOf(state, 'snippet', s.id) } : {}),
  };
}

const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;

/**
 * Snippet#hook_attrs, as webhook payloads carry a project snippet (the `snippet` of a note
 * event's sample, the `project_snippet` of an emoji event): `time` writes its times as the
 * hooks do, `content` is its first file's text.
 */
export function snippetHookAttrs(state: State, s: Snippet, u: UrlBase, content: string, time: (ms: number) => string | null) {
  return {
    id: s.id, title: s.title, description: s.description, content, author_id: s.authorId, project_id: s.projectId,
    created_at: time(s.createdAt), updated_at: time(s.updatedAt), file_name: s.paths[0] ?? s.fileName,
    type: s.projectId === null ? 'PersonalSnippet' : 'ProjectSnippet', visibility_level: VISIBILITY_LEVEL[s.visibility], url: snippetUrls(state, s, u).web,
  };
}
