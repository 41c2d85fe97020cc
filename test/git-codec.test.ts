// Loose objects under 4 KiB are kept in zlib's stored blocks: every reader (node's zlib, git,
// isomorphic-git's pako) inflates them, and the emulator reads them back without an inflater.
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codec, storedZlib, unstoredZlib } from '../src/git/format.js';

/** Byte for byte (vitest's deep equality is slow on large arrays, and tells a Buffer from a Uint8Array). */
const same = (a: Uint8Array | null, b: Uint8Array) => a !== null && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));

const bytes = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ minLength: 65_000, maxLength: 140_000 }));

describe('stored zlib streams', () => {
  it('inflate with zlib to what was stored, and read back as they are', () => {
    fc.assert(
      fc.property(bytes, (data) => {
        const stream = storedZlib(data);
        expect(same(inflateSync(stream), data)).toBe(true);
        expect(same(unstoredZlib(stream), data)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('a compressed stream is left to zlib', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 0, max: 9 }), (data, level) => {
        const stream = new Uint8Array(deflateSync(data, { level }));
        const fast = unstoredZlib(stream);
        if (fast !== null) expect(same(fast, data)).toBe(true);
        expect(same(codec.inflate(stream), data)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('the codec stores small objects and compresses large ones, both read back', () => {
    const small = new TextEncoder().encode('blob 12\0hello world\n');
    const large = new TextEncoder().encode(`blob 9000\0${'compressible line\n'.repeat(530)}`);
    expect(same(unstoredZlib(codec.deflate(small)), small)).toBe(true);
    expect(unstoredZlib(codec.deflate(large))).toBeNull();
    expect(codec.deflate(large).length).toBeLessThan(large.length / 4);
    expect(same(codec.inflate(codec.deflate(large)), large)).toBe(true);
  });
});
