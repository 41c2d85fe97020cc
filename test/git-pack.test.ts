// The git surface's byte formats against plain models: side-band framing of a stream in pieces,
// packs of whole objects (stored zlib) read back, deltas included, and packs written again from
// the entries (deltas included) a read kept.
import fc from 'fast-check';
import { createHash, createHmac } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { hmacSha256Portable, sha256Portable } from '../src/git/sha256.js';
import { describe, expect, it } from 'vitest';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deltasToSendWhole, MAX_DELTA_DEPTH, packChunks, packEntry, readPack, storedZlib, writePack, type PackedObject } from '../src/git/pack.js';
import { GitScratch, HAS_GIT } from './support/git-cli.js';
import isogit from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { concat, framed, pkt, sideband } from '../src/git/pktline.js';

const bytes = fc.uint8Array({ maxLength: 300 });

describe('git byte formats', () => {
  it('frames a stream given in pieces as side-band packets of the stream whole', () => {
    fc.assert(
      fc.property(fc.array(bytes, { maxLength: 6 }), fc.integer({ min: 1, max: 50 }), fc.array(bytes, { maxLength: 2 }), (chunks, max, before) => {
        const whole = concat(chunks);
        const after = [pkt('end\n')];
        expect(framed(before, chunks, whole.length, after, max)).toEqual(concat([...before, ...sideband(1, whole, max), ...after]));
      }),
    );
  });

  it('hashes and signs (SHA-256, HMAC-SHA-256) without Node as Node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (key, data) => {
        expect(Buffer.from(sha256Portable(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
        expect(Buffer.from(hmacSha256Portable(key, data)).toString('hex')).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }),
    );
  });

  it('writes zlib streams in stored blocks that zlib reads back', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200_000 }), (data) => {
      expect(new Uint8Array(inflateSync(storedZlib(data)))).toEqual(data);
    }), { numRuns: 20 });
  });

  it('reads back a pack it wrote, and resolves a delta against an object of the pack', async () => {
    const objects = [
      { type: 'blob' as const, content: new TextEncoder().encode('hello world, hello git\n') },
      { type: 'blob' as const, content: new Uint8Array() },
    ];
    const { chunks } = await packChunks(objects.map(packEntry));
    const read = await readPack(concat(chunks), async () => null);
    expect(read.map((o) => [o.type, new TextDecoder().decode(o.content)])).toEqual([['blob', 'hello world, hello git\n'], ['blob', '']]);
    expect(read[1]!.oid).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    // An ofs-delta: copy 12 bytes of the base, then insert "pack\n".
    const base = packEntry(objects[0]!);
    const delta = Uint8Array.from([23, 17, 0x90, 12, 5, ...new TextEncoder().encode('pack\n')]);
    const deltaEntry = concat([Uint8Array.from([0x60 | delta.length]), Uint8Array.from([base.length]), new Uint8Array(deflateSync(delta))]);
    const withDelta = await packChunks([base, deltaEntry]);
    const [, derived] = await readPack(concat(withDelta.chunks), async () => null);
    expect(new TextDecoder().decode(derived!.content)).toBe('hello world,pack\n');
  });
});

describe('packs sent from what a push kept', () => {
  const packed = (base: string | null): PackedObject => ({ type: 'blob', base, size: 0, deflated: new Uint8Array() });

  it('sends whole exactly the deltas whose chain leaves the pack, loops, or grows deeper than git allows', () => {
    const oids = Array.from({ length: 70 }, (_, i) => i.toString(16).padStart(40, '0'));
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 89 }), { nil: null }), { minLength: 1, maxLength: 70 }), (bases) => {
        const objects = new Map(bases.map((b, i) => [oids[i]!, packed(b === null ? null : b < 70 ? oids[b]! : `f${b}`.padStart(40, '0'))]));
        const whole = new Set(deltasToSendWhole(objects));
        // The model: follow each delta, with the ones sent whole cut, to a whole object inside the pack.
        for (const [oid, o] of objects) {
          if (o.base === null) expect(whole.has(oid)).toBe(false);
          let depth = 0;
          const seen = new Set<string>();
          for (let cur = oid; objects.get(cur)!.base !== null && !whole.has(cur); cur = objects.get(cur)!.base!) {
            expect(seen.has(cur)).toBe(false);
            seen.add(cur);
            expect(objects.has(objects.get(cur)!.base!)).toBe(true);
            depth++;
          }
          expect(depth).toBeLessThanOrEqual(MAX_DELTA_DEPTH);
        }
        // Nothing sent whole that could have gone as a delta: a cut is out of the pack, on a loop, or at the depth limit.
        for (const oid of whole) {
          const base = objects.get(oid)!.base!;
          if (!objects.has(base)) continue;
          let depth = 0;
          for (let cur = base; objects.get(cur)!.base !== null && !whole.has(cur) && depth <= MAX_DELTA_DEPTH; cur = objects.get(cur)!.base!) depth++;
          const loops = (() => {
            const seen = new Set<string>();
            for (let cur: string | null = oid; cur !== null && objects.has(cur); cur = objects.get(cur)!.base) {
              if (seen.has(cur)) return true;
              seen.add(cur);
            }
            return false;
          })();
          expect(loops || depth + 1 > MAX_DELTA_DEPTH).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it.skipIf(!HAS_GIT)('keeps the deltas of a pack git made, and writes them again in any order as a pack git and isomorphic-git index', async () => {
    const scratch = new GitScratch();
    try {
      await scratch.ok(['init', '-q', '--bare', 'r.git']);
      const lines = Array.from({ length: 200 }, (_, i) => `line ${i} of a file that changes a little each time\n`).join('');
      for (let c = 0; c < 6; c++) {
        const blob = (await scratch.ok(['hash-object', '-w', '--stdin'], 'r.git', {}, `${lines}change ${c}\n`)).trim();
        const tree = (await scratch.ok(['mktree'], 'r.git', {}, `100644 blob ${blob}\tfile.txt\n`)).trim();
        const parent = c === 0 ? [] : ['-p', 'main'];
        const commit = (await scratch.ok(['commit-tree', tree, ...parent, '-m', `Change ${c}`], 'r.git')).trim();
        await scratch.ok(['update-ref', 'refs/heads/main', commit], 'r.git');
      }
      const pack = await scratch.bytes(['pack-objects', '--stdout', '--revs', '-q'], 'r.git', 'main\n');
      const read = await readPack(pack, async () => null);
      expect(read.some((o) => o.packed.base !== null)).toBe(true);
      const objects = new Map(read.map((o) => [o.oid, o.packed]));
      expect(deltasToSendWhole(objects)).toEqual([]);
      // Given reversed (each delta before its base), the pack still puts each base first.
      for (const order of [read, [...read].reverse()]) {
        const written = await writePack(order.map((o) => ({ oid: o.oid, packed: o.packed })));
        const again = await readPack(written, async () => null);
        expect(new Map(again.map((o) => [o.oid, Buffer.from(o.content).toString('hex')]))).toEqual(new Map(read.map((o) => [o.oid, Buffer.from(o.content).toString('hex')])));
        writeFileSync(join(scratch.dir, 'sent.pack'), written);
        await scratch.ok(['init', '-q', '--bare', 'copy.git']);
        await scratch.ok(['index-pack', '--strict', '-o', 'copy.git/objects/pack/sent.idx', 'sent.pack']);
        rmSync(join(scratch.dir, 'copy.git'), { recursive: true });
        // isomorphic-git (what the MSW door's clients use) indexes it too, and reads every object back.
        const fs = createFsFromVolume(new Volume());
        await isogit.init({ fs, dir: '/r', bare: true });
        fs.writeFileSync('/r/objects/pack/pack-sent.pack', written);
        await isogit.indexPack({ fs, dir: '/r', gitdir: '/r', filepath: 'objects/pack/pack-sent.pack' });
        for (const o of read) expect(Buffer.from((await isogit.readObject({ fs, dir: '/r', gitdir: '/r', oid: o.oid, format: 'content' })).object as Uint8Array).equals(Buffer.from(o.content))).toBe(true);
      }
    } finally {
      scratch.remove();
    }
  });
});
