// WikiPages::{Create,Update,Destroy}Service and Wikis::CreateAttachmentService over a wiki's git
// repository: each change writes one commit (the caller as author and committer, Wiki's
// default messages) and returns the change that moves the wiki's head and indexes its pages, to
// apply in the caller's transaction. A request that fails leaves only unreachable objects behind.
import { peekHex, randomHex, sequences } from '../../store/state.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { pdel, pset, tget, tset } from '../../store/table.js';
import { assertRepositoryWritable, fileAt, personOf, writeFileCommit, type FileAction } from '../repositories/index.js';
import type { Change, GitWork } from '../define.js';
import type { State } from '../world.js';
import { emit, type EventKind } from '../stream.js';
import { serializeFrontMatter, splitFrontMatter } from './front-matter.js';
import { attachmentFailed, duplicatePage, pageInvalid, pageMoved, renameTaken } from './errors.js';
import { EXTENSIONS, WIKI_FORMATS, type WikiFormat, type WikiPage } from './records.js';
import {
  commitsTable, directoryOf, findPage, isWikiCommit, normalisePath, objectsKey, pageKey, pagePath, pagesTable, reposTable, slugOf, sluggify, squishTitle,
  titleOf, validatePage, wikiRepo, type WikiOwner,
} from './rules.js';

export const ids = sequences(['wiki_page_meta']);

/** The branch a new wiki commits to (the instance's default branch name). */
export const WIKI_DEFAULT_BRANCH = 'main';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const fail = (errors: Record<string, string[]>) => {
  if (Object.keys(errors).length) throw pageInvalid(errors);
};

/**
 * Writes one commit of `actions` on the wiki's head; the change moves the head there and returns
 * what `apply` makes of it. Refused while a storage move has the repository read-only.
 */
async function commitWiki<T>(
  w: GitWork,
  o: WikiOwner,
  actions: FileAction[],
  message: string,
  apply: (draft: State, sha: string) => T,
  branch?: string,
): Promise<Change<T>> {
  assertRepositoryWritable(w.state, o.kind, o.id);
  const wiki = wikiRepo(w.state, o);
  const who = personOf(w.user);
  const now = w.now;
  const sha = await writeFileCommit(w.git(objectsKey(o)), wiki?.head ?? null, { message, author: who, committer: who, actions, now }, { allowEmpty: true });
  return ((draft) => {
    const d = draft as State;
    assertRepositoryWritable(d, o.kind, o.id);
    const current = tget(reposTable(d, o), o.id);
    if (current?.head !== wiki?.head) throw pageMoved();
    tset(reposTable(d, o), o.id, { head: sha, branch: wiki?.branch ?? branch ?? WIKI_DEFAULT_BRANCH });
    pset(commitsTable(d, o), o.id, sha, now);
    return apply(d, sha);
  }) as Change<T>;
}

/** The raw text of a file of the wiki at a commit, or null. */
export async function readWikiFile(repo: RepositoryObjects, commit: string, path: string): Promise<string | null> {
  const entry = await fileAt(repo, commit, path);
  return entry ? decoder.decode(await repo.readBlob(entry.oid)) : null;
}

/** A page as it is at the head, or at an earlier commit of the wiki (`version`); null when absent there. */
export async function pageAt(state: State, repo: RepositoryObjects, o: WikiOwner, slug: string, version?: string): Promise<{ page: WikiPage; raw: string } | null> {
  const wiki = wikiRepo(state, o);
  if (!wiki) return null;
  if (version === undefined) {
    const page = findPage(state, o, slug);
    if (!page) return null;
    const raw = await readWikiFile(repo, wiki.head, page.path);
    return raw === null ? null : { page, raw };
  }
  if (!/^[0-9a-f]{40}$/.test(version) || !isWikiCommit(state, o, version)) return null;
  const current = findPage(state, o, slug);
  const candidates: WikiPage[] = current ? [current] : [];
  for (const format of WIKI_FORMATS) candidates.push({ path: pagePath(sluggify(slug), format), format, metaId: current?.metaId ?? 0 });
  for (const page of candidates) {
    const raw = await readWikiFile(repo, version, page.path);
    if (raw !== null) return { page, raw };
  }
  return null;
}

export interface CreateInput {
  title: string;
  content: string;
  format: WikiFormat;
  /** Written as a YAML block before the content (WikiPage#update_front_matter). */
  frontMatter?: Record<string, string>;
}

/** WikiPages::CreateService: the title squished, its path sluggified; a page of the same title (any case, any format) refuses it. */
export async function createPage(w: GitWork, o: WikiOwner, input: CreateInput): Promise<Change<WikiPage>> {
  const title = squishTitle(input.title);
  const content = input.frontMatter ? serializeFrontMatter(input.frontMatter) + input.content : input.content;
  fail(validatePage(title, content));
  const slug = sluggify(title);
  if (slug === '') fail({ title: ["can't be blank"] });
  const existing = findPage(w.state, o, slug);
  if (existing) throw duplicatePage(existing.path);
  const path = pagePath(slug, input.format);
  const message = `${w.user.username} created page: ${title}`;
  return commitWiki(w, o, [{ action: 'create', path, content: encoder.encode(content) }], message, (d) => {
    if (findPage(d, o, slug)) throw duplicatePage(path);
    const page: WikiPage = { path, format: input.format, metaId: ids.next(d, 'wiki_page_meta') };
    pset(pagesTable(d, o), o.id, pageKey(slug), page);
    emitPage(d, 'wiki_page.created', o, page);
    return page;
  });
}

export interface UpdateInput {
  title?: string;
  content?: string;
  format?: WikiFormat;
  /** Replaces the page's front matter; without new content, the page's content (less its old front matter) follows it. */
  frontMatter?: Record<string, string>;
}

/**
 * WikiPage#process_title: a title without a directory stays in the page's directory, one that
 * starts with `/` moves to the root.
 */
function titlePath(page: WikiPage, title: string): string {
  const squished = squishTitle(title);
  if (squished.startsWith('/') && !squished.slice(1).includes('/')) return squished.slice(1);
  if (!squished.includes('/')) {
    const dir = directoryOf(page);
    return dir ? `${dir}/${squished}` : squished;
  }
  return squished;
}

/** WikiPages::UpdateService: a new title or format moves the page's file; a title another page has is refused. */
export async function updatePage(w: GitWork, o: WikiOwner, page: WikiPage, input: UpdateInput): Promise<Change<WikiPage>> {
  const wiki = wikiRepo(w.state, o)!;
  const format = input.format ?? page.format;
  const current = async () => (await readWikiFile(w.git(objectsKey(o)), wiki.head, page.path)) ?? '';
  let content: string;
  // `fm_yaml + (attrs[:content].presence || content)`: the new content, or the page's without its front matter.
  if (input.frontMatter) content = serializeFrontMatter(input.frontMatter) + (input.content || splitFrontMatter(page.format, await current()).content);
  else content = input.content ?? (await current());
  const title = input.title !== undefined && input.title.trim() !== '' ? titlePath(page, input.title) : slugOf(page);
  fail(validatePage(title, input.content === undefined && !input.frontMatter ? undefined : content));
  const slug = sluggify(normalisePath(title));
  if (slug === '') fail({ title: ["can't be blank"] });
  const other = findPage(w.state, o, slug);
  if (other && other.path !== page.path) throw renameTaken();
  // The same format keeps the file's extension (markdown has several); another takes its own.
  const ext = format === page.format ? page.path.slice(page.path.lastIndexOf('.') + 1) : EXTENSIONS[format];
  const path = `${slug}.${ext}`;
  const bytes = encoder.encode(content);
  const actions: FileAction[] =
    path === page.path ? [{ action: 'update', path, content: bytes }] : [{ action: 'delete', path: page.path }, { action: 'create', path, content: bytes }];
  const message = `${w.user.username} updated page: ${title.slice(title.lastIndexOf('/') + 1)}`;
  const oldKey = pageKey(slugOf(page));
  return commitWiki(w, o, actions, message, (d) => {
    const moved: WikiPage = { path, format, metaId: page.metaId };
    pdel(pagesTable(d, o), o.id, oldKey);
    pset(pagesTable(d, o), o.id, pageKey(slug), moved);
    emitPage(d, 'wiki_page.updated', o, moved);
    return moved;
  });
}

/**
 * WikiPages::DestroyService: the page's file removed in one commit. A file of the same slug in
 * another format (pushed beside it) is the page from then on, as a push of that tree makes it.
 */
export async function deletePage(w: GitWork, o: WikiOwner, page: WikiPage): Promise<Change> {
  const message = `${w.user.username} deleted page: ${titleOf(page)}`;
  const slug = slugOf(page);
  const head = wikiRepo(w.state, o)?.head;
  let next: WikiPage | undefined;
  if (head) {
    // The last in tree order, as a push's page list keeps it.
    for (const format of [...WIKI_FORMATS].sort((a, b) => (EXTENSIONS[a] < EXTENSIONS[b] ? -1 : 1))) {
      const path = `${slug}.${EXTENSIONS[format]}`;
      if (path !== page.path && (await fileAt(w.git(objectsKey(o)), head, path))) next = { path, format, metaId: page.metaId };
    }
  }
  return commitWiki(w, o, [{ action: 'delete', path: page.path }], message, (d) => {
    if (next) pset(pagesTable(d, o), o.id, pageKey(slug), next);
    else pdel(pagesTable(d, o), o.id, pageKey(slug));
    emitPage(d, 'wiki_page.deleted', o, page);
  });
}

/** A wiki page's event: its owner, slug, title and format as they are after the change. */
function emitPage(draft: State, kind: Extract<EventKind, `wiki_page.${string}`>, o: WikiOwner, page: WikiPage): void {
  const owner = o.kind === 'project' ? { projectId: o.id } : { groupId: o.id };
  emit(draft, { kind, ...owner, metaId: page.metaId, slug: slugOf(page), title: titleOf(page), format: page.format });
}

/** Wikis::CreateAttachmentService::MAX_FILENAME_LENGTH, and its truncation that keeps the extension. */
const MAX_FILENAME_LENGTH = 255;

export function attachmentName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  if (base.length <= MAX_FILENAME_LENGTH) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot) : '';
  return base.slice(0, MAX_FILENAME_LENGTH - ext.length) + ext;
}

export interface Attachment {
  fileName: string;
  filePath: string;
  branch: string;
  commit: string;
}

/** Wikis::CreateAttachmentService: the file committed under `uploads/<32 hex>/`. */
export async function createAttachment(w: GitWork, o: WikiOwner, file: Blob, branch?: string): Promise<Change<Attachment>> {
  const fileName = attachmentName((file as File).name ?? '');
  if (fileName === '') throw attachmentFailed('The file name cannot be empty');
  const wiki = wikiRepo(w.state, o);
  const target = branch ?? wiki?.branch ?? WIKI_DEFAULT_BRANCH;
  if (wiki && target !== wiki.branch) throw attachmentFailed('You can only create or edit files when you are on a branch');
  assertRepositoryWritable(w.state, o.kind, o.id);
  // The directory's random part, read now and taken from the world's generator by the change.
  const hex = peekHex(w.state, 32);
  const filePath = `uploads/${hex}/${fileName}`;
  const content = new Uint8Array(await file.arrayBuffer());
  const commit = await commitWiki(w, o, [{ action: 'create', path: filePath, content }], `Upload attachment ${fileName}`, (d, sha) => {
    if (randomHex(d, 32) !== hex) throw pageMoved();
    return sha;
  }, target);
  return (draft) => ({ fileName, filePath, branch: target, commit: commit(draft) });
}
