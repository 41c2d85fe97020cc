// The history walks that stop early (merge-base and rev-list by generation) against a plain
// model of the commit graph: for random graphs (merges, several roots, equal and skewed commit
// dates), `mergeBase` answers a best common ancestor and `commitsBetween` the commits of
// `base..head`, in the order the full `git log` walk lists them.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { log } from '../src/git/history.js';
import { commitsBetween, mergeBase } from '../src/git/merge-base.js';
import type { RepositoryObjects } from '../src/git/objects.js';
import { branchTip, objectsOf, refsOf } from '../src/families/repositories/index.js';
import { projectRecord } from './support/world.js';

/** Each commit: its parents (indexes of earlier commits) and its commit time. */
type Graph = { parents: readonly number[]; time: number }[];

const graph: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc.tuple(...Array.from({ length: n }, (_, i) =>
    fc.record({
      parents: i === 0 ? fc.constant<number[]>([]) : fc.uniqueArray(fc.integer({ min: 0, max: i - 1 }), { minLength: i < 3 ? 0 : 1, maxLength: 2 }),
      time: fc.integer({ min: 0, max: 6 }),
    }))));

function ancestors(g: Graph, from: number): Set<number> {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) for (const p of g[stack.pop()!]!.parents) if (!seen.has(p)) (seen.add(p), stack.push(p));
  return seen;
}

describe('history walks by generation', () => {
  let emulator: Emulator;
  let repo: RepositoryObjects;
  let tree: string;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: { users: [{ username: 'root', admin: true }], groups: [{ path: 'acme' }], projects: [{ namespace: 'acme', path: 'app', repository: { files: { 'a.txt': 'a\n' } } }] } });
    const id = projectRecord(emulator, 'acme/app').id;
    repo = objectsOf({ db: emulator.objects, state: emulator.state, update: (recipe) => emulator.store.update(recipe), current: () => emulator.state }, { id });
    const head = branchTip(refsOf(emulator.state, id), 'main')!;
    tree = (await repo.readCommit(head)).tree;
  });

  async function write(g: Graph, salt: number): Promise<string[]> {
    const shas: string[] = [];
    for (const [i, c] of g.entries()) {
      const who = { name: 'A', email: 'a@example.com', timestamp: 1_700_000_000 + c.time * 60, offset: 0 };
      shas.push(await repo.writeCommit({ tree, parents: c.parents.map((p) => shas[p]!), author: who, committer: who, message: `c${i} ${salt}\n` }));
    }
    return shas;
  }

  it('merge-base answers a newest best common ancestor, as the model says', async () => {
    let salt = 0;
    await fc.assert(fc.asyncProperty(graph, fc.nat(), fc.nat(), async (g, x, y) => {
      const shas = await write(g, ++salt);
      const a = x % g.length;
      const b = y % g.length;
      const common = [...ancestors(g, a)].filter((c) => ancestors(g, b).has(c));
      const best = common.filter((c) => !common.some((o) => o !== c && ancestors(g, o).has(c)));
      const got = await mergeBase(repo, shas[a]!, [shas[b]!]);
      if (best.length === 0) {
        expect(got).toBeNull();
        return;
      }
      const newest = Math.max(...best.map((c) => g[c]!.time));
      const answers = best.filter((c) => g[c]!.time === newest).map((c) => shas[c]);
      expect(answers).toContain(got);
    }), { numRuns: 300 });
  });

  it('base..head is what head reaches and base does not, in git log order', async () => {
    let salt = 1_000_000;
    await fc.assert(fc.asyncProperty(graph, fc.nat(), fc.nat(), async (g, x, y) => {
      const shas = await write(g, ++salt);
      const base = x % g.length;
      const head = y % g.length;
      const excluded = ancestors(g, base);
      const expected = (await log(repo, [shas[head]!])).map((e) => e.sha).filter((s) => !excluded.has(shas.indexOf(s))).reverse();
      expect(await commitsBetween(repo, shas[base]!, shas[head]!)).toEqual(expected);
    }), { numRuns: 300 });
  });
});
