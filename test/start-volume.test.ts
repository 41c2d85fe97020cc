// The object store's volume (Maps, in Node as in a page): the calls the store makes, the promise
// calls isomorphic-git makes on a repository's gitdir, and a deleted world's storages removed.
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { MapVolume, promiseFs } from '../src/git/map-volume.js';

const BASE = 'https://gitlab.example.com';
const TOKEN = 'glpat-emulator-root-token';

describe('the object store volume', () => {
  it('keeps files under folders, lists them sorted, and refuses a file in a missing folder', () => {
    const v = new MapVolume();
    expect(() => v.writeFileSync('/a/b', 'x')).toThrow(/ENOENT/);
    v.mkdirSync('/a/b/c', { recursive: true });
    v.writeFileSync('/a/b/c/z', 'zed');
    v.writeFileSync('/a/b/c/y', new Uint8Array([1, 2]));
    expect(v.readdirSync('/a/b/c')).toEqual(['y', 'z']);
    expect(v.readFileSync('/a/b/c/z', 'utf8')).toBe('zed');
    expect(v.readFileSync('/a/b//c/y/')).toEqual(new Uint8Array([1, 2]));
    expect(v.existsSync('/a/b')).toBe(true);
    expect(() => v.mkdirSync('/a/b')).toThrow(/EEXIST/);
    expect(() => v.readFileSync('/a/nope')).toThrow(/ENOENT/);
  });

  it('removes a folder and all under it, a file alone, and nothing that is not there', () => {
    const v = new MapVolume();
    v.mkdirSync('/s/1/objects/ab', { recursive: true });
    v.mkdirSync('/s/2/objects', { recursive: true });
    v.writeFileSync('/s/1/objects/ab/cdef', 'o');
    v.writeFileSync('/s/1/HEAD', 'ref');
    v.writeFileSync('/s/2/HEAD', 'ref');
    v.rmSync('/s/1', { recursive: true, force: true });
    expect(v.existsSync('/s/1')).toBe(false);
    expect(v.existsSync('/s/1/objects/ab/cdef')).toBe(false);
    expect([...v.files.keys()]).toEqual(['/s/2/HEAD']);
    expect([...v.dirs.keys()].sort()).toEqual(['/', '/s', '/s/2', '/s/2/objects']);
    expect(v.readdirSync('/s')).toEqual(['2']);
    v.rmSync('/s/2/HEAD', { recursive: true, force: true });
    expect(v.readdirSync('/s/2')).toEqual(['objects']);
    v.rmSync('/nothing/here', { recursive: true, force: true });
    v.rmSync('/', { recursive: true, force: true });
    expect(v.readdirSync('/')).toEqual([]);
    expect(v.files.size).toBe(0);
  });

  it('serves isomorphic-git a repository the emulator wrote', async () => {
    const emulator = await createEmulator();
    const repo = emulator.git('acme/website');
    const { fs, gitdir } = repo;
    const head = (await repo.resolve('main'))!;
    const { commit } = await git.readCommit({ fs, gitdir, oid: head });
    expect(commit.message).toBeTruthy();
    const { blob } = await git.readBlob({ fs, gitdir, oid: head, filepath: 'README.md' });
    expect(new TextDecoder().decode(blob)).toMatch(/^# Website/);
    expect(await (promiseFs(new MapVolume()) as unknown as { promises: { readdir(p: string): Promise<string[]> } }).promises.readdir('/')).toEqual([]);
  });

  it('drops the objects a deleted world wrote, and keeps the server’s', async () => {
    const emulator = await createEmulator({ clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const volume = emulator.objects.volume as MapVolume;
    const before = new Set(volume.files.keys());
    await emulator.worlds!.create('w');
    const res = await emulator.handle(
      new Request(`${BASE}/-/worlds/w/api/v4/projects/acme%2Fwebsite/repository/files/NEW.md`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ branch: 'main', content: 'new', commit_message: 'add' }),
      }),
    );
    expect(res.status).toBe(201);
    const added = [...volume.files.keys()].filter((f) => !before.has(f));
    expect(added.length).toBeGreaterThan(0);
    emulator.worlds!.remove('w');
    expect([...volume.files.keys()].filter((f) => !before.has(f))).toEqual([]);
    expect([...before].every((f) => volume.files.has(f))).toBe(true);
  });
});
