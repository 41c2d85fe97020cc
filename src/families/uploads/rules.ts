// Uploads::CreateService and FileUploader: the file name sanitised, a secret drawn from the
// world's generator, the content stored; `markdown` embeds images and links anything else.
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS, randomHex, sequences, type Project, type User } from '../../store/state.js';
import { pdel, pget, pset } from '../../store/table.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import type { Upload } from './records.js';

export const ids = sequences(['upload']);

/** ProjectPolicy upload_file: members of the project. */
export function canUploadFile(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.guest, now);
}

/** CarrierWave's sanitize_regexp: anything but word characters, `.`, `-` and `+` becomes `_`. */
export function sanitizeFilename(name: string): string {
  const base = name.replace(/^.*[\\/]/, '');
  const clean = base.replace(/[^\p{L}\p{N}_.\-+]/gu, '_');
  return clean === '' || /^\.+$/.test(clean) ? 'file' : clean;
}

const IMAGE = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg)$/i;
const VIDEO = /\.(mp4|m4v|mov|webm|ogv)$/i;
const AUDIO = /\.(mp3|oga|ogg|spx|wav)$/i;

/**
 * Gitlab::FileMarkdownLinkBuilder: the name is the file's without its extension for media, the
 * whole file name otherwise (`alt`); `![name](url)` for media, `[name](url)` otherwise.
 */
export function uploadMarkdown(filename: string, url: string): { alt: string; markdown: string } {
  const media = IMAGE.test(filename) || VIDEO.test(filename) || AUDIO.test(filename);
  const alt = media ? filename.replace(/\.[^.]*$/, '') : filename;
  const link = `[${alt}](${url})`; // a stored name has no `]` (the name is sanitized)
  return { alt, markdown: media ? `!${link}` : link };
}

export function createUpload(project: Project, user: User, filename: string, oid: string, size: number, now: number): Change<Upload> {
  return (draft) => {
    const d = draft as State;
    const upload: Upload = { id: ids.next(d, 'upload'), projectId: project.id, secret: randomHex(d, 32), filename, oid, size, uploadedById: user.id, createdAt: now };
    pset(d.uploads, project.id, upload.id, upload);
    pset(d.uploadPaths, project.id, `${upload.secret}/${upload.filename}`, upload.id);
    return upload;
  };
}

export function findUpload(state: State, projectId: number, secret: string, filename: string): Upload | undefined {
  const id = pget(state.uploadPaths, projectId, `${secret}/${filename}`);
  return id === undefined ? undefined : pget(state.uploads, projectId, id);
}

/** ProjectPolicy admin_upload: maintainers list and delete a project's uploads. */
export function canAdminUploads(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

export function deleteUpload(upload: Upload): Change<void> {
  return (draft) => {
    const d = draft as State;
    pdel(d.uploads, upload.projectId, upload.id);
    pdel(d.uploadPaths, upload.projectId, `${upload.secret}/${upload.filename}`);
  };
}
