// A user's avatar (AvatarUploader on User#avatar): an image file given as `avatar` on create or
// update, kept as a blob in the users' avatar store and served at GitLab's upload path,
// `/uploads/-/system/user/avatar/:id/:filename`, to anyone (avatars are public).
import { validationFailed } from '../../core/errors.js';
import { str } from '../../http/params.js';
import type { Reply } from '../../http/route.js';
import type { User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { route, type Change, type Context } from '../define.js';

/** The object store that holds every user's avatar (a key no project or snippet has). */
export const USER_AVATARS_KEY = -(2 ** 41);
/** Avatarable's limit: 200 KiB. */
const MAX_AVATAR = 200 * 1024;
/** AvatarUploader#extension_allowlist. */
const IMAGES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tiff: 'image/tiff', ico: 'image/vnd.microsoft.icon', webp: 'image/webp' };

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

/** Stores an `avatar` parameter (a file part) and returns the change that gives it to the user; undefined when none was sent. */
export async function storeAvatar(ctx: Context<unknown>, file: unknown): Promise<((user: User) => Change<void>) | undefined> {
  if (file === undefined || file === null || file === '') return undefined;
  if (!(file instanceof Blob)) throw validationFailed({ avatar: ['is invalid'] });
  const filename = ((file as File).name || 'avatar').replace(/[^\w.-]/g, '_').slice(-255);
  if (!Object.hasOwn(IMAGES, extensionOf(filename))) {
    throw validationFailed({ avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico or webp'] });
  }
  if (file.size > MAX_AVATAR) throw validationFailed({ avatar: ['is too big (should be at most 200 KiB)'] });
  const oid = await ctx.env.git.repository(USER_AVATARS_KEY).writeBlob(new Uint8Array(await file.arrayBuffer()));
  return (user) => (draft) => {
    const u = tget(draft.users, user.id);
    if (u) u.avatar = { oid, filename };
  };
}

const notFoundPage = (): Reply => ({ status: 404, raw: '', contentType: 'text/html; charset=utf-8' });

export const avatarRoutes = [
  route({
    method: 'GET', surface: 'web', path: '/uploads/-/system/user/avatar/:user_id/:filename',
    params: { user_id: str().required(), filename: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const id = ctx.params.user_id;
      const user = /^\d{1,15}$/.test(id) ? tget(ctx.state.users, Number(id)) : undefined;
      if (!user?.avatar || user.avatar.filename !== ctx.params.filename) return notFoundPage();
      const bytes = await ctx.env.git.repository(USER_AVATARS_KEY).readBlob(user.avatar.oid);
      return { status: 200, raw: bytes, contentType: IMAGES[extensionOf(user.avatar.filename)]!, headers: { 'Cache-Control': 'max-age=0, private, must-revalidate', 'X-Content-Type-Options': 'nosniff' } };
    },
  }),
];
