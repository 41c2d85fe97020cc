// Artifacts archives as a runner uploads them: a zip of the job's files (fflate), and the
// metadata file Workhorse writes beside it (gzip of length-prefixed strings: the version, the
// errors as JSON, then each entry's path and its JSON metadata), which `artifacts/tree` and
// single-file downloads read.
import { fflate } from '../../git/fflate.js';
import type { ArtifactEntry } from './records.js';

const VERSION = 'GitLab Build Artifacts Metadata 0.0.2\n';
const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;

/** A file map (`{ 'dist/app.js': 'text' | bytes }`) as a zip and its metadata. */
export function buildArchive(files: Readonly<Record<string, string | Uint8Array>>, mtime: number): { archive: Uint8Array; metadata: Uint8Array; entries: ArtifactEntry[] } {
  const { strToU8, Zip, ZipDeflate } = fflate();
  // fflate's streaming Zip takes each name as a string: `__proto__` or `constructor` are names like any other.
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  const entries = new Map<string, ArtifactEntry>();
  for (const [rawPath, content] of Object.entries(files)) {
    const path = rawPath.replace(/^\/+/, '');
    const shown = rawPath.length > 100 ? `${rawPath.slice(0, 100)}...` : rawPath;
    if (path === '' || path.endsWith('/') || path.includes('\0') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new RangeError(`artifact path '${shown}' is not a file path`);
    }
    // A zip entry's name has a 16-bit length.
    if (strToU8(path).length > 0xffff) throw new RangeError(`artifact path '${shown}' is longer than a zip entry's name may be (65,535 bytes)`);
    const bytes = typeof content === 'string' ? strToU8(content) : content;
    if (entries.has(path)) throw new RangeError(`artifact path '${rawPath}' is given twice`);
    const file = new ZipDeflate(path, { level: 6 });
    file.mtime = new Date(mtime);
    zip.add(file);
    file.push(bytes, true);
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (!entries.has(dir)) entries.set(dir, { path: dir, size: 0, mode: DIR_MODE, crc: 0 });
    }
    entries.set(path, { path, size: bytes.length, mode: FILE_MODE, crc: crc32(bytes) });
  }
  zip.end();
  const archive = concat(chunks);
  const list = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { archive, metadata: metadataFile(list, mtime), entries: list };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

function metadataFile(entries: readonly ArtifactEntry[], mtime: number): Uint8Array {
  const { strToU8, gzipSync } = fflate();
  const parts: Uint8Array[] = [];
  const put = (s: string) => {
    const bytes = strToU8(s);
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, bytes.length);
    parts.push(len, bytes);
  };
  put(VERSION);
  put('{}');
  const modified = new Date(mtime).toISOString();
  for (const e of entries) put(e.path), put(JSON.stringify({ modified, mode: e.mode.toString(8), crc: e.crc, size: e.size, zipped: e.size }));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return gzipSync(out, { mtime });
}

/** Files read out of each archive lately (archives never change: they are replaced whole). */
const EXTRACTED = new WeakMap<Uint8Array, Map<string, Uint8Array | undefined>>();
const EXTRACTED_PER_ARCHIVE = 8;

/** One file out of an archive, or undefined when it holds none at that path. */
export function extractFile(archive: Uint8Array, path: string): Uint8Array | undefined {
  const { Unzip, UnzipInflate } = fflate();
  let seen = EXTRACTED.get(archive);
  if (seen?.has(path)) return seen.get(path);
  let found: Uint8Array | undefined;
  const parts: Uint8Array[] = [];
  const unzip = new Unzip((file) => {
    if (file.name !== path || found) return;
    file.ondata = (err, chunk, final) => {
      if (err) throw err;
      parts.push(chunk);
      if (final) found = concat(parts);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.push(archive, true);
  if (!seen) EXTRACTED.set(archive, (seen = new Map()));
  if (seen.size >= EXTRACTED_PER_ARCHIVE) seen.delete(seen.keys().next().value!);
  seen.set(path, found);
  return found;
}

let CRC_TABLE: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Gitlab::Ci::Build::Artifacts::Path#valid?: no NUL byte, not absolute, no `..` segment, and
 * valid UTF-8 (the router already refused undecodable paths).
 */
export function validArtifactPath(path: string): boolean {
  if (path.includes('\0')) return false;
  if (path.startsWith('/')) return false;
  return !path.split('/').includes('..');
}

const UNITS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400,
  w: 604800, wk: 604800, wks: 604800, week: 604800, weeks: 604800,
  mo: 2592000, mos: 2592000, month: 2592000, months: 2592000,
  y: 31536000, yr: 31536000, yrs: 31536000, year: 31536000, years: 31536000,
};

/**
 * `expire_in` in GitLab's duration words (ChronicDuration): `1 week`, `3 days 4 hrs`, `2h30m`,
 * `42` (seconds); `never` is null. Milliseconds; throws a RangeError on words it cannot read.
 */
export function parseExpireIn(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === 'never') return null;
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const words = t.replace(/\band\b|,/g, ' ');
  let total = 0;
  let matched = '';
  for (const m of words.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
    const unit = UNITS[m[2]!];
    if (unit === undefined) throw new RangeError(`expire_in '${text}' has an unknown unit '${m[2]}'`);
    total += Number(m[1]) * unit;
    matched += m[0];
  }
  if (matched.replace(/\s/g, '') !== words.replace(/\s/g, '') || total <= 0) throw new RangeError(`expire_in '${text}' is not a duration such as '1 week' or '3 days 4 hrs'`);
  return Math.round(total * 1000);
}
