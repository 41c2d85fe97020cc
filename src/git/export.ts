// A repository written out as a real bare git directory: every object reachable from its refs
// (copied byte for byte, as loose objects), the refs themselves and HEAD. The real `git` can
// then check it (`git fsck`) and read it (`git log`). Loads node:fs only when called (disk.ts).
import { disk } from './disk.js';
import type { RepositoryObjects } from './objects.js';
import type { FsClient } from 'isomorphic-git';

export interface ExportRefs {
  branches: Record<string, string>;
  tags: Record<string, { target: string }>;
  head: string;
}

/** Every object reachable from the given object ids. */
export async function reachableObjects(repo: RepositoryObjects, roots: Iterable<string>): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    const type = await repo.type(oid);
    if (type === 'commit') {
      const c = await repo.readCommit(oid);
      stack.push(c.tree, ...c.parents);
    } else if (type === 'tree') {
      for (const e of (await repo.readTree(oid)).values()) if (e.type !== 'commit') stack.push(e.oid);
    } else if (type === 'tag') {
      stack.push((await repo.readTag(oid)).object);
    }
  }
  return seen;
}

export async function exportRepository(repo: RepositoryObjects, refs: ExportRefs, dir: string): Promise<void> {
  const { mkdir, writeFile, join } = await disk();
  const roots = [...Object.values(refs.branches), ...Object.values(refs.tags).map((t) => t.target)];
  for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info']) await mkdir(join(dir, d), { recursive: true });
  await writeFile(join(dir, 'HEAD'), `ref: refs/heads/${refs.head}\n`);
  await writeFile(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
  for (const oid of await reachableObjects(repo, roots)) {
    const file = repo.looseFile(oid);
    if (!file) continue; // the empty tree, which git knows without a file
    await mkdir(join(dir, 'objects', oid.slice(0, 2)), { recursive: true });
    await writeFile(join(dir, 'objects', oid.slice(0, 2), oid.slice(2)), file);
  }
  const writeRef = async (ref: string, oid: string) => {
    await mkdir(join(dir, ref, '..'), { recursive: true });
    await writeFile(join(dir, ref), `${oid}\n`);
  };
  for (const [name, sha] of Object.entries(refs.branches)) await writeRef(`refs/heads/${name}`, sha);
  for (const [name, t] of Object.entries(refs.tags)) await writeRef(`refs/tags/${name}`, t.target);
}

/**
 * A working copy of the repository in a real directory, as `git clone <remote>` leaves one: the
 * objects and tags, the branches as `origin`'s, the default branch checked out and tracking
 * `origin`. Needs no git binary and no server (the files are written by isomorphic-git).
 */
export async function cloneRepository(repo: RepositoryObjects, refs: ExportRefs, dir: string, remote: string): Promise<void> {
  const { rm, writeFile, mkdir, join, fs: nodeFs, git: loadGit } = await disk();
  const git = await loadGit();
  const gitdir = join(dir, '.git');
  await exportRepository(repo, refs, gitdir);
  await rm(join(gitdir, 'refs', 'heads'), { recursive: true, force: true });
  await mkdir(join(gitdir, 'refs', 'heads'), { recursive: true });
  const head = Object.hasOwn(refs.branches, refs.head) ? refs.head : null;
  const lines = ['[core]', '\trepositoryformatversion = 0', '\tfilemode = true', '\tbare = false', '\tlogallrefupdates = true'];
  lines.push('[remote "origin"]', `\turl = ${remote}`, '\tfetch = +refs/heads/*:refs/remotes/origin/*');
  if (head) lines.push(`[branch "${head}"]`, '\tremote = origin', `\tmerge = refs/heads/${head}`);
  await writeFile(join(gitdir, 'config'), `${lines.join('\n')}\n`);
  for (const [name, sha] of Object.entries(refs.branches)) {
    await mkdir(join(gitdir, 'refs', 'remotes', 'origin', name, '..'), { recursive: true });
    await writeFile(join(gitdir, 'refs', 'remotes', 'origin', name), `${sha}\n`);
  }
  if (!head) return; // an empty repository: HEAD names a branch to be born
  await writeFile(join(gitdir, 'refs', 'remotes', 'origin', 'HEAD'), `ref: refs/remotes/origin/${head}\n`);
  await mkdir(join(gitdir, 'refs', 'heads', head, '..'), { recursive: true });
  await writeFile(join(gitdir, 'refs', 'heads', head), `${refs.branches[head]}\n`);
  await git.checkout({ fs: nodeFs as FsClient, dir, gitdir, ref: head, force: true });
}
