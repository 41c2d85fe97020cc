// Applying one commit's change to another tree, as `git cherry-pick` and `git revert` do: a
// three-way merge of base -> theirs onto ours, file by file, and line by line inside a text file
// both sides changed. Overlapping edits are a conflict; a result equal to ours is empty.
import { isBinary, matchLines, splitLines } from './diff.js';
import type { RepositoryObjects } from './objects.js';
import { diffTrees, entryAt, writeTreeWith, type PathChange } from './tree.js';

export type MergeOutcome = { tree: string } | { conflict: true } | { empty: true };

/** For each line of `base`, its index in `other`, or -1 where `other` changed it. */
function baseMap(base: readonly string[], other: readonly string[]): Int32Array {
  const toBase = matchLines(base, other);
  const out = new Int32Array(base.length).fill(-1);
  toBase.forEach((b, j) => {
    if (b >= 0) out[b] = j;
  });
  return out;
}

/** diff3 of line lists; null on overlapping changes. */
export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] | null {
  const mo = baseMap(base, ours);
  const mt = baseMap(base, theirs);
  const out: string[] = [];
  let b = 0;
  let o = 0;
  let t = 0;
  for (;;) {
    // The next base line both sides kept, in order.
    let nb = b;
    while (nb < base.length && !(mo[nb]! >= o && mt[nb]! >= t)) nb++;
    const no = nb < base.length ? mo[nb]! : ours.length;
    const nt = nb < base.length ? mt[nb]! : theirs.length;
    const baseChunk = base.slice(b, nb);
    const ourChunk = ours.slice(o, no);
    const theirChunk = theirs.slice(t, nt);
    const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((l, i) => l === y[i]);
    if (same(ourChunk, baseChunk)) out.push(...theirChunk);
    else if (same(theirChunk, baseChunk) || same(ourChunk, theirChunk)) out.push(...ourChunk);
    else return null;
    if (nb >= base.length) return out;
    out.push(base[nb]!);
    b = nb + 1;
    o = no + 1;
    t = nt + 1;
  }
}

const encoder = new TextEncoder();

/**
 * Applies the change from tree `base` to tree `theirs` onto tree `ours` (null trees are empty).
 * Gives the new tree, or why there is none.
 */
export async function applyChange(repo: RepositoryObjects, base: string | null, theirs: string | null, ours: string): Promise<MergeOutcome> {
  const changes: PathChange[] = [];
  for (const d of await diffTrees(repo, base, theirs)) {
    const mine = await entryAt(repo, ours, d.path);
    const mineFile = mine && mine.type !== 'tree' ? mine : null;
    if (mine && mine.type === 'tree') return { conflict: true };
    const eq = (a: typeof mineFile, b: typeof d.before) => (a === null && b === null) || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);
    if (eq(mineFile, d.after)) continue; // already there
    if (eq(mineFile, d.before)) {
      changes.push({ path: d.path, entry: d.after ? { oid: d.after.oid, mode: d.after.mode } : null });
      continue;
    }
    // Both sides changed the file: only a text file both still have can be merged line by line.
    if (!mineFile || !d.before || !d.after) return { conflict: true };
    const [b, o, t] = await Promise.all([repo.readBlob(d.before.oid), repo.readBlob(mineFile.oid), repo.readBlob(d.after.oid)]);
    if (isBinary(b) || isBinary(o) || isBinary(t)) return { conflict: true };
    const merged = mergeLines(splitLines(b), splitLines(o), splitLines(t));
    if (!merged) return { conflict: true };
    const mode = d.before.mode === mineFile.mode ? d.after.mode : mineFile.mode;
    changes.push({ path: d.path, entry: { oid: await repo.writeBlob(encoder.encode(merged.join(''))), mode } });
  }
  if (changes.length === 0) return { empty: true };
  const tree = await writeTreeWith(repo, ours, changes);
  return tree === ours ? { empty: true } : { tree };
}
