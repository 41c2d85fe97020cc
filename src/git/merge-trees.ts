// A three-way merge of commits by path, as the emulator merges merge requests: a path only one
// side changed takes that side's entry; a path both sides changed differently is a conflict.
import type { RepositoryObjects } from './objects.js';
import { listFiles, writeTreeWith, type PathChange } from './tree.js';

/** What merging `theirs` into `ours` from `base` does: a tree as it is, the changes to write onto `ours`, or null on a conflict. */
async function mergePlan(repo: RepositoryObjects, base: string, ours: string, theirs: string): Promise<{ tree: string } | { ours: string; changes: PathChange[] } | null> {
  const [b, o, t] = await Promise.all([base, ours, theirs].map(async (c) => (await repo.readCommit(c)).tree));
  if (t === b || o === t) return { tree: o! };
  if (o === b) return { tree: t! };
  const [fb, fo, ft] = await Promise.all([listFiles(repo, b!), listFiles(repo, o!), listFiles(repo, t!)]);
  const key = (e: { oid: string; mode: string } | undefined) => (e ? `${e.mode}:${e.oid}` : '');
  const changes: PathChange[] = [];
  for (const path of new Set([...fb.keys(), ...fo.keys(), ...ft.keys()])) {
    const kb = key(fb.get(path));
    const ko = key(fo.get(path));
    const kt = key(ft.get(path));
    if (kt === kb || kt === ko) continue;
    if (ko !== kb) return null;
    const e = ft.get(path);
    changes.push({ path, entry: e ? { oid: e.oid, mode: e.mode } : null });
  }
  return { ours: o!, changes };
}

/** The tree of merging `theirs` into `ours` from `base`, or null on a conflict. */
export async function mergeTrees(repo: RepositoryObjects, base: string, ours: string, theirs: string): Promise<string | null> {
  const plan = await mergePlan(repo, base, ours, theirs);
  if (plan === null) return null;
  return 'tree' in plan ? plan.tree : writeTreeWith(repo, plan.ours, plan.changes);
}

/** Whether `theirs` merges into `ours` from `base` without a conflict (nothing is written). */
export async function mergesCleanly(repo: RepositoryObjects, base: string, ours: string, theirs: string): Promise<boolean> {
  return (await mergePlan(repo, base, ours, theirs)) !== null;
}
