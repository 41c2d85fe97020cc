// The accessors of a repository's refs. Branches, tags, protections and LFS objects live in the
// store's chunked tables (records.ts), so a read or a write of one ref touches one chunk and
// costs the same in a repository of 100 branches as in one of 100,000; only a list reads them
// all. Every reader and writer of refs goes through these (names such as `constructor` or
// `__proto__` are keys like any other). Writers take the refs on a draft (`draftRefs`) or a
// repository being built (seeding).
import { emptyTable, tdel, tentries, tget, tset } from '../../store/table.js';
import type { ProtectedBranch, ProtectedTag, Repository, TagRef } from './records.js';

// ---- branches ----

/** The commit a branch points at, by name. */
export function branchTip(refs: Repository, name: string): string | undefined {
  return tget(refs.branches, name);
}

export function hasBranch(refs: Repository, name: string): boolean {
  return tget(refs.branches, name) !== undefined;
}

export function branchCount(refs: Repository): number {
  return refs.branches.size;
}

/** Every branch and its tip, in no particular order (sort what is listed). */
export function branchEntries(refs: Repository): IterableIterator<[string, string]> {
  return tentries(refs.branches);
}

/** Every branch name, in no particular order. */
export function* branchNames(refs: Repository): IterableIterator<string> {
  for (const [name] of tentries(refs.branches)) yield name;
}

/** The directories of a ref name: `a`, `a/b` of `a/b/c`. */
function* dirsOf(name: string): IterableIterator<string> {
  for (let i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) yield name.slice(0, i);
}

/** Points a branch at a commit, making it if it does not exist. */
export function setBranchRef(refs: Repository, name: string, sha: string): void {
  if (tget(refs.branches, name) === undefined) {
    for (const dir of dirsOf(name)) tset(refs.branchDirs, dir, (tget(refs.branchDirs, dir) ?? 0) + 1);
  }
  tset(refs.branches, name, sha);
}

/** Deletes a branch; false when there was none. */
export function deleteBranchRef(refs: Repository, name: string): boolean {
  if (!tdel(refs.branches, name)) return false;
  for (const dir of dirsOf(name)) {
    const n = (tget(refs.branchDirs, dir) ?? 1) - 1;
    if (n <= 0) tdel(refs.branchDirs, dir);
    else tset(refs.branchDirs, dir, n);
  }
  return true;
}

/**
 * Whether a branch name is a directory of an existing branch (`a` while `a/b` exists) or an
 * existing branch is one of its directories (`a/b` while `a` exists): git cannot keep both.
 */
export function conflictsWithHierarchy(refs: Repository, name: string): boolean {
  if ((tget(refs.branchDirs, name) ?? 0) > 0) return true;
  for (const dir of dirsOf(name)) if (tget(refs.branches, dir) !== undefined) return true;
  return false;
}

export function isEmptyRepository(refs: Repository): boolean {
  return refs.branches.size === 0;
}

// ---- other refs (refs/notes/*, ...: neither branches nor tags) ----

/** The object a ref outside branches and tags points at, by full name. */
export function otherRefTip(refs: Repository, name: string): string | undefined {
  return refs.otherRefs ? tget(refs.otherRefs, name) : undefined;
}

/** Every ref outside branches and tags, by full name, in no particular order. */
export function* otherRefEntries(refs: Repository): IterableIterator<[string, string]> {
  if (refs.otherRefs) yield* tentries(refs.otherRefs);
}

/** Points a ref outside branches and tags at an object (on a draft). */
export function setOtherRef(refs: Repository, name: string, oid: string): void {
  tset((refs.otherRefs ??= emptyTable()), name, oid);
}

/** Deletes a ref outside branches and tags; false when there was none. */
export function deleteOtherRef(refs: Repository, name: string): boolean {
  return refs.otherRefs ? tdel(refs.otherRefs, name) : false;
}

// ---- tags ----

/** A tag of the repository by name. */
export function findTag(refs: Repository, name: string): TagRef | undefined {
  return tget(refs.tags, name);
}

export function tagCount(refs: Repository): number {
  return refs.tags.size;
}

/** Every tag by name, in no particular order (sort what is listed). */
export function tagEntries(refs: Repository): IterableIterator<[string, TagRef]> {
  return tentries(refs.tags);
}

export function setTagRef(refs: Repository, name: string, tag: TagRef): void {
  tset(refs.tags, name, tag);
}

/** Deletes a tag; false when there was none. */
export function deleteTagRef(refs: Repository, name: string): boolean {
  return tdel(refs.tags, name);
}

// ---- protections ----

/** A protection by its exact name (a pattern is its own name). */
export function findProtectedBranch(refs: Repository, name: string): ProtectedBranch | undefined {
  return tget(refs.protectedBranches, name);
}

export function findProtectedTag(refs: Repository, name: string): ProtectedTag | undefined {
  return tget(refs.protectedTags, name);
}

/** Every branch protection by its name or pattern, in no particular order. */
export function protectedBranchEntries(refs: Repository): IterableIterator<[string, ProtectedBranch]> {
  return tentries(refs.protectedBranches);
}

/** Every tag protection by its name or pattern, in no particular order. */
export function protectedTagEntries(refs: Repository): IterableIterator<[string, ProtectedTag]> {
  return tentries(refs.protectedTags);
}

export function setProtectedBranch(refs: Repository, name: string, p: ProtectedBranch): void {
  tset(refs.protectedBranches, name, p);
}

export function deleteProtectedBranch(refs: Repository, name: string): boolean {
  return tdel(refs.protectedBranches, name);
}

export function setProtectedTag(refs: Repository, name: string, t: ProtectedTag): void {
  tset(refs.protectedTags, name, t);
}

export function deleteProtectedTag(refs: Repository, name: string): boolean {
  return tdel(refs.protectedTags, name);
}

// ---- LFS ----

/** The blob holding an LFS object the project owns, by its sha256 oid. */
export function lfsObject(refs: Repository, oid: string): string | undefined {
  return tget(refs.lfs, oid);
}

export function setLfsObject(refs: Repository, oid: string, blob: string): void {
  tset(refs.lfs, oid, blob);
}

// ---- as plain records ----

/** Every branch as a record without a prototype (what `emulator.git(p).refs()` hands out). */
export function branchesRecord(refs: Repository): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, sha] of tentries(refs.branches)) out[name] = sha;
  return out;
}

/** Every tag as a record without a prototype. */
export function tagsRecord(refs: Repository): Record<string, TagRef> {
  const out = Object.create(null) as Record<string, TagRef>;
  for (const [name, tag] of tentries(refs.tags)) out[name] = tag;
  return out;
}
