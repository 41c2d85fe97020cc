// tar (archive-tar.c): ustar headers, owner root:root, `tar.umask` 0002, a pax global header
// holding the commit id (what `git get-tar-commit-id` reads), pax `path`/`linkpath` records for
// names that do not fit, and the output padded to 10240-byte blocks.
import { isDir, isLink, type ArchiveEntry } from './archive.js';

const encoder = new TextEncoder();


const RECORD = 512;
const BLOCK = RECORD * 20;
const UMASK = 0o002;


/** One pax record, `"<len> <key>=<value>\n"`, its length counting its own digits. */
function paxRecord(key: string, value: Uint8Array): Uint8Array {
  let len = 1 + 1 + key.length + 1 + value.length + 1;
  for (let tmp = 1; Math.floor(len / 10) >= tmp; tmp *= 10) len++;
  const head = encoder.encode(`${len} ${key}=`);
  const out = new Uint8Array(len);
  out.set(head);
  out.set(value, head.length);
  out[len - 1] = 0x0a;
  return out;
}

function octal(header: Uint8Array, at: number, width: number, value: number): void {
  header.set(encoder.encode(value.toString(8).padStart(width - 1, '0')), at);
}

function ustarHeader(name: Uint8Array, prefix: Uint8Array, linkname: Uint8Array, type: string, mode: number, size: number, time: number): Uint8Array {
  const h = new Uint8Array(RECORD);
  h.set(name.subarray(0, 100), 0);
  octal(h, 100, 8, mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, (mode & 0o170000) === 0o100000 ? size : 0);
  octal(h, 136, 12, time);
  h[156] = type.charCodeAt(0);
  h.set(linkname.subarray(0, 100), 157);
  h.set(encoder.encode('ustar\0'), 257);
  h.set(encoder.encode('00'), 263);
  h.set(encoder.encode('root'), 265);
  h.set(encoder.encode('root'), 297);
  octal(h, 329, 8, 0);
  octal(h, 337, 8, 0);
  h.set(prefix.subarray(0, 155), 345);
  let sum = 8 * 0x20;
  for (let i = 0; i < RECORD; i++) if (i < 148 || i >= 156) sum += h[i]!;
  octal(h, 148, 8, sum);
  return h;
}

/** Where git splits a long name into ustar's prefix and name fields (get_path_prefix). */
function pathPrefixLength(path: Uint8Array): number {
  let i = path.length;
  if (i > 1 && path[i - 1] === 0x2f) i--;
  if (i > 155) i = 155;
  do i--;
  while (i > 0 && path[i] !== 0x2f);
  return i;
}

export function tarArchive(entries: readonly ArchiveEntry[], commit: string, time: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (bytes: Uint8Array) => {
    chunks.push(bytes);
    length += bytes.length;
    const pad = (RECORD - (bytes.length % RECORD)) % RECORD;
    if (pad) {
      chunks.push(new Uint8Array(pad));
      length += pad;
    }
  };
  const none: Uint8Array = new Uint8Array(0);
  const global = paxRecord('comment', encoder.encode(commit));
  push(ustarHeader(encoder.encode('pax_global_header'), none, none, 'g', 0o100666, global.length, time));
  push(global);
  for (const e of entries) {
    const path = encoder.encode(e.path);
    const content = e.content ?? none;
    let type: string;
    let mode = e.mode;
    if (isDir(mode)) {
      type = '5';
      mode = (mode | 0o777) & ~UMASK;
    } else if (isLink(mode)) {
      type = '2';
      mode |= 0o777;
    } else {
      type = '0';
      mode = (mode | (mode & 0o100 ? 0o777 : 0o666)) & ~UMASK;
    }
    const ext: Uint8Array[] = [];
    let name: Uint8Array = path;
    let prefix: Uint8Array = none;
    if (path.length > 100) {
      const plen = pathPrefixLength(path);
      const rest = path.length - plen - 1;
      if (plen > 0 && rest <= 100) {
        prefix = path.subarray(0, plen);
        name = path.subarray(plen + 1);
      } else {
        name = encoder.encode(`${e.oid}.data`);
        ext.push(paxRecord('path', path));
      }
    }
    let linkname: Uint8Array = none;
    if (isLink(mode)) {
      if (content.length > 100) {
        linkname = encoder.encode(`see ${e.oid}.paxheader`);
        ext.push(paxRecord('linkpath', content));
      } else linkname = content;
    }
    if (ext.length) {
      const records = concat(ext);
      push(ustarHeader(encoder.encode(`${e.oid}.paxheader`), none, none, 'x', 0o100666, records.length, time));
      push(records);
    }
    push(ustarHeader(name, prefix, linkname, type, mode, content.length, time));
    if (type === '0' && content.length) push(content);
  }
  // write_trailer: zeros to the end of the 10240-byte block, and one more block when fewer than
  // two zero records would be left.
  const tail = BLOCK - (length % BLOCK);
  const total = length + tail + (tail < 2 * RECORD ? BLOCK : 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
