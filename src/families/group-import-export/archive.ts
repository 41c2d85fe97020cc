// The group export file: a gzipped tar as GitLab's Gitlab::ImportExport writes one (its version
// files, and the group's attributes under tree/groups/), and the reading of one on import.
import { fflate } from '../../git/fflate.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const RECORD = 512;

function header(name: string, size: number, time: number): Uint8Array {
  const h = new Uint8Array(RECORD);
  const octal = (at: number, width: number, value: number) => h.set(encoder.encode(value.toString(8).padStart(width - 1, '0')), at);
  h.set(encoder.encode(name).subarray(0, 100), 0);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  octal(136, 12, Math.floor(time / 1000));
  h[156] = 0x30;
  h.set(encoder.encode('ustar\0'), 257);
  h.set(encoder.encode('00'), 263);
  let sum = 8 * 0x20;
  for (let i = 0; i < RECORD; i++) if (i < 148 || i >= 156) sum += h[i]!;
  octal(148, 8, sum);
  return h;
}

/** A tar.gz of the files, in order. */
export function packExport(files: Record<string, string>, time: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, text] of Object.entries(files)) {
    const body = encoder.encode(text);
    parts.push(header(name, body.length, time), body, new Uint8Array((RECORD - (body.length % RECORD)) % RECORD));
  }
  parts.push(new Uint8Array(RECORD * 2));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const tar = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    tar.set(p, at);
    at += p.length;
  }
  return fflate().gzipSync(tar, { level: 6, mtime: 0 });
}

/** The regular files of a tar.gz, by name; null when it is not one. */
export function unpackExport(bytes: Uint8Array): Map<string, string> | null {
  let tar: Uint8Array;
  try {
    tar = fflate().gunzipSync(bytes);
  } catch {
    return null;
  }
  const out = new Map<string, string>();
  for (let at = 0; at + RECORD <= tar.length; ) {
    const h = tar.subarray(at, at + RECORD);
    if (h.every((b) => b === 0)) break;
    const field = (from: number, len: number) => decoder.decode(h.subarray(from, from + len)).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) return null;
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const type = String.fromCharCode(h[156] ?? 0x30);
    const start = at + RECORD;
    if (start + size > tar.length) return null;
    if (type === '0' || type === '\0') out.set(name.replace(/^\.\//, ''), decoder.decode(tar.subarray(start, start + size)));
    at = start + Math.ceil(size / RECORD) * RECORD;
  }
  return out;
}
