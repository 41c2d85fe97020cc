// Gitlab::LfsToken: what the LFS batch API hands out for the transfers instead of the caller's own
// credentials. A JSON web token (HS256) naming the user and the project, valid for two hours on
// the emulator's clock, sent as HTTP Basic `<username>:<token>`; git and git-lfs may use it for
// that project's repository like a token with read and write access (Gitlab::Auth#lfs_token_check,
// read_write_project_authentication_abilities). It is stateless, as GitLab's: the signature is
// checked, nothing is stored. A blocked user's tokens stop working.
import { fromBase64, toBase64, utf8 } from '../../git/bytes.js';
import { hmacSha256 } from '../../git/sha256.js';
import type { User } from '../../store/state.js';

/** Gitlab::LfsToken::DEFAULT_EXPIRE_TIME, in seconds. */
export const LFS_TOKEN_EXPIRY = 7200;

const base64url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64url = (text: string) => fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));

/** The key of a user's tokens (GitLab's mixes the user id into the instance's secret). */
const secretOf = (user: User) => utf8(`${user.id}:${user.username}:gitlab-emulator-lfs-token-secret`);

const containerGid = (projectId: number) => `gid://gitlab/Project/${projectId}`;

function sign(user: User, body: string): string {
  return base64url(hmacSha256(secretOf(user), utf8(body)));
}

/** A token for `user` on the project `projectId`, issued at `now` (ms), as JSONWebToken::HMACToken encodes it. */
export function lfsToken(user: User, projectId: number, now: number): string {
  const iat = Math.floor(now / 1000);
  const header = base64url(utf8(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  // jti is a random uuid in GitLab; here one derived from the rest, so that a world replays the same.
  const seed = hmacSha256(secretOf(user), utf8(`${projectId}:${iat}`));
  const hex = Array.from(seed.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  const jti = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  const payload = base64url(utf8(JSON.stringify({ data: { actor: user.username, container_gid: containerGid(projectId) }, jti, iat, nbf: iat - 5, exp: iat + LFS_TOKEN_EXPIRY })));
  return `${header}.${payload}.${sign(user, `${header}.${payload}`)}`;
}

/** The `Authorization` header the batch API hands out (LfsToken#basic_encoding). */
export function lfsAuthorization(user: User, projectId: number, now: number): string {
  return `Basic ${toBase64(utf8(`${user.username}:${lfsToken(user, projectId, now)}`))}`;
}

/** Whether `token` looks like a JSON web token (three dot-separated Base64url parts). */
export const looksLikeLfsToken = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * LfsToken#token_valid?: signed for `user`, naming `user`, not expired at `now`, and for the
 * project asked for (a token naming no project, or a request naming none, passes that check).
 */
export function lfsTokenValid(user: User, token: string, projectId: number | undefined, now: number): boolean {
  if (user.state !== 'active' || !looksLikeLfsToken(token)) return false;
  const [header, payload, signature] = token.split('.') as [string, string, string];
  if (sign(user, `${header}.${payload}`) !== signature) return false;
  let claims: { data?: { actor?: unknown; container_gid?: unknown }; exp?: unknown; nbf?: unknown };
  try {
    claims = JSON.parse(new TextDecoder().decode(fromBase64url(payload))) as typeof claims;
  } catch {
    return false;
  }
  const seconds = now / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= seconds) return false;
  if (typeof claims.nbf === 'number' && claims.nbf > seconds) return false;
  if (claims.data?.actor !== user.username) return false;
  const container = claims.data.container_gid;
  return container === undefined || container === null || projectId === undefined || container === containerGid(projectId);
}
