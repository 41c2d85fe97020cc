// Wiki's and WikiPage's rules (app/models/wiki.rb, app/models/wiki_page.rb, lib/gitlab/wiki_pages.rb):
// titles to slugs and file paths, the page look-up, validations, and who may read, write and
// administer a project's or a group's wiki. Project wikis and group wikis are the same code
// over an owner.
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { canUseFeature, groupAccess, hasGroupRole, hasProjectRole, projectAccess } from '../../policy/access.js';
import { derived, pget, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import type { State } from '../world.js';
import { EXTENSIONS, WIKI_FORMATS, type WikiFormat, type WikiPage, type WikiRepo } from './records.js';

/** A wiki's owner: a project, or a group (the higher tier). */
export interface WikiOwner {
  kind: 'project' | 'group';
  id: number;
}

export const projectOwner = (p: Project): WikiOwner => ({ kind: 'project', id: p.id });
export const groupOwner = (g: Namespace): WikiOwner => ({ kind: 'group', id: g.id });

/**
 * The key of the owner's objects in the object store: a project's wiki shares its project's
 * storage (so it moves with it); a group's wiki has a storage of its own, under the negated id.
 */
export const objectsKey = (o: WikiOwner): number => (o.kind === 'project' ? o.id : -o.id);

export const pagesTable = (s: State, o: WikiOwner): Partitioned<WikiPage> => (o.kind === 'project' ? s.projectWikiPages : s.groupWikiPages);
export const reposTable = (s: State, o: WikiOwner): Table<WikiRepo> => (o.kind === 'project' ? s.projectWikis : s.groupWikis);
export const commitsTable = (s: State, o: WikiOwner): Partitioned<number> => (o.kind === 'project' ? s.projectWikiCommits : s.groupWikiCommits);

export const wikiRepo = (s: State, o: WikiOwner): WikiRepo | undefined => tget(reposTable(s, o), o.id);

/** Whether a commit is in the wiki's history (a `version` the API may read). */
export const isWikiCommit = (s: State, o: WikiOwner, sha: string): boolean => pget(commitsTable(s, o), o.id, sha) !== undefined;

/** Gitlab::WikiPages::MAX_TITLE_BYTES, MAX_DIRECTORY_BYTES. */
export const MAX_TITLE_BYTES = 245;
export const MAX_DIRECTORY_BYTES = 255;
/** ApplicationSetting#wiki_page_max_content_bytes's default. */
export const MAX_CONTENT_BYTES = 52428800;

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** WikiPage#deep_title_squish: each path component squished. */
export function squishTitle(title: string): string {
  return title
    .split('/')
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .join('/');
}

/** `File.expand_path(title, '/')[1..]`: `.`, `..` and empty components resolved against the root. */
export function normalisePath(title: string): string {
  const out: string[] = [];
  for (const part of title.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** Wiki#sluggified_title: the normalised path with spaces as dashes. */
export const sluggify = (title: string): string => normalisePath(title).replace(/ /g, '-');

/** The file of a page: its slug and its format's extension. */
export const pagePath = (slug: string, format: WikiFormat): string => `${slug}.${EXTENSIONS[format]}`;

/** A page's slug (its path without the extension). */
export const slugOf = (page: WikiPage): string => page.path.slice(0, page.path.length - EXTENSIONS[page.format].length - 1);

/** WikiPage#title: the slug's last component, dashes as spaces. */
export function titleOf(page: WikiPage): string {
  const slug = slugOf(page);
  return slug.slice(slug.lastIndexOf('/') + 1).replace(/-/g, ' ');
}

/** The directory of a page ('' at the root). */
export function directoryOf(page: WikiPage): string {
  const slug = slugOf(page);
  const i = slug.lastIndexOf('/');
  return i < 0 ? '' : slug.slice(0, i);
}

/** The key pages are found by: the slug without regard to case (Wiki#find_page's regexp is case-insensitive). */
export const pageKey = (slug: string): string => slug.toLowerCase();

/** Wiki#find_page: by the title as given, then by its sluggified form, ignoring case. */
export function findPage(s: State, o: WikiOwner, title: string): WikiPage | undefined {
  const table = pagesTable(s, o);
  return pget(table, o.id, pageKey(title)) ?? pget(table, o.id, pageKey(sluggify(title)));
}

/** The wiki's pages ordered by path (Wiki#list_pages), derived once per version of the table. */
export function listPages(s: State, o: WikiOwner): readonly WikiPage[] {
  const t = tget(pagesTable(s, o), o.id);
  if (!t) return [];
  return derived(t, inPathOrder);
}

function inPathOrder(table: Table<WikiPage>): readonly WikiPage[] {
  return Array.from(tvalues(table)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export const isFormat = (f: string): f is WikiFormat => (WIKI_FORMATS as readonly string[]).includes(f);

/** ActiveSupport's number_to_human_size (three significant digits, insignificant zeros dropped). */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'Byte' : 'Bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  let v = n;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const digits = Math.max(0, 3 - String(Math.floor(v)).length);
  const text = v.toFixed(digits).replace(/\.?0+$/, '');
  return `${text} ${units[i]}`;
}

/** WikiPage's validations: title presence, the byte limits of its path, the content's size. */
export function validatePage(title: string, content: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = Object.create(null);
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (title.trim() === '') add('title', "can't be blank");
  else {
    const parts = title.split('/');
    const filename = parts.pop()!;
    if (bytes(filename) > MAX_TITLE_BYTES) add('title', `exceeds the limit of ${MAX_TITLE_BYTES} bytes`);
    for (const dir of parts) if (bytes(dir) > MAX_DIRECTORY_BYTES) add('title', `exceeds the limit of ${MAX_DIRECTORY_BYTES} bytes for directory name "${dir}"`);
  }
  if (content !== undefined) {
    const size = bytes(content);
    if (size > MAX_CONTENT_BYTES) add('content', `is too long (${humanSize(size)}). The maximum size is ${humanSize(MAX_CONTENT_BYTES)}.`);
  }
  return errors;
}

// Policies. A project's wiki follows its `wiki` feature; writing needs a developer, deleting a
// maintainer (ProjectPolicy: create_wiki, admin_wiki). A group's wiki: readers of the group
// read it, developers write, maintainers administer (EE GroupPolicy).

export const canReadProjectWiki = (s: State, u: User | null, p: Project, now: number): boolean => canUseFeature(s, u, p, 'wiki', now);

export function canCreateProjectWiki(s: State, u: User | null, p: Project, now: number): boolean {
  // An archived project takes no writes (ProjectPolicy prevents the archived abilities).
  if (!u || p.archived || !canUseFeature(s, u, p, 'wiki', now)) return false;
  return u.admin || projectAccess(s, u, p, now) >= ACCESS.developer;
}

export function canAdminProjectWiki(s: State, u: User | null, p: Project, now: number): boolean {
  return !p.archived && canReadProjectWiki(s, u, p, now) && hasProjectRole(s, u, p, ACCESS.maintainer, now);
}

export const canReadGroupWiki = (): boolean => true;

export function canCreateGroupWiki(s: State, u: User | null, g: Namespace, now: number): boolean {
  return !!u && (u.admin || groupAccess(s, u, g, now) >= ACCESS.developer);
}

export const canAdminGroupWiki = (s: State, u: User | null, g: Namespace, now: number): boolean => hasGroupRole(s, u, g, ACCESS.maintainer, now);
