// Git's pkt-line framing (gitprotocol-common): four hex digits of length, then the data; 0000 is
// a flush, 0001 a delimiter and 0002 the end of a response (protocol v2).
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const FLUSH = encoder.encode('0000');
export const DELIM = encoder.encode('0001');
/** The largest data a pkt-line carries (65520 bytes on the wire, less the length). */
export const MAX_PKT_DATA = 65516;

/** One pkt-line carrying `data` (a string is sent as UTF-8). */
export function pkt(data: string | Uint8Array): Uint8Array {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const out = new Uint8Array(bytes.length + 4);
  out.set(encoder.encode((bytes.length + 4).toString(16).padStart(4, '0')));
  out.set(bytes, 4);
  return out;
}

/** A frame read: its data, or a special packet. */
export type Packet = { kind: 'data'; data: Uint8Array } | { kind: 'flush' } | { kind: 'delim' } | { kind: 'end' };

/** A malformed pkt-line stream (the request is answered as git answers a protocol error). */
export class PktLineError extends Error {}

/** Reads pkt-lines from `bytes` from `offset`; returns the packets and where they stopped (at the first byte that is not a pkt-line, when `stopAtPack`). */
export function readPackets(bytes: Uint8Array, offset = 0, stopAfterFlush = false): { packets: Packet[]; end: number } {
  const packets: Packet[] = [];
  let at = offset;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw new PktLineError('truncated pkt-line length');
    const head = decoder.decode(bytes.subarray(at, at + 4));
    if (!/^[0-9a-f]{4}$/i.test(head)) throw new PktLineError(`bad pkt-line length '${head}'`);
    const len = parseInt(head, 16);
    if (len === 0) {
      packets.push({ kind: 'flush' });
      at += 4;
      if (stopAfterFlush) break;
      continue;
    }
    if (len === 1 || len === 2) {
      packets.push({ kind: len === 1 ? 'delim' : 'end' });
      at += 4;
      continue;
    }
    if (len < 4 || at + len > bytes.length) throw new PktLineError('bad pkt-line length');
    packets.push({ kind: 'data', data: bytes.subarray(at + 4, at + len) });
    at += len;
  }
  return { packets, end: at };
}

/** A data packet as text, without its trailing newline. */
export function text(p: Packet): string | null {
  if (p.kind !== 'data') return null;
  const s = decoder.decode(p.data);
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

/** Joins byte chunks into one array. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** `data` on a side-band channel (1: pack data, 2: progress, 3: a fatal error), in packets of at most `max` bytes. */
export function sideband(channel: 1 | 2 | 3, data: Uint8Array, max = MAX_PKT_DATA - 1): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += max) {
    const part = data.subarray(at, at + max);
    const framed = new Uint8Array(part.length + 1);
    framed[0] = channel;
    framed.set(part, 1);
    out.push(pkt(framed));
  }
  return out;
}

/**
 * `before`, then the stream `chunks` (of `length` bytes) on side-band 1 in packets of at most
 * `max` bytes, then `after`: in one array, the stream copied once.
 */
export function framed(before: readonly Uint8Array[], chunks: readonly Uint8Array[], length: number, after: readonly Uint8Array[], max = MAX_PKT_DATA - 1): Uint8Array {
  const packets = Math.ceil(length / max);
  let size = packets * 5 + length;
  for (const c of before) size += c.length;
  for (const c of after) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of before) {
    out.set(c, at);
    at += c.length;
  }
  let left = 0; // bytes left in the current packet
  let sent = 0;
  for (const c of chunks) {
    for (let from = 0; from < c.length; ) {
      if (left === 0) {
        const n = Math.min(max, length - sent);
        const head = (n + 5).toString(16).padStart(4, '0');
        for (let i = 0; i < 4; i++) out[at + i] = head.charCodeAt(i);
        out[at + 4] = 1;
        at += 5;
        left = n;
      }
      const take = Math.min(left, c.length - from);
      out.set(c.subarray(from, from + take), at);
      at += take;
      from += take;
      left -= take;
      sent += take;
    }
  }
  for (const c of after) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
