// Bytes of file contents: UTF-8, Base64 as Ruby reads (lenient) and writes it (strict), SHA-256.
// No Buffer, so the core runs outside Node too.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

/** `Base64.strict_encode64`. */
export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    out[o++] = CODES[(n >> 6) & 63]!;
    out[o++] = CODES[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    out[o++] = i + 1 < bytes.length ? CODES[(n >> 6) & 63]! : 61;
    out[o++] = 61;
  }
  return new TextDecoder().decode(out);
}

/** `Base64.decode64`: characters outside the alphabet are skipped, padding is optional. */
export function fromBase64(text: string): Uint8Array {
  const values = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // '=' ends the data
    const v = c < 128 ? VALUE[c]! : -1;
    if (v >= 0) values[n++] = v;
  }
  const out = new Uint8Array(Math.floor((n * 3) / 4));
  let o = 0;
  for (let i = 0; i < n; i += 4) {
    const w = (values[i]! << 18) | ((i + 1 < n ? values[i + 1]! : 0) << 12) | ((i + 2 < n ? values[i + 2]! : 0) << 6) | (i + 3 < n ? values[i + 3]! : 0);
    if (o < out.length) out[o++] = w >> 16;
    if (o < out.length && i + 2 < n) out[o++] = (w >> 8) & 255;
    if (o < out.length && i + 3 < n) out[o++] = w & 255;
  }
  return out;
}

/** Bytes as lower-case hex. */
export function hexOf(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hexOf(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** A Git LFS pointer file (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md). */
export function lfsPointer(oid: string, size: number): string {
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;
}

/** The sha256 oid of an LFS pointer, or null when the blob is not one. */
export function parseLfsPointer(bytes: Uint8Array): { oid: string; size: number } | null {
  if (bytes.length > 200) return null;
  const text = new TextDecoder().decode(bytes);
  const m = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n?$/.exec(text);
  return m ? { oid: m[1]!, size: Number(m[2]) } : null;
}
