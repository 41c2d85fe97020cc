// Source archives of a tree as Gitaly makes them: `git archive --format=<tar|zip> --prefix=<prefix>/
// <commit> -- <path> :(exclude)<path>...` (git's archive.c, archive-tar.c, archive-zip.c), then
// `gzip -c -n` or `bzip2 -c` for the compressed tars. The tar is git's byte for byte; the zip has
// git's layout, its deflated data coming from fflate rather than zlib. The same commit always gives
// the same bytes: every time stamp is the commit's committer time. No Buffer, no node:zlib, so the
// core runs outside Node too; bzip2 is encoded here.
import { fflate } from './fflate.js';
import { tarArchive } from './archive-tar.js';
import { zipArchive } from './archive-zip.js';
import { bzip2 } from './bzip2.js';
import type { RepositoryObjects } from './objects.js';
import { entryAt } from './tree.js';

export type ArchiveFormat = 'tar' | 'tar.gz' | 'tar.bz2' | 'zip';

/** A directory or a submodule: a member without content of its own. */
export const isDir = (mode: number) => (mode & 0o170000) === 0o40000 || (mode & 0o170000) === 0o160000;
export const isLink = (mode: number) => (mode & 0o170000) === 0o120000;

/** One member of the archive: a directory (path ends in `/`), a file, a symlink or a submodule. */
export interface ArchiveEntry {
  /** Full name in the archive, the prefix included. */
  path: string;
  /** The git mode as a number: 0o100644, 0o100755, 0o120000, 0o40000 (0o40777 for the prefix), 0o160000. */
  mode: number;
  oid: string;
  /** Content of files and link targets; null for directories and submodules. */
  content: Uint8Array | null;
}

export interface ArchiveSource {
  commit: string;
  tree: string;
  /** The commit's committer time, in seconds: the time of every member. */
  time: number;
  /** The top directory every member lives under (no trailing slash). */
  prefix: string;
  /** Only this path of the tree (`.` or absent: all of it). */
  path?: string;
  /** Paths left out, with everything under them. */
  exclude?: readonly string[];
  /** What a file's blob becomes in the archive (LFS objects instead of their pointers). */
  content?(path: string, blob: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/**
 * A path as Gitaly cleans it (`storage.ValidateRelativePath`): relative to the root, `.` and `..`
 * resolved, no trailing slash; `.` for the whole tree; null when it climbs out of the repository.
 */
export function cleanArchivePath(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length ? parts.join('/') : '.';
}

/**
 * The members `git archive` writes, in its order: the prefix directory, then the tree walked in
 * git's entry order, a directory just before the first member written under it. Null when `path`
 * or an excluded path is not in the tree (Gitaly's "path doesn't exist" precondition).
 */
export async function archiveEntries(repo: RepositoryObjects, source: ArchiveSource): Promise<ArchiveEntry[] | null> {
  const path = cleanArchivePath(source.path ?? '.');
  const exclude = (source.exclude ?? []).map(cleanArchivePath);
  if (path === null || exclude.some((x) => x === null || x === '.')) return null;
  for (const p of [...(path === '.' ? [] : [path]), ...(exclude as string[])]) {
    if (!(await entryAt(repo, source.tree, p))) return null;
  }
  const base = `${source.prefix}/`;
  const out: ArchiveEntry[] = [{ path: base, mode: 0o40777, oid: source.tree, content: null }];
  const excluded = (rel: string) => exclude.some((x) => rel === x || rel.startsWith(`${x}/`));
  const wanted = (rel: string, dir: boolean) =>
    path === '.' || rel === path || rel.startsWith(`${path}/`) || (dir && path.startsWith(`${rel}/`));
  // Directories wait until something under them is written (queue_or_write_archive_entry), so a
  // directory whose every entry is excluded is left out.
  const pending: ArchiveEntry[] = [];
  const write = (entry: ArchiveEntry) => {
    out.push(...pending, entry);
    pending.length = 0;
  };
  const walk = async (tree: string, dir: string): Promise<void> => {
    for (const e of (await repo.readTree(tree)).values()) {
      const rel = dir + e.name;
      if (excluded(rel) || !wanted(rel, e.type === 'tree')) continue;
      const mode = parseInt(e.mode, 8);
      if (e.type === 'tree') {
        const self: ArchiveEntry = { path: `${base}${rel}/`, mode, oid: e.oid, content: null };
        pending.push(self);
        await walk(e.oid, `${rel}/`);
        if (pending[pending.length - 1] === self) pending.pop();
      } else if (e.type === 'commit') {
        write({ path: `${base}${rel}/`, mode, oid: e.oid, content: null });
      } else {
        const blob = await repo.readBlob(e.oid);
        const regular = (mode & 0o170000) === 0o100000;
        const content = regular && source.content ? await source.content(rel, blob) : blob;
        write({ path: `${base}${rel}`, mode, oid: e.oid, content });
      }
    }
  };
  await walk(source.tree, '');
  return out;
}

/** The archive of a commit's tree in one of GitLab's four formats; null as for `archiveEntries`. */
export async function buildArchive(repo: RepositoryObjects, format: ArchiveFormat, source: ArchiveSource): Promise<Uint8Array | null> {
  const entries = await archiveEntries(repo, source);
  if (!entries) return null;
  if (format === 'zip') return zipArchive(entries, source.commit, source.time);
  const tar = tarArchive(entries, source.commit, source.time);
  if (format === 'tar.gz') return fflate().gzipSync(tar, { level: 6, mtime: 0 }); // gzip -n: no name, no time
  if (format === 'tar.bz2') return bzip2(tar);
  return tar;
}
