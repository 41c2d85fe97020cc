// zip (archive-zip.c): deflate at zlib's default level unless storing is smaller, DOS time and an
// extended-timestamp field from the commit time, Unix modes for executables and symlinks, the
// "text" flag for files without NUL in their first 8000 bytes, and the commit id as the comment.
import { fflate } from './fflate.js';
import { isDir, isLink, type ArchiveEntry } from './archive.js';

const encoder = new TextEncoder();


const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class ByteWriter {
  #buf = new Uint8Array(1024);
  length = 0;

  #room(n: number): void {
    if (this.length + n <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.length + n));
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
  }

  le(value: number, bytes: 2 | 4): void {
    this.#room(bytes);
    for (let i = 0; i < bytes; i++) this.#buf[this.length++] = (value >>> (8 * i)) & 0xff;
  }

  bytes(data: Uint8Array): void {
    this.#room(data.length);
    this.#buf.set(data, this.length);
    this.length += data.length;
  }

  result(): Uint8Array {
    return this.#buf.slice(0, this.length);
  }
}

function isBinary(content: Uint8Array): boolean {
  return content.subarray(0, 8000).includes(0);
}

export function zipArchive(entries: readonly ArchiveEntry[], commit: string, time: number): Uint8Array {
  const d = new Date(time * 1000);
  const dosDate = d.getUTCDate() + (d.getUTCMonth() + 1) * 32 + (d.getUTCFullYear() - 1980) * 512;
  const dosTime = Math.floor(d.getUTCSeconds() / 2) + d.getUTCMinutes() * 32 + d.getUTCHours() * 2048;
  const extra = new ByteWriter(); // the extended timestamp: mtime only
  extra.le(0x5455, 2);
  extra.le(5, 2);
  extra.bytes(Uint8Array.of(1));
  extra.le(time, 4);
  const extraBytes = extra.result();
  const out = new ByteWriter();
  const dir = new ByteWriter();
  for (const e of entries) {
    const path = encoder.encode(e.path);
    const flags = /[^\x00-\x7f]/.test(e.path) ? 1 << 11 : 0;
    let method = 0;
    let attr = 0;
    let creator = 0;
    let text = 0;
    let data: Uint8Array = new Uint8Array(0);
    let size = 0;
    let crc = 0;
    if (isDir(e.mode)) attr = 16;
    else {
      const content = e.content ?? new Uint8Array(0);
      size = content.length;
      crc = crc32(content);
      text = isBinary(content) ? 0 : 1;
      if (isLink(e.mode)) attr = ((e.mode | 0o777) << 16) >>> 0;
      else if (e.mode & 0o111) attr = (e.mode << 16) >>> 0;
      if (isLink(e.mode) || e.mode & 0o111) creator = 0x0317;
      data = content;
      if (!isLink(e.mode) && size > 0) {
        const deflated = fflate().deflateSync(content, { level: 6 });
        if (deflated.length < size) {
          method = 8;
          data = deflated;
        }
      }
    }
    const offset = out.length;
    out.le(0x04034b50, 4);
    out.le(10, 2);
    out.le(flags, 2);
    out.le(method, 2);
    out.le(dosTime, 2);
    out.le(dosDate, 2);
    out.le(crc, 4);
    out.le(data.length, 4);
    out.le(size, 4);
    out.le(path.length, 2);
    out.le(extraBytes.length, 2);
    out.bytes(path);
    out.bytes(extraBytes);
    out.bytes(data);

    dir.le(0x02014b50, 4);
    dir.le(creator, 2);
    dir.le(10, 2);
    dir.le(flags, 2);
    dir.le(method, 2);
    dir.le(dosTime, 2);
    dir.le(dosDate, 2);
    dir.le(crc, 4);
    dir.le(data.length, 4);
    dir.le(size, 4);
    dir.le(path.length, 2);
    dir.le(extraBytes.length, 2);
    dir.le(0, 2); // comment
    dir.le(0, 2); // disk
    dir.le(text, 2);
    dir.le(attr, 4);
    dir.le(offset, 4);
    dir.bytes(path);
    dir.bytes(extraBytes);
  }
  const dirOffset = out.length;
  const central = dir.result();
  out.bytes(central);
  out.le(0x06054b50, 4);
  out.le(0, 2);
  out.le(0, 2);
  out.le(entries.length, 2);
  out.le(entries.length, 2);
  out.le(central.length, 4);
  out.le(dirOffset, 4);
  const comment = encoder.encode(commit);
  out.le(comment.length, 2);
  out.bytes(comment);
  return out.result();
}
