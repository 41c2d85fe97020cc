// How an artifact download answers, as Workhorse sends it: the archive as an attachment, or one
// file out of it. Shared by the API routes and the signed "CDN" URLs.
import { badRequest, notFound } from '../../core/errors.js';
import type { Reply } from '../../http/route.js';
import { extractFile, validArtifactPath } from './archive.js';
import type { JobArtifacts } from './records.js';

const FILENAME = 'artifacts.zip';

const disposition = (name: string) => `attachment; filename="${name.replace(/"/g, '%22')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** present_artifacts_file!: the archive as an attachment, or 404 when there is none. */
export function archiveReply(a: JobArtifacts | undefined): Reply {
  if (!a) throw notFound();
  return {
    status: 200,
    raw: a.archive,
    // The archive never changes (it is replaced whole): its ETag needs no hash of its bytes.
    etag: `W/"artifacts-${a.id}"`,
    contentType: 'application/octet-stream',
    headers: { 'Content-Disposition': disposition(FILENAME), 'Content-Transfer-Encoding': 'binary' },
  };
}

const TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8', log: 'text/plain; charset=utf-8', md: 'text/markdown; charset=utf-8', json: 'application/json', xml: 'text/xml; charset=utf-8',
  html: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg',
  jpeg: 'image/jpeg', svg: 'image/svg+xml', pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip',
};

const isText = (bytes: Uint8Array): boolean => {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 8192));
    return true;
  } catch {
    return false;
  }
};

/**
 * Workhorse's artifacts-entry: one file streamed out of the archive. By job id its type follows
 * the extension, as an attachment; by ref (`Detect-Content-Type`) text is `text/plain`.
 */
export function entryReply(a: JobArtifacts | undefined, path: string, detect: boolean): Reply {
  if (!a) throw notFound();
  if (!validArtifactPath(path)) throw badRequest();
  const bytes = extractFile(a.archive, path);
  if (!bytes) throw notFound();
  const name = path.split('/').pop()!;
  const entry = a.entries.find((e) => e.path === path);
  const etag = `W/"artifacts-${a.id}-${(entry?.crc ?? 0).toString(36)}-${bytes.length}"`;
  const ext = name.includes('.') ? name.split('.').pop()!.toLowerCase() : '';
  if (detect) return { status: 200, raw: bytes, etag, contentType: isText(bytes) ? 'text/plain; charset=utf-8' : (TYPES[ext] ?? 'application/octet-stream') };
  return { status: 200, raw: bytes, etag, contentType: TYPES[ext] ?? 'application/octet-stream', headers: { 'Content-Disposition': disposition(name) } };
}

