// A fast 53-bit hash (cyrb53, over 32-bit words of the UTF-8 bytes): enough to tell versions of
// a response apart for ETags. A string and its UTF-8 bytes hash the same.
const utf8 = new TextEncoder();

export function hash53(input: string | Uint8Array): string {
  let bytes = typeof input === 'string' ? utf8.encode(input) : input;
  // Word access needs an aligned start: copy into a buffer of its own (a Node Buffer's `slice` is a view at the same offset).
  if ((bytes.byteOffset & 3) !== 0) bytes = new Uint8Array(bytes);
  const n = bytes.byteLength;
  let h1 = 0xdeadbeef ^ n;
  let h2 = 0x41c6ce57 ^ n;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, n >>> 2);
  for (let i = 0; i < words.length; i++) {
    const c = words[i]!;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  for (let i = n & ~3; i < n; i++) {
    const c = bytes[i]!;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
