// Repository files as GitLab renders them (lib/api/files.rb `blob_data`, headers_helpers.rb):
// the metadata, also sent as `X-Gitlab-*` headers and, as the spec names them, `X-Service-*`.
import { toBase64 } from '../../git/bytes.js';
import { blameCommit, type CommitRef } from '../commits/index.js';

export interface FileFacts {
  path: string;
  size: number;
  contentSha256: string;
  /** The ref as the caller sent it. */
  ref: string;
  blobId: string;
  commitId: string;
  lastCommitId: string | null;
  executable: boolean;
}

export function fileMetadata(f: FileFacts) {
  return {
    file_name: f.path.slice(f.path.lastIndexOf('/') + 1),
    file_path: f.path,
    size: f.size,
    encoding: 'base64',
    content_sha256: f.contentSha256,
    ref: f.ref,
    blob_id: f.blobId,
    commit_id: f.commitId,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.executable,
  };
}

export function fileEntity(f: FileFacts, content: Uint8Array) {
  return { ...fileMetadata(f), content: toBase64(content) };
}

/** `set_http_headers`: `file_name` becomes `X-Gitlab-File-Name` (and `X-Service-File-Name`). */
export function fileHeaders(f: FileFacts): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileMetadata(f))) {
    const name = key.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('-');
    const text = value === null ? '' : String(value);
    out[`X-Gitlab-${name}`] = text;
    out[`X-Service-${name}`] = text;
  }
  return out;
}

/** Entities::BlameRange: consecutive lines from one commit. */
export function blameRange(commit: CommitRef, lines: string[]) {
  return { commit: blameCommit(commit), lines };
}
