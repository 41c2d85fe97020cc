// An append-only file of records, each framed by its length and a CRC-32 of its bytes, flushed to
// the disk (fdatasync) before a write is answered. A process killed while appending leaves at
// most its last record torn: reading drops that one (and the file is cut back to the records
// before it, so the next append follows them). A record that fails its check and is followed by
// more is damage, not a kill: reading it is an error.
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { crc32 } from '../core/crc32.js';

const HEADER = 8;

/** One record with its frame, ready to append. */
export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length, true);
  view.setUint32(4, crc32(payload), true);
  out.set(payload, HEADER);
  return out;
}

export interface ReadLog {
  records: Uint8Array[];
  /** Bytes of whole records: where the next append goes. */
  valid: number;
  /** Bytes after them: a last record the process did not finish writing (dropped). */
  torn: number;
}

/** Thrown for a record that fails its check with more records after it. */
export class LogDamage extends Error {}

/** The records of a log's bytes; a torn last record is dropped, damage before the end is an error. */
export function parseLog(bytes: Uint8Array): ReadLog {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < HEADER) return { records, valid: at, torn: bytes.length - at };
    const length = view.getUint32(at, true);
    const end = at + HEADER + length;
    if (end > bytes.length) return { records, valid: at, torn: bytes.length - at };
    const payload = bytes.subarray(at + HEADER, end);
    if (crc32(payload) !== view.getUint32(at + 4, true)) {
      if (end === bytes.length) return { records, valid: at, torn: bytes.length - at };
      throw new LogDamage(`the record at byte ${at} fails its checksum and ${bytes.length - end} bytes follow it`);
    }
    records.push(payload);
    at = end;
  }
  return { records, valid: at, torn: 0 };
}

export function readLog(path: string): ReadLog {
  return parseLog(readFileSync(path));
}

/** A log open for appending, cut back to `valid` bytes first (a torn last record). */
export class AppendLog {
  #fd: number;
  size: number;

  constructor(
    readonly path: string,
    valid: number,
  ) {
    this.#fd = openSync(path, 'r+');
    if (fstatSync(this.#fd).size !== valid) {
      ftruncateSync(this.#fd, valid);
      fdatasyncSync(this.#fd);
    }
    this.size = valid;
  }

  /** Appends framed records and waits for the disk. */
  append(chunks: readonly Uint8Array[]): void {
    if (chunks.length === 0) return;
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const buffer = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      buffer.set(c, at);
      at += c.length;
    }
    let written = 0;
    while (written < total) written += writeSync(this.#fd, buffer, written, total - written, this.size + written);
    this.size += total;
    fdatasyncSync(this.#fd);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
