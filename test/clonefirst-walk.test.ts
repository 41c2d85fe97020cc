// A clone of history that one pushed pack holds is walked over the pack's positions (trees'
// children as positions the push recorded, types from the pack's entries) and sent that pack as
// it is: the same objects, in the same order, as the walk over ids; git checks every clone and
// fetch (`fsck --strict`), after one push, after a second, with haves, shallow, with tags.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepositoryObjects } from '../src/git/objects.js';
import { selectObjects } from '../src/git/walk.js';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const fixture: Fixture = {
  users: [{ username: 'pat', admin: true, tokens: [{ token: 'pat-token', scopes: ['api'] }] }],
  projects: [{ namespace: 'pat', path: 'app', creator: 'pat', visibility: 'public' }],
};

const text = (seed: number, version: number) => Array.from({ length: 60 }, (_, i) => (i === version % 60 ? `line ${i} of ${seed}, changed in ${version}` : `line ${i} of file ${seed}`)).join('\n') + '\n';

type Server = Awaited<ReturnType<Emulator['listen']>>;

describe.skipIf(!HAS_GIT)('a clone walked over a pushed pack', () => {
  let emulator: Emulator;
  let server: Server;
  let scratch: GitScratch;
  let seeded: ReturnType<Emulator['snapshot']>;
  const url = () => `${server.url}/pat/app.git`;
  const remote = () => withCredentials(url(), 'pat', 'pat-token');

  /** `commits` more commits in `work`, each changing two of twelve files over three directories (and a file that returns to an older content). */
  const commitMore = async (from: number, commits: number) => {
    for (let c = from; c < from + commits; c++) {
      for (let f = 0; f < 12; f++) {
        const dir = join(scratch.dir, 'work', `d${f % 3}`, f % 2 ? 'sub' : '');
        mkdirSync(dir, { recursive: true });
        if (c === 0 || f === c % 12 || f === (c * 5) % 12) writeFileSync(join(dir, `f${f}.txt`), text(f, f === 11 ? c % 2 : c));
      }
      await scratch.ok(['add', '-A'], 'work');
      await scratch.ok(['commit', '-q', '-m', `Change ${c}`], 'work');
    }
  };
  const objectsOf = async (dir: string, ...refs: string[]) => (await scratch.ok(['rev-list', '--objects', ...refs], dir)).split('\n').filter(Boolean).map((l) => l.slice(0, 40)).sort();

  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    seeded = emulator.snapshot();
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    emulator.restore(seeded);
    scratch = new GitScratch();
    await scratch.ok(['init', '-q', '-b', 'main', 'work']);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    scratch.remove();
  });

  it('selects what the walk over ids selects, in its order, and says the pack holds exactly that', async () => {
    await commitMore(0, 15);
    await scratch.ok(['tag', '-a', '-m', 'Release', 'v1', 'HEAD~4'], 'work');
    await scratch.ok(['branch', 'side', 'HEAD~7'], 'work');
    await scratch.ok(['gc', '-q', '--aggressive'], 'work');
    await scratch.ok(['push', '-q', remote(), 'main', 'side', 'v1'], 'work');
    const repo = emulator.git('pat/app').objects;
    const main = (await scratch.ok(['rev-parse', 'main'], 'work')).trim();
    const side = (await scratch.ok(['rev-parse', 'side'], 'work')).trim();
    const tag = (await scratch.ok(['rev-parse', 'v1'], 'work')).trim();
    const cases = [[main], [side], [tag], [side, main, tag], [tag, tag, main]];
    for (const wants of cases) {
      const fast = await selectObjects(repo, { wants, haves: [] });
      const spy = vi.spyOn(RepositoryObjects.prototype, 'packHolding').mockReturnValue(null);
      const byIds = await selectObjects(repo, { wants, haves: [] });
      spy.mockRestore();
      expect(byIds.pack).toBeUndefined();
      expect(fast.objects).toEqual(byIds.objects);
      // Each want's history as git lists it.
      expect(fast.objects.map((o) => o.oid).sort()).toEqual(await objectsOf('work', ...wants));
      // Every object the push brought: the newest commit's history and the tag (`side` is in that history).
      expect(fast.pack !== undefined).toBe(wants.includes(main) && wants.includes(tag));
    }
  });

  it('clones after a push as git does, then fetches with haves, and clones again after a second push', async () => {
    await commitMore(0, 12);
    await scratch.ok(['tag', '-a', '-m', 'Release', 'v1', 'HEAD~2'], 'work');
    await scratch.ok(['gc', '-q', '--aggressive'], 'work');
    await scratch.ok(['push', '-q', remote(), 'main', 'v1'], 'work');

    // The first clone after the push: the pushed pack, as it is.
    const asIs = vi.spyOn(RepositoryObjects.prototype, 'sendsAsIs');
    const kept = vi.spyOn(RepositoryObjects.prototype, 'keptPackOf');
    await scratch.ok(['clone', '-q', '--bare', url(), 'one.git']);
    expect(asIs.mock.results.map((r) => r.value)).toEqual([true]);
    expect(kept).not.toHaveBeenCalled();
    await scratch.ok(['fsck', '--strict'], 'one.git');
    expect(await objectsOf('one.git', '--all')).toEqual(await objectsOf('work', '--all'));
    // Over protocol v0 too.
    await scratch.ok(['-c', 'protocol.version=0', 'clone', '-q', '--bare', url(), 'v0.git']);
    await scratch.ok(['fsck', '--strict'], 'v0.git');
    expect(await objectsOf('v0.git', '--all')).toEqual(await objectsOf('work', '--all'));
    // Shallow: walked by ids, cut at the depth.
    await scratch.ok(['clone', '-q', '--bare', '--depth', '2', url(), 'shallow.git']);
    expect((await scratch.ok(['rev-list', '--count', 'main'], 'shallow.git')).trim()).toBe('2');
    await scratch.ok(['fsck', '--strict'], 'shallow.git');

    // A second push on top, then a fetch with haves into the first clone: only what is new.
    await commitMore(12, 5);
    await scratch.ok(['push', '-q', remote(), 'main'], 'work');
    await scratch.ok(['fetch', '-q', url(), 'main:main'], 'one.git');
    await scratch.ok(['fsck', '--strict'], 'one.git');
    expect(await objectsOf('one.git', '--all')).toEqual(await objectsOf('work', '--all'));

    // A clone now needs both packs: walked by ids, a pack written for it.
    kept.mockClear();
    await scratch.ok(['clone', '-q', '--bare', url(), 'two.git']);
    expect(kept.mock.results.map((r) => r.value)).toEqual([null]);
    await scratch.ok(['fsck', '--strict'], 'two.git');
    expect(await objectsOf('two.git', '--all')).toEqual(await objectsOf('work', '--all'));
    // The older tip alone is still one pack's history, but not all of it (the tag is not wanted): a pack written for it.
    const repo = emulator.git('pat/app').objects;
    const old = (await scratch.ok(['rev-parse', 'main~5'], 'work')).trim();
    const sel = await selectObjects(repo, { wants: [old], haves: [] });
    expect(sel.pack).toBeUndefined();
    expect(sel.objects.map((o) => o.oid).sort()).toEqual(await objectsOf('work', old));
  });

  it('walks a pack a data directory kept (no children recorded) by reading its trees once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clonefirst-data-'));
    try {
      await commitMore(0, 8);
      await scratch.ok(['gc', '-q', '--aggressive'], 'work');
      let e = await createEmulator({ fixture, dataDir: dir, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
      let s = await e.listen({ port: 0 });
      await scratch.ok(['push', '-q', withCredentials(`${s.url}/pat/app.git`, 'pat', 'pat-token'), 'main'], 'work');
      await s.close();
      await e.close();
      e = await createEmulator({ dataDir: dir });
      s = await e.listen({ port: 0 });
      try {
        const repo = e.git('pat/app').objects;
        const main = (await scratch.ok(['rev-parse', 'main'], 'work')).trim();
        const pack = repo.packHolding(main)!;
        expect(pack.childrenAt(pack.index.get((await repo.readCommit(main)).tree)!)).toBeUndefined();
        const asIs = vi.spyOn(RepositoryObjects.prototype, 'sendsAsIs');
        await scratch.ok(['clone', '-q', '--bare', `${s.url}/pat/app.git`, 'back.git']);
        expect(asIs.mock.results.map((r) => r.value)).toEqual([true]);
        await scratch.ok(['fsck', '--strict'], 'back.git');
        expect(await objectsOf('back.git', '--all')).toEqual(await objectsOf('work', '--all'));
        // The walk recorded the children it read; a walk over ids selects the same.
        expect(pack.childrenAt(pack.index.get((await repo.readCommit(main)).tree)!)).toBeTruthy();
        const fast = await selectObjects(repo, { wants: [main], haves: [] });
        vi.spyOn(RepositoryObjects.prototype, 'packHolding').mockReturnValue(null);
        expect((await selectObjects(repo, { wants: [main], haves: [] })).objects).toEqual(fast.objects);
      } finally {
        await s.close();
        await e.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
