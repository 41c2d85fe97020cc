// `git merge-base A B C...`: the best common ancestor of A and any of the others (a common
// ancestor that is no ancestor of another common one; among several, the newest by commit date).
import { log, reachable } from './history.js';
import type { RepositoryObjects } from './objects.js';

export async function mergeBase(repo: RepositoryObjects, first: string, others: readonly string[]): Promise<string | null> {
  const mine = await reachable(repo, first);
  const theirs = new Set<string>();
  for (const o of others) for (const c of await reachable(repo, o)) theirs.add(c);
  const common = [...mine].filter((c) => theirs.has(c));
  if (common.length === 0) return null;
  // Drop every common commit that another common commit reaches.
  const dominated = new Set<string>();
  for (const c of common) {
    if (dominated.has(c)) continue;
    for (const a of await reachable(repo, c)) if (a !== c) dominated.add(a);
  }
  let best: string | null = null;
  let bestTime = -Infinity;
  for (const c of common) {
    if (dominated.has(c)) continue;
    const t = (await repo.readCommit(c)).committer.timestamp;
    if (t > bestTime) {
      best = c;
      bestTime = t;
    }
  }
  return best;
}

/** Commits reachable from `head` and not from `base` (`git rev-list base..head`), oldest first as `--reverse` lists them. */
export async function commitsBetween(repo: RepositoryObjects, base: string, head: string): Promise<string[]> {
  const exclude = await reachable(repo, base);
  const entries = await log(repo, [head]);
  return entries.filter((e) => !exclude.has(e.sha)).map((e) => e.sha).reverse();
}
