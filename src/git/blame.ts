// `git blame`: each line of a file at a commit, traced back through history to the commit that
// introduced it, by blame.c's rules. A parent with the very same blob takes every line; else the
// lines the file shares with each parent in turn (through git's line diff) pass to it, and the
// rest belong to the commit at hand. Commits are visited newest first, so lines arriving from
// several children are traced together. Renames are not followed (git follows whole-file ones).
import { matchLines, splitLines } from './diff.js';
import type { RepositoryObjects } from './objects.js';
import { entryAt } from './tree.js';

export interface Blame {
  /** The file's lines, without their newlines. */
  lines: string[];
  /** For each line, the commit that introduced it. */
  commits: string[];
}

interface Pending {
  blob: string;
  mode: string;
  /** [line of the final file, line of this version] */
  items: [number, number][];
}

/** A parent's version of the file. */
interface Origin {
  sha: string;
  blob: string;
  mode: string;
  /** The parent's committer date. */
  time: number;
}

/** A symbolic link: git sees a file turning into one (or back) as a type change, not a modification. */
const isLink = (mode: string) => mode === '120000';

async function linesOf(repo: RepositoryObjects, blob: string): Promise<string[]> {
  return repo.memo(`lines:${blob}`, async () => splitLines(await repo.readBlob(blob)), (lines) => lines.length);
}

/** Blame of `path` at commit `sha`; null when the path is not a file there. */
export async function blame(repo: RepositoryObjects, sha: string, path: string): Promise<Blame | null> {
  const tip = await repo.readCommit(sha);
  const entry = await entryAt(repo, tip.tree, path);
  if (!entry || entry.type !== 'blob') return null;
  const blob = entry.oid;
  return repo.memo(`blame:${sha}:${path}`, async () => {
    const final = await linesOf(repo, blob);
    const owner = new Array<string>(final.length);
    const pending = new Map<string, Pending>([[sha, { blob, mode: entry.mode, items: final.map((_, i) => [i, i]) }]]);
    const times = new Map<string, number>([[sha, tip.committer.timestamp]]);
    while (pending.size > 0) {
      // The newest pending commit: no child of it can still be waiting to hand lines over.
      let next = '';
      for (const c of pending.keys()) if (next === '' || times.get(c)! > times.get(next)!) next = c;
      const mine = pending.get(next)!;
      pending.delete(next);
      const commit = await repo.readCommit(next);
      // blame.c pass_blame: each parent's version of the path (none where it is missing or is no
      // longer a file of the same kind); a parent with the very same blob takes every line.
      const origins: (Origin | null)[] = [];
      let whole: Origin | null = null;
      for (const p of commit.parents) {
        const parent = await repo.readCommit(p);
        const pe = await entryAt(repo, parent.tree, path);
        const origin = pe && pe.type === 'blob' && isLink(pe.mode) === isLink(mine.mode) ? { sha: p, blob: pe.oid, mode: pe.mode, time: parent.committer.timestamp } : null;
        if (origin?.blob === mine.blob) {
          whole = origin;
          break;
        }
        // A parent with the same blob as an earlier parent has nothing more to take.
        origins.push(origin && !origins.some((o) => o?.blob === origin.blob) ? origin : null);
      }
      let remaining = mine.items;
      const hand = (origin: Origin, passed: [number, number][]) => {
        const existing = pending.get(origin.sha);
        if (existing) existing.items.push(...passed);
        else {
          pending.set(origin.sha, { blob: origin.blob, mode: origin.mode, items: passed });
          times.set(origin.sha, origin.time);
        }
      };
      if (whole) {
        hand(whole, remaining);
        remaining = [];
      }
      for (const origin of whole ? [] : origins) {
        if (remaining.length === 0) break;
        if (!origin) continue;
        const map = matchLines(await linesOf(repo, origin.blob), await linesOf(repo, mine.blob));
        const passed: [number, number][] = [];
        const kept: [number, number][] = [];
        for (const [f, l] of remaining) (map[l]! >= 0 ? passed : kept).push(map[l]! >= 0 ? [f, map[l]!] : [f, l]);
        remaining = kept;
        if (passed.length > 0) hand(origin, passed);
      }
      for (const [f] of remaining) owner[f] = next;
    }
    return { lines: final.map((l) => (l.endsWith('\n') ? l.slice(0, -1) : l)), commits: owner };
  }, (b) => 2 * b.lines.length);
}

/** Lines `first`..`last` (1-based, inclusive) of a blame, as runs of consecutive lines from one commit. */
export function blameRuns(result: Blame, first: number, last: number): { sha: string; lines: string[] }[] {
  const runs: { sha: string; lines: string[] }[] = [];
  for (let i = first - 1; i < last; i++) {
    const sha = result.commits[i]!;
    const run = runs[runs.length - 1];
    if (run?.sha === sha) run.lines.push(result.lines[i]!);
    else runs.push({ sha, lines: [result.lines[i]!] });
  }
  return runs;
}
