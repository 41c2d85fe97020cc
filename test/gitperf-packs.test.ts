// A pushed pack is kept as a pack (objects/pack, with its index), not as loose objects: every
// reader reads it back (the API's files, trees, commits and diffs; archives; isomorphic-git's
// log, readBlob, walk and merge; a clone by git; an export), a thin pack is completed with the
// bases it lacked, a data directory keeps it across a restart, a commit through the API goes on
// top, and a world restored to before a push does not see it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepositoryObjects } from '../src/git/objects.js';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { applyDelta } from '../src/git/pack.js';
import { StoredPack, completePack } from '../src/git/packfile.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const NOW = '2026-03-01T12:00:00Z';
const fixture: Fixture = {
  users: [{ username: 'pat', admin: true, tokens: [{ token: 'pat-token', scopes: ['api'] }] }],
  projects: [{ namespace: 'pat', path: 'app', creator: 'pat', visibility: 'public' }],
};

/** A text of `lines` lines, the `version`th of it (each version changes a few lines: git deltifies them). */
const text = (seed: number, version: number, lines = 200) => Array.from({ length: lines }, (_, i) => (i % 50 === version % 50 ? `line ${i} of ${seed}, changed in ${version}` : `line ${i} of file ${seed}: some text that stays`)).join('\n') + '\n';

type Server = Awaited<ReturnType<Emulator['listen']>>;

/** The pack files (and loose fan-out directories) a storage's gitdir holds. */
function gitdirFiles(e: Emulator, path: string): { packs: string[]; idx: string[]; loose: string[] } {
  const g = e.git(path);
  const v = g.objects.db.volume;
  const dir = `${g.objects.gitdir}/objects`;
  const names = v.readdirSync(`${dir}/pack`) as string[];
  return {
    packs: names.filter((n) => n.endsWith('.pack')),
    idx: names.filter((n) => n.endsWith('.idx')),
    loose: (v.readdirSync(dir) as string[]).filter((n) => /^[0-9a-f]{2}$/.test(n)),
  };
}

describe.skipIf(!HAS_GIT)('a pushed pack, kept as a pack', () => {
  let emulator: Emulator;
  let server: Server;
  let scratch: GitScratch;
  let seeded: ReturnType<Emulator['snapshot']>;
  const remote = () => withCredentials(`${server.url}/pat/app.git`, 'pat', 'pat-token');
  const api = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(`${server.url}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': 'pat-token', 'Content-Type': 'application/json', ...init.headers } });
    const body = r.headers.get('content-type')?.includes('json') ? await r.json() : await r.text();
    return { status: r.status, body: body as any };
  };
  /** A local history: `commits` commits over six files in two directories, and a branch. */
  const history = async (commits: number) => {
    await scratch.ok(['init', '-q', '-b', 'main', 'work']);
    for (let c = 0; c < commits; c++) {
      mkdirSync(join(scratch.dir, 'work', 'src', 'lib'), { recursive: true });
      for (let f = 0; f < 6; f++) if (c === 0 || f === c % 6) writeFileSync(join(scratch.dir, 'work', f < 3 ? 'src' : 'src/lib', `f${f}.txt`), text(f, c));
      await scratch.ok(['add', '-A'], 'work');
      await scratch.ok(['commit', '-q', '-m', `Change ${c}`], 'work');
    }
    // A packed history, so that what git pushes holds deltas against bases in the pack.
    await scratch.ok(['gc', '-q', '--aggressive'], 'work');
    return (await scratch.ok(['rev-parse', 'HEAD'], 'work')).trim();
  };

  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    seeded = emulator.snapshot();
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    emulator.restore(seeded);
    scratch = new GitScratch();
  });
  afterEach(() => scratch.remove());

  it('keeps the push as one pack with an index git verifies, and every reader reads it back', async () => {
    const tip = await history(12);
    await scratch.ok(['branch', 'side', 'HEAD~3'], 'work');
    await scratch.ok(['push', '-q', remote(), 'main', 'side'], 'work');
    const files = gitdirFiles(emulator, 'pat/app');
    expect(files.packs).toHaveLength(1);
    expect(files.idx).toEqual([files.packs[0]!.replace(/\.pack$/, '.idx')]);
    expect(files.loose).toEqual([]); // no pushed object was written loose

    // The index and the pack, as they are in the gitdir, are what git itself would have made.
    const g = emulator.git('pat/app');
    const v = g.objects.db.volume;
    const base = `${g.objects.gitdir}/objects/pack/${files.packs[0]!.replace(/\.pack$/, '')}`;
    mkdirSync(join(scratch.dir, 'check'));
    writeFileSync(join(scratch.dir, 'check', 'p.pack'), v.readFileSync(`${base}.pack`) as Uint8Array);
    writeFileSync(join(scratch.dir, 'check', 'p.idx'), v.readFileSync(`${base}.idx`) as Uint8Array);
    const verified = await scratch.ok(['verify-pack', '-v', 'check/p.idx']);
    expect(verified).toMatch(/chain length = \d+: \d+ objects?/); // it holds deltas
    const expected = (await scratch.ok(['rev-list', '--objects', 'main', 'side'], 'work')).trim().split('\n').length;
    expect(verified.split('\n').filter((l) => /^[0-9a-f]{40} (commit|tree|blob|tag) /.test(l))).toHaveLength(expected);

    // The API: a file at the tip and at an older commit, the tree, the log, a diff, a compare.
    const older = (await scratch.ok(['rev-parse', 'HEAD~7'], 'work')).trim();
    expect((await api(`/projects/pat%2Fapp/repository/files/src%2Flib%2Ff4.txt/raw?ref=main`)).body).toBe(readFileSync(join(scratch.dir, 'work/src/lib/f4.txt'), 'utf8'));
    expect((await api(`/projects/pat%2Fapp/repository/files/src%2Ff1.txt/raw?ref=${older}`)).body).toBe(await scratch.ok(['show', `${older}:src/f1.txt`], 'work'));
    const tree = await api('/projects/pat%2Fapp/repository/tree?recursive=true&per_page=100');
    expect(tree.body.map((e: { path: string }) => e.path).sort()).toEqual(['src', 'src/f0.txt', 'src/f1.txt', 'src/f2.txt', 'src/lib', 'src/lib/f3.txt', 'src/lib/f4.txt', 'src/lib/f5.txt']);
    const log = await api('/projects/pat%2Fapp/repository/commits?ref_name=main&per_page=100');
    expect(log.body.map((c: { id: string }) => c.id)).toEqual((await scratch.ok(['rev-list', 'main'], 'work')).trim().split('\n'));
    const diff = await api(`/projects/pat%2Fapp/repository/commits/${tip}/diff`);
    expect(diff.body).toHaveLength(1);
    expect(diff.body[0].diff).toContain('+line');
    const compare = await api('/projects/pat%2Fapp/repository/compare?from=side&to=main');
    expect(compare.body.commits).toHaveLength(3);
    expect(compare.body.diffs.length).toBeGreaterThan(0);

    // An archive of the pushed tree.
    const archive = await emulator.handle(new Request('https://gitlab.example.com/api/v4/projects/pat%2Fapp/repository/archive.tar?sha=main&include_lfs_blobs=false', { headers: { 'PRIVATE-TOKEN': 'pat-token' } }));
    expect(archive.status).toBe(200);
    expect(Buffer.from(await archive.arrayBuffer()).includes(Buffer.from('line 0 of file 0'))).toBe(true);

    // isomorphic-git on the gitdir: log, readBlob, a walk of the tree, a merge.
    const { fs, gitdir } = g;
    const ilog = await git.log({ fs, gitdir, ref: tip });
    expect(ilog).toHaveLength(12);
    const blob = await git.readBlob({ fs, gitdir, oid: tip, filepath: 'src/f0.txt' });
    expect(new TextDecoder().decode(blob.blob)).toBe(readFileSync(join(scratch.dir, 'work/src/f0.txt'), 'utf8'));
    const walked: string[] = [];
    await git.walk({ fs, gitdir, trees: [git.TREE({ ref: tip })], map: async (path, [entry]) => ((await entry!.type()) === 'blob' && walked.push(path), true) });
    expect(walked.sort()).toEqual(['src/f0.txt', 'src/f1.txt', 'src/f2.txt', 'src/lib/f3.txt', 'src/lib/f4.txt', 'src/lib/f5.txt']);
    const sideTip = (await scratch.ok(['rev-parse', 'side'], 'work')).trim();
    const merged = await git.merge({ fs, gitdir, ours: tip, theirs: sideTip, dryRun: true, author: { name: 'Pat', email: 'pat@example.com', timestamp: 1_700_000_000, timezoneOffset: 0 } });
    expect(merged.alreadyMerged).toBe(true);

    // git clones it back whole (the pack as it was pushed: it holds exactly what a clone wants); an export is a repository git checks.
    const kept = vi.spyOn(RepositoryObjects.prototype, 'sendsAsIs');
    await scratch.ok(['clone', '-q', '--bare', `${server.url}/pat/app.git`, 'back.git']);
    expect(kept.mock.calls.map(([p]) => (p as StoredPack).name)).toEqual([files.packs[0]!.slice(5, -5)]);
    expect(kept.mock.results.map((r) => r.value)).toEqual([true]);
    kept.mockRestore();
    expect(await scratch.ok(['rev-parse', 'main', 'side'], 'back.git')).toBe(await scratch.ok(['rev-parse', 'main', 'side'], 'work'));
    await scratch.ok(['fsck', '--strict'], 'back.git');
    await g.export(join(scratch.dir, 'exported.git'));
    await scratch.ok(['fsck', '--strict'], 'exported.git');
    expect((await scratch.ok(['rev-list', '--objects', 'main'], 'exported.git')).split('\n').length).toBe((await scratch.ok(['rev-list', '--objects', 'main'], 'work')).split('\n').length);
  });

  it('completes a thin pack with the bases it lacked, and takes an API commit and another push on top', async () => {
    const first = await history(4);
    await scratch.ok(['push', '-q', remote(), 'main'], 'work');
    // A small change to a large file: git sends it as a delta against the blob the server has.
    writeFileSync(join(scratch.dir, 'work/src/f0.txt'), text(0, 99));
    await scratch.ok(['commit', '-q', '-am', 'Small change'], 'work');
    await scratch.ok(['push', '-q', remote(), 'main'], 'work');
    const files = gitdirFiles(emulator, 'pat/app');
    expect(files.packs).toHaveLength(2);
    const g = emulator.git('pat/app');
    const v = g.objects.db.volume;
    for (const name of files.packs) {
      const base = `${g.objects.gitdir}/objects/pack/${name.replace(/\.pack$/, '')}`;
      writeFileSync(join(scratch.dir, `${name}`), v.readFileSync(`${base}.pack`) as Uint8Array);
      writeFileSync(join(scratch.dir, `${name.replace(/\.pack$/, '.idx')}`), v.readFileSync(`${base}.idx`) as Uint8Array);
      // verify-pack refuses a thin pack ("unresolved deltas"): each one kept holds its bases.
      await scratch.ok(['verify-pack', name.replace(/\.pack$/, '.idx')]);
    }
    expect((await api('/projects/pat%2Fapp/repository/files/src%2Ff0.txt/raw?ref=main')).body).toBe(text(0, 99));

    // A commit through the API on top of the pushed history, then another push on top of that.
    const made = await api('/projects/pat%2Fapp/repository/files/src%2Ff1.txt', { method: 'PUT', body: JSON.stringify({ branch: 'main', content: text(1, 50), commit_message: 'Through the API' }) });
    expect(made.status).toBe(200);
    await scratch.ok(['pull', '-q', '--no-rebase', remote(), 'main'], 'work');
    expect(readFileSync(join(scratch.dir, 'work/src/f1.txt'), 'utf8')).toBe(text(1, 50));
    writeFileSync(join(scratch.dir, 'work/src/f1.txt'), text(1, 51));
    await scratch.ok(['commit', '-q', '-am', 'After the API'], 'work');
    await scratch.ok(['push', '-q', remote(), 'main'], 'work');
    expect((await api('/projects/pat%2Fapp/repository/files/src%2Ff1.txt/raw?ref=main')).body).toBe(text(1, 51));
    const log = await api('/projects/pat%2Fapp/repository/commits?ref_name=main&per_page=100');
    expect(log.body.map((c: { title: string }) => c.title).slice(0, 3)).toEqual(['After the API', 'Through the API', 'Small change']);
    expect(log.body.at(-1).id).toBe((await scratch.ok(['rev-list', '--max-parents=0', first], 'work')).trim());
    await scratch.ok(['clone', '-q', '--bare', `${server.url}/pat/app.git`, 'back.git']);
    await scratch.ok(['fsck', '--strict'], 'back.git');
    // A short id finds an object in a pack.
    const blobId = (await scratch.ok(['rev-parse', 'main:src/f0.txt'], 'work')).trim();
    expect(g.objects.findByPrefix(blobId.slice(0, 7))).toEqual([blobId]);
  });

  it('a world restored to before a push sees none of it; one that goes on from the push reads its pack', async () => {
    const before = emulator.snapshot();
    const tip = await history(3);
    await scratch.ok(['push', '-q', remote(), 'main'], 'work');
    const pushed = emulator.snapshot();
    expect(emulator.git('pat/app').objects.has(tip)).toBe(true);
    // Another write after the push, then back to the push: the next write goes to a storage of its own.
    expect((await api('/projects/pat%2Fapp/repository/files/a.txt', { method: 'POST', body: JSON.stringify({ branch: 'main', content: 'a\n', commit_message: 'A' }) })).status).toBe(201);
    emulator.restore(pushed);
    expect((await api('/projects/pat%2Fapp/repository/files/b.txt', { method: 'POST', body: JSON.stringify({ branch: 'main', content: 'b\n', commit_message: 'B' }) })).status).toBe(201);
    const g = emulator.git('pat/app');
    const { fs, gitdir } = g; // isomorphic-git reads the parent's pack, copied
    expect((await git.log({ fs, gitdir, ref: g.refs().branches.main! })).map((c) => c.commit.message.trim())).toEqual(['B', 'Change 2', 'Change 1', 'Change 0']);
    expect((await api('/projects/pat%2Fapp/repository/files/src%2Ff0.txt/raw?ref=main')).body).toBe(text(0, 0));
    emulator.restore(before);
    expect(emulator.git('pat/app').objects.has(tip)).toBe(false);
    expect((await api(`/projects/pat%2Fapp/repository/commits/${tip}`)).status).toBe(404);
  });
});

describe.skipIf(!HAS_GIT)('a pushed pack in a data directory', () => {
  it('is kept on disk before the push is answered, and read back after a restart; an API commit goes on top', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitperf-data-'));
    const scratch = new GitScratch();
    try {
      let e = await createEmulator({ fixture, dataDir: dir, clock: { now: NOW, frozen: true } });
      let server = await e.listen({ port: 0 });
      await scratch.ok(['init', '-q', '-b', 'main', 'work']);
      for (let c = 0; c < 5; c++) {
        writeFileSync(join(scratch.dir, 'work', 'big.txt'), text(7, c));
        await scratch.ok(['add', '-A'], 'work');
        await scratch.ok(['commit', '-q', '-m', `Version ${c}`], 'work');
      }
      await scratch.ok(['gc', '-q'], 'work');
      await scratch.ok(['push', '-q', withCredentials(`${server.url}/pat/app.git`, 'pat', 'pat-token'), 'main'], 'work');
      const tip = (await scratch.ok(['rev-parse', 'HEAD'], 'work')).trim();
      // Killed right after the answer: a copy of the directory as it is now.
      const copy = mkdtempSync(join(tmpdir(), 'gitperf-data-copy-'));
      for (const f of ['format.json', 'snapshot', 'world.log', 'objects.log']) writeFileSync(join(copy, f), readFileSync(join(dir, f)));
      await server.close();
      await e.close();
      for (const from of [dir, copy]) {
        e = await createEmulator({ dataDir: from });
        server = await e.listen({ port: 0 });
        expect(e.git('pat/app').refs().branches.main).toBe(tip);
        const raw = await fetch(`${server.url}/api/v4/projects/pat%2Fapp/repository/files/big.txt/raw?ref=${tip}~2`);
        expect(await raw.text()).toBe(text(7, 2));
        const made = await fetch(`${server.url}/api/v4/projects/pat%2Fapp/repository/files/big.txt`, {
          method: 'PUT',
          headers: { 'PRIVATE-TOKEN': 'pat-token', 'Content-Type': 'application/json' },
          body: JSON.stringify({ branch: 'main', content: text(7, 9), commit_message: 'After the restart' }),
        });
        expect(made.status).toBe(200);
        await scratch.ok(['clone', '-q', '--bare', `${server.url}/pat/app.git`, `back-${from === dir ? 'a' : 'b'}.git`]);
        await scratch.ok(['fsck', '--strict'], `back-${from === dir ? 'a' : 'b'}.git`);
        const { fs, gitdir } = e.git('pat/app');
        expect((await git.log({ fs, gitdir, ref: e.git('pat/app').refs().branches.main! })).map((c) => c.commit.message.trim())).toEqual(['After the restart', 'Version 4', 'Version 3', 'Version 2', 'Version 1', 'Version 0']);
        await server.close();
        await e.close();
      }
      // The API commit made after the first restart is kept too.
      e = await createEmulator({ dataDir: dir });
      expect(new TextDecoder().decode((await e.git('pat/app').readFile('big.txt'))!)).toBe(text(7, 9));
      await e.close();
      rmSync(copy, { recursive: true, force: true });
    } finally {
      scratch.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a pack kept whole, read back without git', () => {
  it('reads each object of a completed thin pack, its deltas against an appended base, and its index round-trips', async () => {
    const enc = new TextEncoder();
    const baseContent = enc.encode(text(1, 1));
    const wrapId = async (type: string, content: Uint8Array) => {
      const { createHash } = await import('node:crypto');
      return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
    };
    const baseId = await wrapId('blob', baseContent);
    // A thin pack of one ref-delta: copy all of the base, then add a line.
    const added = enc.encode('one more line\n');
    const varint = (n: number) => {
      const out: number[] = [];
      do {
        let b = n & 0x7f;
        n = Math.floor(n / 128);
        if (n > 0) b |= 0x80;
        out.push(b);
      } while (n > 0);
      return out;
    };
    const len = baseContent.length;
    const delta = Uint8Array.from([...varint(len), ...varint(len + added.length), 0x80 | 0x10 | 0x20, len & 0xff, (len >> 8) & 0xff, added.length, ...added]);
    const target = applyDelta(baseContent, delta);
    const { deflateSync } = await import('node:zlib');
    const z = deflateSync(delta);
    const header = [(7 << 4) | 0x80 | (delta.length & 0x0f), ...varint(delta.length >> 4)];
    const { createHash } = await import('node:crypto');
    const body = Uint8Array.from([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 1, ...header, ...Buffer.from(baseId, 'hex'), ...z]);
    const thin = Uint8Array.from([...body, ...createHash('sha1').update(body).digest()]);
    const targetId = await wrapId('blob', target);
    const { bytes, entries } = await completePack(thin, [{ oid: targetId, offset: 12 }], new Map([[baseId, { type: 'blob' as const, content: baseContent }]]));
    expect(new DataView(bytes.buffer).getUint32(8)).toBe(2);
    const pack = await StoredPack.build(bytes, entries);
    expect(new TextDecoder().decode(pack.read(pack.index.get(targetId)!).object)).toBe(new TextDecoder().decode(target));
    expect(pack.read(pack.index.get(baseId)!).object).toEqual(baseContent);
    expect(pack.packed(pack.index.get(targetId)!)).toMatchObject({ type: 'blob', base: baseId, size: delta.length });
    const again = StoredPack.fromIndex(bytes, pack.idx);
    expect([...again.index.keys()].sort()).toEqual([baseId, targetId].sort());
    expect(again.read(again.index.get(targetId)!).object).toEqual(target);
    expect(again.idx).toEqual(pack.idx);
  });
});

describe('a pack whose zlib stream is corrupt', () => {
  it('is refused as git refuses it, and the next pack is read all the same', async () => {
    const { createHash } = await import('node:crypto');
    const { deflateSync } = await import('node:zlib');
    const { readPack, PackError } = await import('../src/git/pack.js');
    const content = new TextEncoder().encode(text(3, 3));
    const entry = (z: Uint8Array) => {
      const size = content.length;
      const head = [(3 << 4) | 0x80 | (size & 0x0f)];
      for (let rest = size >> 4; rest > 0; rest >>= 7) head.push((rest & 0x7f) | (rest >> 7 ? 0x80 : 0));
      const body = Uint8Array.from([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 1, ...head, ...z]);
      return Uint8Array.from([...body, ...createHash('sha1').update(body).digest()]);
    };
    const good = deflateSync(content);
    const bad = Uint8Array.from(good);
    bad[Math.floor(bad.length / 2)]! ^= 0xff; // the checksum of the pack is made after: only zlib sees it
    await expect(readPack(entry(bad), async () => null)).rejects.toBeInstanceOf(PackError);
    const truncated = good.subarray(0, good.length - 6);
    await expect(readPack(entry(truncated), async () => null)).rejects.toBeInstanceOf(PackError);
    const [read] = await readPack(entry(good), async () => null);
    expect(read!.content).toEqual(content);
  });
});
