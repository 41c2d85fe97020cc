// Avatars of projects, groups and topics (AvatarUploader, Avatarable): an image of a known
// format up to 200 KiB, kept in the object store and served back at GitLab's paths
// (`/uploads/-/system/<model>/avatar/<id>/<filename>`) to whoever may see its owner.
import { validationFailed } from '../../core/errors.js';
import type { Reply } from '../../http/route.js';
import { str } from '../../http/params.js';
import { canReadGroup, canReadProject } from '../../policy/access.js';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import { defineFamily, route, type Change, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export type AvatarOwner = 'project' | 'group' | 'topic';

export interface Avatar {
  oid: string;
  filename: string;
  size: number;
}

export interface AvatarsSlice {
  /** `<owner kind>:<id>` -> its avatar. */
  avatars: Table<Avatar>;
}

declare module '../world.js' {
  interface Slices extends AvatarsSlice {}
}

/** Where avatars' bytes live in the object store: a key of their own, below projects', group wikis' and snippets'. */
const AVATAR_STORE_KEY = -(2 ** 42);
/** Avatarable: ALLOWED_IMAGE_SCALER_WIDTHS aside, the formats and the size it takes. */
const FORMATS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'] as const;
const MAX_BYTES = 200 * 1024;
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tiff: 'image/tiff', ico: 'image/vnd.microsoft.icon', webp: 'image/webp' };
/** The path segment each owner's avatars are served under. */
const MODEL: Record<AvatarOwner, string> = { project: 'project', group: 'group', topic: 'projects/topic' };

const keyOf = (kind: AvatarOwner, id: number) => `${kind}:${id}`;

export const avatarOf = (state: State, kind: AvatarOwner, id: number): Avatar | undefined => tget(state.avatars, keyOf(kind, id));

/** `avatar_url(only_path: false)`: the served path, or null without an avatar. */
export function avatarUrl(state: State, webBase: string, kind: AvatarOwner, id: number): string | null {
  const a = avatarOf(state, kind, id);
  return a ? `${webBase}/uploads/-/system/${MODEL[kind]}/avatar/${id}/${encodeURIComponent(a.filename)}` : null;
}

/** A file given as `avatar`: an uploaded file, or `''`/null to remove the avatar (undefined when not given). */
export type AvatarParam = Blob | '' | null | undefined;

/**
 * Checks and stores an uploaded avatar's bytes (the request's objects, kept if it succeeds),
 * and returns the change that makes it the owner's; `''` or null removes the avatar.
 */
export async function avatarChange(ctx: Context<unknown>, kind: AvatarOwner, id: number, given: unknown): Promise<Change | undefined> {
  if (given === undefined) return undefined;
  if (given === '' || given === null) return (draft) => void tdel((draft as State).avatars, keyOf(kind, id));
  if (!(given instanceof Blob)) throw validationFailed({ avatar: ['must be a file'] });
  const filename = ((given as File).name || 'avatar').replace(/[^\w.-]/g, '_');
  const ext = filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!(FORMATS as readonly string[]).includes(ext))
    throw validationFailed({ avatar: [`file format is not supported. Please try one of the following supported formats: ${FORMATS.join(', ')}`] });
  if (given.size > MAX_BYTES) throw validationFailed({ avatar: ['is too big (should be at most 200 KiB)'] });
  const bytes = new Uint8Array(await given.arrayBuffer());
  const oid = await ctx.env.git.repository(AVATAR_STORE_KEY).writeBlob(bytes);
  const avatar: Avatar = { oid, filename, size: bytes.length };
  return (draft) => void tset((draft as State).avatars, keyOf(kind, id), avatar);
}

export const forgetAvatar = (draft: State, kind: AvatarOwner, id: number): void => void tdel(draft.avatars, keyOf(kind, id));

const webNotFound = (): Reply => ({ status: 404, raw: '', contentType: 'text/html; charset=utf-8' });

/** UploadsController#show for an avatar: the image, to whoever may read its owner; else the 404 page. */
async function serve(ctx: Context<{ id: string; filename: string }>, kind: AvatarOwner): Promise<Reply> {
  if (!/^\d+$/.test(ctx.params.id)) return webNotFound();
  const id = Number(ctx.params.id);
  const now = ctx.now();
  if (kind === 'project') {
    const p = tget(ctx.state.projects, id);
    if (!p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, now)) return webNotFound();
  } else if (kind === 'group') {
    const g = tget(ctx.state.namespaces, id);
    if (!g || g.kind !== 'group' || !canReadGroup(ctx.state, ctx.user, g, now)) return webNotFound();
  }
  const a = avatarOf(ctx.state, kind, id);
  if (!a || a.filename !== ctx.params.filename) return webNotFound();
  const ext = a.filename.slice(a.filename.lastIndexOf('.') + 1).toLowerCase();
  return {
    status: 200,
    raw: await ctx.env.git.repository(AVATAR_STORE_KEY).readBlob(a.oid),
    contentType: TYPES[ext] ?? 'application/octet-stream',
    headers: { 'Content-Disposition': `inline; filename="${a.filename}"`, 'Cache-Control': 'max-age=0, private, must-revalidate', 'X-Content-Type-Options': 'nosniff' },
  };
}

const PARAMS = { id: str().required(), filename: str().required() };

export const avatars: Family<AvatarsSlice> = defineFamily({
  name: 'avatars',
  state: () => ({ avatars: emptyTable() }),
  routes: (['project', 'group', 'topic'] as const).map((kind) =>
    route({ method: 'GET', surface: 'web', path: `/uploads/-/system/${MODEL[kind]}/avatar/:id/:filename`, params: PARAMS, handler: (ctx) => serve(ctx, kind) }),
  ),
  forget: {
    project: (draft, id) => forgetAvatar(draft as State, 'project', id),
    group: (draft, id) => forgetAvatar(draft as State, 'group', id),
  },
});
