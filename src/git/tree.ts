// Paths inside trees: looking one up, writing a new root tree with some paths changed (only the
// trees on the changed paths are written), listing and comparing trees.
import { EMPTY_TREE, type RepositoryObjects, type TreeEntry } from './objects.js';

export const MODE_FILE = '100644';
export const MODE_EXECUTABLE = '100755';
export const MODE_TREE = '040000';

/** The entry at `path` (`a/b/c`) under a tree, or null. */
export async function entryAt(repo: RepositoryObjects, treeOid: string, path: string): Promise<TreeEntry | null> {
  const parts = path.split('/');
  let tree = treeOid;
  for (let i = 0; i < parts.length; i++) {
    const entry = (await repo.readTree(tree)).get(parts[i]!);
    if (!entry) return null;
    if (i === parts.length - 1) return entry;
    if (entry.type !== 'tree') return null;
    tree = entry.oid;
  }
  return null;
}

/** A path's new content (`null` removes it). */
export interface PathChange {
  path: string;
  entry: { oid: string; mode: string } | null;
}

interface Node {
  files: Map<string, PathChange['entry']>;
  dirs: Map<string, Node>;
}

const node = (): Node => ({ files: new Map(), dirs: new Map() });

/** Writes the root tree of `base` with `changes` applied; empty directories disappear, as in git. */
export async function writeTreeWith(repo: RepositoryObjects, base: string | null, changes: readonly PathChange[]): Promise<string> {
  const root = node();
  for (const c of changes) {
    const parts = c.path.split('/');
    let n = root;
    for (const dir of parts.slice(0, -1)) {
      let next = n.dirs.get(dir);
      if (!next) n.dirs.set(dir, (next = node()));
      n = next;
    }
    n.files.set(parts[parts.length - 1]!, c.entry);
  }
  return (await build(repo, root, base)) ?? repo.writeTree([]);
}

async function build(repo: RepositoryObjects, n: Node, base: string | null): Promise<string | null> {
  const entries = new Map(base ? await repo.readTree(base) : []);
  for (const [name, sub] of n.dirs) {
    // A file written where a directory was: every file of the directory is gone.
    if (n.files.get(name)) continue;
    const existing = entries.get(name);
    const oid = await build(repo, sub, existing?.type === 'tree' ? existing.oid : null);
    if (oid !== null) entries.set(name, { name, mode: MODE_TREE, oid, type: 'tree' });
    else if (existing?.type === 'tree') entries.delete(name);
  }
  for (const [name, e] of n.files) {
    // A file removed where a directory is now written keeps the directory.
    if (e === null) {
      if (!n.dirs.has(name) || entries.get(name)?.type !== 'tree') entries.delete(name);
    } else entries.set(name, { name, mode: e.mode, oid: e.oid, type: e.mode === '160000' ? 'commit' : 'blob' });
  }
  if (entries.size === 0) return null;
  return repo.writeTree(entries.values());
}

/** Every file (non-tree entry) under a tree, by full path. */
export async function listFiles(repo: RepositoryObjects, treeOid: string, prefix = ''): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>();
  for (const e of (await repo.readTree(treeOid)).values()) {
    const path = prefix + e.name;
    if (e.type === 'tree') for (const [p, x] of await listFiles(repo, e.oid, `${path}/`)) out.set(p, x);
    else out.set(path, e);
  }
  return out;
}

export interface FileDelta {
  path: string;
  before: TreeEntry | null;
  after: TreeEntry | null;
}

/** Files that differ between two trees; equal subtrees are skipped unread. */
export async function diffTrees(repo: RepositoryObjects, a: string | null, b: string | null, prefix = ''): Promise<FileDelta[]> {
  if (a === b) return [];
  const left = await repo.readTree(a ?? EMPTY_TREE);
  const right = await repo.readTree(b ?? EMPTY_TREE);
  const out: FileDelta[] = [];
  const names = new Set([...left.keys(), ...right.keys()]);
  for (const name of names) {
    const l = left.get(name) ?? null;
    const r = right.get(name) ?? null;
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
    const path = prefix + name;
    const lt = l?.type === 'tree' ? l.oid : null;
    const rt = r?.type === 'tree' ? r.oid : null;
    if (lt || rt) out.push(...(await diffTrees(repo, lt, rt, `${path}/`)));
    const lf = l && l.type !== 'tree' ? l : null;
    const rf = r && r.type !== 'tree' ? r : null;
    if (lf || rf) out.push({ path, before: lf, after: rf });
  }
  return out;
}
