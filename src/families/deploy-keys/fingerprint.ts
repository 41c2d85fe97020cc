// Gitlab::SSHPublicKey's fingerprints of an OpenSSH public key: the MD5 (`aa:bb:...`) and the
// SHA-256 (unpadded base64) of the key's decoded body.
import { fromBase64, toBase64 } from '../../git/bytes.js';
import { sha256Portable } from '../../git/sha256.js';

/** The algorithms Gitlab::SSHPublicKey supports, and a key line: type, base64 body, comment. */
const KEY_LINE = /^(ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) ([A-Za-z0-9+/]+={0,3})(?: .*)?$/s;

/** The key's decoded body, or undefined for what is not an OpenSSH public key of a supported type. */
export function keyBody(key: string): Uint8Array | undefined {
  const m = KEY_LINE.exec(key.trim());
  if (!m || m[2]!.length % 4 === 1) return undefined;
  try {
    const body = fromBase64(m[2]!);
    return body.length > 0 ? body : undefined;
  } catch {
    return undefined;
  }
}

export const sha256Fingerprint = (body: Uint8Array): string => toBase64(sha256Portable(body)).replace(/=+$/, '');

export const md5Fingerprint = (body: Uint8Array): string => [...md5(body)].map((b) => b.toString(16).padStart(2, '0')).join(':');

const S = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** RFC 1321. */
export function md5(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, bitLength >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(bitLength / 2 ** 32), true);
  let a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
  for (let off = 0; off < padded.length; off += 64) {
    let a = a0, b = b0, c = c0, d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number, g: number;
      if (i < 16) { f = (b & c) | (~b & d); g = i; }
      else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; }
      else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) % 16; }
      else { f = c ^ (b | ~d); g = (7 * i) % 16; }
      const sum = (a + f + K[i]! + view.getUint32(off + g * 4, true)) >>> 0;
      a = d; d = c; c = b;
      b = (b + ((sum << S[i]!) | (sum >>> (32 - S[i]!)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0; b0 = (b0 + b) >>> 0; c0 = (c0 + c) >>> 0; d0 = (d0 + d) >>> 0;
  }
  const out = new Uint8Array(16);
  const ov = new DataView(out.buffer);
  [a0, b0, c0, d0].forEach((w, i) => ov.setUint32(i * 4, w, true));
  return out;
}
