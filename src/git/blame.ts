// `git blame`: each line of a file at a commit, traced back through history to the commit that
// introduced it. Lines the file shares with a parent pass to that parent (through a line diff);
// the rest belong to the commit at hand. Commits are visited newest first, so lines arriving
// from several children are traced together.
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
  /** [line of the final file, line of this version] */
  items: [number, number][];
}

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
    const pending = new Map<string, Pending>([[sha, { blob, items: final.map((_, i) => [i, i]) }]]);
    const times = new Map<string, number>([[sha, tip.committer.timestamp]]);
    while (pending.size > 0) {
      // The newest pending commit: no child of it can still be waiting to hand lines over.
      let next = '';
      for (const c of pending.keys()) if (next === '' || times.get(c)! > times.get(next)!) next = c;
      const mine = pending.get(next)!;
      pending.delete(next);
      const commit = await repo.readCommit(next);
      let remaining = mine.items;
      for (const p of commit.parents) {
        if (remaining.length === 0) break;
        const parent = await repo.readCommit(p);
        const pe = await entryAt(repo, parent.tree, path);
        if (!pe || pe.type !== 'blob') continue;
        let passed: [number, number][];
        if (pe.oid === mine.blob) {
          passed = remaining;
          remaining = [];
        } else {
          const map = matchLines(await linesOf(repo, pe.oid), await linesOf(repo, mine.blob));
          passed = [];
          const kept: [number, number][] = [];
          for (const [f, l] of remaining) (map[l]! >= 0 ? passed : kept).push(map[l]! >= 0 ? [f, map[l]!] : [f, l]);
          remaining = kept;
        }
        if (passed.length === 0) continue;
        const existing = pending.get(p);
        if (existing) existing.items.push(...passed);
        else {
          pending.set(p, { blob: pe.oid, items: passed });
          times.set(p, parent.committer.timestamp);
        }
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
