// The git surface's byte formats against plain models: side-band framing of a stream in pieces,
// and packs of whole objects (stored zlib) read back, deltas included.
import fc from 'fast-check';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packChunks, packEntry, readPack, storedZlib } from '../src/git/pack.js';
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
