// `git merge-base A B C...` and `git rev-list base..head`, walking only the part of history that
// tells the answer: commits are visited by generation (git's commit-graph numbers: a root is 1,
// any other commit one more than its highest parent), highest first, so a commit is reached
// from every side before it is visited, and the walk stops once nothing left can change the
// answer. A push of a few commits onto a long history costs a few commits' work.
import { CommitQueue, log } from './history.js';
import type { RepositoryObjects } from './objects.js';

/** A commit's generation, kept in the object database's memo (a commit's is the same in every repository). */
export async function generation(repo: RepositoryObjects, sha: string): Promise<number> {
  const memo = repo.db.memo;
  const key = (c: string) => `gen:${c}`;
  const known = memo.get(key(sha)) as number | undefined;
  if (known !== undefined) return known;
  // Parents first, without a nested call per commit: a long line of history is one loop.
  const stack = [sha];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (memo.get(key(top)) !== undefined) {
      stack.pop();
      continue;
    }
    let highest = 0;
    let missing = false;
    for (const p of (await repo.readCommit(top)).parents) {
      const g = memo.get(key(p)) as number | undefined;
      if (g === undefined) {
        stack.push(p);
        missing = true;
      } else if (g > highest) highest = g;
    }
    if (!missing) {
      memo.set(key(top), highest + 1, 1);
      stack.pop();
    }
  }
  return memo.get(key(sha)) as number;
}

/** Commits by generation, highest first; each commit at most once. */
class GenerationQueue {
  readonly #heap = new CommitQueue();
  readonly queued = new Set<string>();

  constructor(private readonly repo: RepositoryObjects) {}

  get size(): number {
    return this.#heap.size;
  }

  async push(sha: string): Promise<void> {
    if (this.queued.has(sha)) return;
    this.queued.add(sha);
    this.#heap.push(sha, await generation(this.repo, sha));
  }

  pop(): string {
    const sha = this.#heap.pop();
    this.queued.delete(sha);
    return sha;
  }
}

const FIRST = 1;
const OTHERS = 2;
const STALE = 4;

/**
 * The best common ancestor of `first` and any of `others` (git's paint_down_to_common): one
 * that no other common ancestor reaches; among several, the newest by commit date.
 */
export async function mergeBase(repo: RepositoryObjects, first: string, others: readonly string[]): Promise<string | null> {
  const flags = new Map<string, number>();
  const queue = new GenerationQueue(repo);
  /** Queued commits not yet known to be below a common ancestor. */
  let live = 0;
  const mark = async (sha: string, add: number) => {
    const before = flags.get(sha) ?? 0;
    const after = before | add;
    if (after === before) return;
    flags.set(sha, after);
    if (queue.queued.has(sha)) {
      if (!(before & STALE) && after & STALE) live--;
    } else {
      await queue.push(sha);
      if (!(after & STALE)) live++;
    }
  };
  await mark(first, FIRST);
  for (const o of others) await mark(o, OTHERS);
  const found: string[] = [];
  while (live > 0 && queue.size > 0) {
    const sha = queue.pop();
    let f = flags.get(sha)!;
    if (!(f & STALE)) live--;
    // A common ancestor is an answer; what it reaches is below one (stale), and so on down.
    if ((f & (FIRST | OTHERS | STALE)) === (FIRST | OTHERS)) {
      found.push(sha);
      f |= STALE;
      flags.set(sha, f);
    }
    for (const p of (await repo.readCommit(sha)).parents) await mark(p, f);
  }
  let best: string | null = null;
  let bestTime = -Infinity;
  for (const c of found) {
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
  if (base === head) return [];
  const excluded = new Map<string, boolean>();
  const queue = new GenerationQueue(repo);
  /** Queued commits that are (so far) reachable from head only. */
  let wanted = 0;
  const mark = async (sha: string, exclude: boolean) => {
    const known = excluded.get(sha);
    if (known === undefined) {
      excluded.set(sha, exclude);
      await queue.push(sha);
      if (!exclude) wanted++;
    } else if (exclude && !known) {
      // Still queued: a commit is reached from every side before it is visited.
      excluded.set(sha, true);
      wanted--;
    }
  };
  await mark(head, false);
  await mark(base, true);
  const found = new Set<string>();
  while (wanted > 0 && queue.size > 0) {
    const sha = queue.pop();
    const exclude = excluded.get(sha)!;
    if (!exclude) {
      wanted--;
      found.add(sha);
    }
    for (const p of (await repo.readCommit(sha)).parents) await mark(p, exclude);
  }
  if (found.size === 0) return [];
  // In `git log` order (by date, as the full walk lists them), within what was found.
  const entries = await log(repo, [head], { within: found });
  return entries.map((e) => e.sha).reverse();
}
