// The repositories' part of an exported world (src/families/image.ts): the git objects each
// repository's world sees, by storage. Storage ids are the process's (never handed out twice),
// so the export numbers the storages 1, 2... in the copy of the world it writes, and a seed
// stores the objects in new storages and records those in the world it read.
import type { Draft } from 'immer';
import { FixtureError } from '../../core/errors.js';
import { fromBase64, toBase64 } from '../../git/bytes.js';
import { codec, unwrap } from '../../git/format.js';
import type { ObjectDatabase } from '../../git/objects.js';
import { tentries, tget } from '../../store/table.js';
import type { ImagePart, SeedRun } from '../define.js';
import type { State } from '../world.js';

/** Storage number (from 1) -> object id -> the loose object as git stores it (deflated), in Base64. */
export interface RepositoriesImage {
  storages: Record<string, string>[];
}

/** Every object a world that saw `id` up to `seen` sees, parents' included: oid -> its deflated file. */
function visibleObjects(git: ObjectDatabase, id: number, seen: number): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (let s: ReturnType<ObjectDatabase['objectStorage']> | null = git.objectStorage(id), upTo = seen; s; upTo = s.parentSeen, s = s.parent) {
    for (const [oid, n] of s.objects()) if (n <= upTo && !out.has(oid)) out.set(oid, s.looseFile(oid));
  }
  return out;
}

export const REPOSITORIES_IMAGE: ImagePart = {
  write(state, git) {
    // Each storage, in the order the repositories name them, up to the last write any of them saw.
    const seenOf = new Map<number, number>();
    for (const [, r] of tentries(state.repositories)) if (r.storage !== undefined) seenOf.set(r.storage, Math.max(seenOf.get(r.storage) ?? 0, r.seen ?? 0));
    const numbers = new Map<number, number>();
    const storages: Record<string, string>[] = [];
    for (const [id, seen] of seenOf) {
      const objects = visibleObjects(git, id, seen);
      const part: Record<string, string> = {};
      for (const oid of [...objects.keys()].sort()) part[oid] = toBase64(objects.get(oid)!);
      storages.push(part);
      numbers.set(id, storages.length);
    }
    const part: RepositoriesImage = { storages };
    return {
      part,
      change: (draft: Draft<State>) => {
        for (const key of [...tentries(draft.repositories)].map(([k]) => Number(k))) {
          const r = tget(draft.repositories, key)!;
          if (r.storage === undefined) continue;
          r.storage = numbers.get(r.storage)!;
          r.seen = 1;
        }
      },
    };
  },

  async read(part, s: SeedRun) {
    const image = (part ?? { storages: [] }) as RepositoriesImage;
    if (typeof image !== 'object' || !Array.isArray(image.storages)) throw new FixtureError('world.parts.repositories.storages: expected an array');
    const made: { id: number; seen: number }[] = [];
    for (const [i, objects] of image.storages.entries()) {
      const where = `world.parts.repositories.storages[${i}]`;
      if (typeof objects !== 'object' || objects === null || Array.isArray(objects)) throw new FixtureError(`${where}: expected an object`);
      const id = s.git.allocate();
      const store = s.git.objectStorage(id);
      const n = store.reserve();
      for (const oid of Object.keys(objects)) {
        const text = objects[oid];
        let raw: Uint8Array;
        try {
          raw = codec.inflate(fromBase64(String(text)));
          unwrap(raw, oid);
        } catch {
          throw new FixtureError(`${where}["${oid}"]: not a git object`);
        }
        if (!/^[0-9a-f]{40}$/.test(oid) || (await codec.sha1(raw)) !== oid) throw new FixtureError(`${where}["${oid}"]: the object's id is not its content's`);
        store.put(oid, raw, n);
      }
      made.push({ id, seen: n });
    }
    s.update((draft) => {
      for (const key of [...tentries(draft.repositories)].map(([k]) => Number(k))) {
        const r = tget(draft.repositories, key)!;
        if (r.storage === undefined) continue;
        const to = made[r.storage - 1];
        if (!to) throw new FixtureError(`world.families.repositories.repositories: repository ${key} names storage ${r.storage}, which world.parts.repositories does not hold`);
        r.storage = to.id;
        r.seen = to.seen;
      }
    });
  },
};
