// Walking history as `git log` does: newest commit first by committer date (or children before
// parents with topo order), a path limiting it with git's default history simplification, the
// last commit that touched a path, ancestry, and the line stats of a commit.
import { isBinary, lineStats, splitLines } from './diff.js';
import type { CommitData, RepositoryObjects, TreeEntry } from './objects.js';
import { diffTrees, entryAt } from './tree.js';
import type { RE2JS } from 're2js';
import { lazyModule } from '../core/lazy.js';

/** re2js, loaded at the first pattern compiled (~10 ms of CPU the package's import does not pay). */
const re2js = lazyModule('re2js', () => import('re2js'));

export interface LogEntry {
  sha: string;
  commit: CommitData;
}

export interface LogOptions {
  path?: string;
  /** Epoch milliseconds; commits committed at or after it. */
  since?: number;
  /** Epoch milliseconds; commits committed at or before it. */
  until?: number;
  /** A regular expression in RE2's syntax matched anywhere in `Name <email>` of the author; one RE2 refuses is looked for as text. */
  author?: string;
  firstParent?: boolean;
  order?: 'default' | 'topo';
  /** Walk these commits only (a parent outside is not followed): a part of history already found. */
  within?: ReadonlySet<string>;
}

/** A max-heap of commits by a number (the committer date, a generation); among equals, the first queued comes first. */
export class CommitQueue {
  #items: { sha: string; ts: number; seq: number }[] = [];
  #seq = 0;

  get size(): number {
    return this.#items.length;
  }

  push(sha: string, ts: number): void {
    const items = this.#items;
    items.push({ sha, ts, seq: this.#seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#before(items[i]!, items[p]!)) break;
      [items[i], items[p]] = [items[p]!, items[i]!];
      i = p;
    }
  }

  pop(): string {
    const items = this.#items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.#before(items[l]!, items[m]!)) m = l;
        if (r < items.length && this.#before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top.sha;
  }

  #before(a: { ts: number; seq: number }, b: { ts: number; seq: number }): boolean {
    return a.ts > b.ts || (a.ts === b.ts && a.seq < b.seq);
  }
}

const sameEntry = (a: TreeEntry | null, b: TreeEntry | null) => a === b || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);

/** The entry at `path` in a commit's tree; the empty path is the root tree itself. */
async function pathEntry(repo: RepositoryObjects, commit: CommitData, path: string): Promise<TreeEntry | null> {
  if (path === '') return { name: '', mode: '040000', oid: commit.tree, type: 'tree' };
  return entryAt(repo, commit.tree, path);
}

/**
 * The largest RE2 program an author pattern may compile to; a larger one is looked for as text.
 * The same bound as policy/pattern.ts's MAX_PATTERN_PROGRAM (git/ sits below policy/).
 */
const MAX_AUTHOR_PROGRAM = 100_000;

/**
 * `--author`: a regular expression matched anywhere in `Name <email>`, in RE2's syntax and in
 * linear time (a user's `^(a+)+$` cannot stall the server); one RE2 refuses is looked for as it is.
 */
function authorMatcher(pattern: string | undefined): ((c: CommitData) => boolean) | null {
  if (!pattern) return null;
  let re: RE2JS | null = null;
  try {
    re = re2js().RE2JS.compile(pattern);
    if (re.programSize() > MAX_AUTHOR_PROGRAM) re = null;
  } catch {
    re = null;
  }
  return (c) => {
    const who = `${c.author.name} <${c.author.email}>`;
    return re ? re.test(who) : who.includes(pattern);
  };
}

/** Commits reachable from `tips`, in `git log` order, filtered as the options say. */
export async function log(repo: RepositoryObjects, tips: readonly string[], opts: LogOptions = {}): Promise<LogEntry[]> {
  const path = opts.path?.replace(/^\/+|\/+$/g, '');
  const seen = new Set<string>();
  const queue = new CommitQueue();
  const walked: { sha: string; commit: CommitData; parents: string[]; show: boolean }[] = [];
  for (const tip of tips) {
    if (seen.has(tip)) continue;
    seen.add(tip);
    queue.push(tip, (await repo.readCommit(tip)).committer.timestamp);
  }
  while (queue.size > 0) {
    const sha = queue.pop();
    const commit = await repo.readCommit(sha);
    let parents = opts.firstParent ? commit.parents.slice(0, 1) : commit.parents;
    let show = true;
    if (path !== undefined && path !== '') {
      const mine = await pathEntry(repo, commit, path);
      if (parents.length === 0) show = mine !== null;
      else {
        for (const p of parents) {
          if (sameEntry(await pathEntry(repo, await repo.readCommit(p), path), mine)) {
            show = false;
            parents = [p]; // git follows the parent the path is unchanged in, and no other
            break;
          }
        }
      }
    }
    walked.push({ sha, commit, parents, show });
    for (const p of parents) {
      if (seen.has(p) || (opts.within && !opts.within.has(p))) continue;
      seen.add(p);
      queue.push(p, (await repo.readCommit(p)).committer.timestamp);
    }
  }
  const ordered = opts.order === 'topo' ? topoOrder(walked) : walked;
  const byAuthor = authorMatcher(opts.author);
  const since = opts.since === undefined ? undefined : Math.floor(opts.since / 1000);
  const until = opts.until === undefined ? undefined : Math.floor(opts.until / 1000);
  return ordered
    .filter((w) => w.show)
    .filter((w) => since === undefined || w.commit.committer.timestamp >= since)
    .filter((w) => until === undefined || w.commit.committer.timestamp <= until)
    .filter((w) => !byAuthor || byAuthor(w.commit))
    .map(({ sha, commit }) => ({ sha, commit }));
}

/** Children before parents, and one line of history at a time (`--topo-order`). */
function topoOrder<T extends { sha: string; parents: string[] }>(walked: T[]): T[] {
  const bySha = new Map(walked.map((w) => [w.sha, w]));
  const children = new Map<string, number>();
  for (const w of walked) for (const p of w.parents) children.set(p, (children.get(p) ?? 0) + 1);
  const stack = walked.filter((w) => !children.get(w.sha)).reverse();
  const out: T[] = [];
  while (stack.length) {
    const w = stack.pop()!;
    out.push(w);
    for (const p of [...w.parents].reverse()) {
      const left = (children.get(p) ?? 0) - 1;
      children.set(p, left);
      const pw = bySha.get(p);
      if (left === 0 && pw) stack.push(pw);
    }
  }
  return out;
}

/** The last commit at or before `sha` that changed `path` (`git log -1 <sha> -- <path>`), or null. */
export async function lastCommitForPath(repo: RepositoryObjects, sha: string, path: string): Promise<string | null> {
  const chain: string[] = [];
  let current = sha;
  let result: string | null = null;
  for (;;) {
    const hit = repo.db.memo.get(`last:${current}:${path}`);
    if (hit !== undefined) {
      result = hit as string | null;
      break;
    }
    const commit = await repo.readCommit(current);
    const mine = await pathEntry(repo, commit, path);
    if (mine === null) break;
    let same: string | null = null;
    for (const p of commit.parents) {
      if (sameEntry(await pathEntry(repo, await repo.readCommit(p), path), mine)) {
        same = p;
        break;
      }
    }
    chain.push(current);
    if (same === null) {
      result = current;
      break;
    }
    current = same;
  }
  for (const c of chain) repo.db.memo.set(`last:${c}:${path}`, result, 1);
  return result;
}

/** Every commit reachable from `tip` (itself included). */
export async function reachable(repo: RepositoryObjects, tip: string): Promise<ReadonlySet<string>> {
  return repo.memo(`reach:${tip}`, async () => {
    const seen = new Set<string>([tip]);
    const stack = [tip];
    while (stack.length) {
      const c = await repo.readCommit(stack.pop()!);
      for (const p of c.parents) {
        if (!seen.has(p)) {
          seen.add(p);
          stack.push(p);
        }
      }
    }
    return seen;
  }, (set) => set.size);
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/** Lines added and deleted by a commit against its first parent; binary files count none. */
export async function commitStats(repo: RepositoryObjects, sha: string): Promise<CommitStats> {
  return repo.memo(`stats:${sha}`, async () => {
    const commit = await repo.readCommit(sha);
    const parent = commit.parents[0] ? (await repo.readCommit(commit.parents[0])).tree : null;
    let additions = 0;
    let deletions = 0;
    for (const d of await diffTrees(repo, parent, commit.tree)) {
      const before = d.before?.type === 'blob' ? await repo.readBlob(d.before.oid) : new Uint8Array();
      const after = d.after?.type === 'blob' ? await repo.readBlob(d.after.oid) : new Uint8Array();
      if (isBinary(before) || isBinary(after)) continue;
      const s = lineStats(splitLines(before), splitLines(after));
      additions += s.additions;
      deletions += s.deletions;
    }
    return { additions, deletions, total: additions + deletions };
  });
}
