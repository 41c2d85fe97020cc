// The repository tree and blobs by id (lib/api/repositories.rb, Repositories::TreeFinder,
// Gitlab::Pagination::GitalyKeysetPager): offset pages of the whole listing, or keyset pages after
// the entry whose id is `page_token`, trees listed before blobs as Gitaly sorts them.
import { canReadCode, repoView, repositoryEnabled, resolveCommit } from '../repositories/index.js';
import { fromBase64, toBase64, utf8 } from '../../git/bytes.js';
import { isBinary } from '../../git/diff.js';
import type { RepositoryObjects, TreeEntry } from '../../git/objects.js';
import { entryAt } from '../../git/tree.js';
import { grapeError, messageError, notFound } from '../../core/errors.js';
import { pageTokenKeyset } from '../../http/pagination.js';
import { bool, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';

const READ = project(repositoryEnabled, canReadCode);

interface Listed {
  path: string;
  entry: TreeEntry;
}

/** `git ls-tree [-r -t]` under a tree: each tree before what it holds, names in git's order. */
async function listTree(repo: RepositoryObjects, tree: string, prefix: string, recursive: boolean, out: Listed[]): Promise<void> {
  for (const e of (await repo.readTree(tree)).values()) {
    const path = prefix + e.name;
    out.push({ path, entry: e });
    if (recursive && e.type === 'tree') await listTree(repo, e.oid, `${path}/`, true, out);
  }
}

const RANK: Record<string, number> = { tree: 0, blob: 1, commit: 2 };

/** Entities::TreeObject. */
const treeObject = ({ path, entry }: Listed) => ({
  id: entry.oid,
  name: entry.name,
  type: entry.type,
  path,
  mode: entry.mode === '40000' ? '040000' : entry.mode,
});

/** The blob `sha` names (a full or abbreviated id, or a revision and path, `main:README.md`), or null. */
async function findBlob(repo: RepositoryObjects, ctx: Parameters<typeof repoView>, sha: string): Promise<string | null> {
  const colon = sha.indexOf(':');
  if (colon > 0) {
    const commit = await resolveCommit(repo, repoView(...ctx), sha.slice(0, colon));
    if (!commit) return null;
    const e = await entryAt(repo, (await repo.readCommit(commit)).tree, sha.slice(colon + 1));
    return e && e.type === 'blob' ? e.oid : null;
  }
  let oid: string | null = null;
  if (/^[0-9a-f]{40}$/i.test(sha)) oid = repo.has(sha.toLowerCase()) ? sha.toLowerCase() : null;
  else if (/^[0-9a-f]{4,39}$/i.test(sha)) {
    const found = repo.findByPrefix(sha.toLowerCase());
    oid = found.length === 1 ? found[0]! : null;
  }
  return oid && (await repo.type(oid)) === 'blob' ? oid : null;
}

/**
 * Gitaly's page token: Base64 of `{"file_name": <path>}`, so that entries holding the same blob
 * (two empty files) are told apart. A bare object id, the older form, is still understood.
 */
const pageToken = (path: string) => toBase64(utf8(JSON.stringify({ file_name: path })));

function tokenPath(token: string): string | null {
  if (/^[0-9a-f]{40}$/.test(token)) return null;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(fromBase64(token))) as unknown;
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { file_name?: unknown }).file_name === 'string') return (parsed as { file_name: string }).file_name;
  } catch {
    // Not Gitaly's JSON token: an object id.
  }
  return null;
}

/**
 * Keyset pages of a tree: the entries after the one `page_token` names (by path, or by object
 * id in the older form; an empty token is the first page, one that names no entry is 400); the
 * next page is announced while entries remain.
 */
const TREE_KEYSET = pageTokenKeyset<Listed>({
  token: (l) => pageToken(l.path),
  start(all, token) {
    if (token === '') return 0;
    const byPath = tokenPath(token);
    const start = all.findIndex((l) => (byPath === null ? l.entry.oid === token : l.path === byPath)) + 1;
    if (start === 0) throw messageError(400, `400 Bad request - could not find starting OID: ${byPath ?? token}`);
    return start;
  },
  announce: 'remaining',
});

/** The blob a `:sha` names in the project's repository, and its bytes; 404 Blob Not Found otherwise. */
async function blobOf(ctx: Context<{ sha: string }>): Promise<{ oid: string; content: Uint8Array }> {
  const repo = ctx.env.git.repository(ctx.project.id);
  const oid = await findBlob(repo, [ctx.state, ctx.project], ctx.params.sha);
  if (!oid) throw notFound('Blob');
  return { oid, content: await repo.readBlob(oid) };
}

export const treeRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/tree',
    cacheable: true,
    scope: READ,
    paginated: { keyset: TREE_KEYSET },
    params: {
      ref: str(),
      path: str(),
      recursive: bool().default(false),
      pagination: str().values(['legacy', 'keyset', 'none']).default('legacy'),
      page_token: str(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (p.pagination === 'none' && !p.recursive) throw grapeError(400, 'pagination cannot be "none" unless "recursive" is true');
      const repo = ctx.env.git.repository(ctx.project.id);
      const view = repoView(ctx.state, ctx.project);
      const commit = await resolveCommit(repo, view, p.ref || 'HEAD');
      if (!commit) throw notFound('Tree');
      let tree = (await repo.readCommit(commit)).tree;
      const path = (p.path ?? '').replace(/^\/+|\/+$/g, '');
      if (path !== '') {
        const e = await entryAt(repo, tree, path);
        if (!e || e.type !== 'tree') throw notFound('invalid revision or path');
        tree = e.oid;
      }
      const listed: Listed[] = [];
      await listTree(repo, tree, path === '' ? '' : `${path}/`, p.recursive, listed);
      // Stable: within each kind, git's order.
      const all = listed.map((l, i) => ({ l, i })).sort((a, b) => RANK[a.l.entry.type]! - RANK[b.l.entry.type]! || a.i - b.i).map((x) => x.l);
      if (p.pagination === 'none') return json(all.map(treeObject));
      return json(ctx.paginate(all).map(treeObject));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/blobs/:sha/raw',
    cacheable: true,
    scope: READ,
    params: { sha: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const { content } = await blobOf(ctx);
      const binary = isBinary(content);
      return {
        status: 200,
        raw: content,
        contentType: binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
        headers: {
          'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
          Pragma: 'no-cache',
          Expires: 'Fri, 01 Jan 1990 00:00:00 GMT',
          'Content-Disposition': binary ? 'attachment' : 'inline',
          'X-Content-Type-Options': 'nosniff',
        },
      };
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/blobs/:sha',
    cacheable: true,
    scope: READ,
    params: { sha: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const { oid, content } = await blobOf(ctx);
      return json({ size: content.length, encoding: 'base64', content: toBase64(content), sha: oid });
    },
  }),
];
