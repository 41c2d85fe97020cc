// GET /projects/:id/snapshot (lib/api/project_snapshots.rb, Gitaly's GetSnapshot): a tar of the
// bare repository as it stands, for administrators (`read_all_resources`): HEAD, config, every
// object reachable from its refs as a loose object, and the refs. `wiki=true` is the wiki's,
// which the emulator keeps elsewhere: 404 here.
import { tarArchive } from '../../git/archive-tar.js';
import { reachableObjects } from '../../git/export.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { notFound } from '../../core/errors.js';
import { bool } from '../../http/params.js';
import type { Reply } from '../../http/route.js';
import { project, route } from '../define.js';
import { branchesRecord, tagsRecord } from './refs.js';
import { defaultBranchName, refsOf } from './rules.js';

const encoder = new TextEncoder();
const DIR = 0o40000;
const FILE = 0o100644;

/** The tar Gitaly's GetSnapshot streams: the repository's directory, objects loose. */
async function snapshotTar(repo: RepositoryObjects, head: string, branches: Record<string, string>, tags: Record<string, { target: string }>, time: number): Promise<Uint8Array> {
  const entries: { path: string; mode: number; oid: string; content: Uint8Array | null }[] = [];
  const dirs = new Set<string>();
  const dir = (path: string) => {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${parts.slice(0, i).join('/')}/`;
      if (!dirs.has(d)) {
        dirs.add(d);
        entries.push({ path: d, mode: DIR, oid: '', content: null });
      }
    }
  };
  const file = (path: string, content: Uint8Array | string) => {
    dir(path);
    entries.push({ path, mode: FILE, oid: '', content: typeof content === 'string' ? encoder.encode(content) : content });
  };
  file('HEAD', `ref: refs/heads/${head}\n`);
  file('config', '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
  const roots = [...Object.values(branches), ...Object.values(tags).map((t) => t.target)];
  for (const oid of [...(await reachableObjects(repo, roots))].sort()) {
    const loose = repo.looseFile(oid);
    if (!loose) continue; // the empty tree, which git knows without a file
    file(`objects/${oid.slice(0, 2)}/${oid.slice(2)}`, loose);
  }
  for (const [name, sha] of Object.entries(branches)) file(`refs/heads/${name}`, `${sha}\n`);
  for (const [name, t] of Object.entries(tags)) file(`refs/tags/${name}`, `${t.target}\n`);
  return tarArchive(entries, '', time);
}

export const snapshotRoutes = [
  route({
    method: 'GET', path: '/projects/:id/snapshot', auth: 'admin', scope: project(), params: { wiki: bool().default(false) },
    handler: async (ctx): Promise<Reply> => {
      if (ctx.params.wiki) throw notFound();
      const refs = refsOf(ctx.state, ctx.project.id);
      const tar = await snapshotTar(ctx.env.git.repository(ctx.project.id), defaultBranchName(ctx.project), branchesRecord(refs), tagsRecord(refs), Math.floor(ctx.now() / 1000));
      const name = `${ctx.project.path}-${new Date(ctx.now()).toISOString().replace(/[-:]/g, '').slice(0, 15)}.tar`;
      return { status: 200, raw: tar, contentType: 'application/x-tar', headers: { 'Content-Disposition': `attachment; filename="${name}"` } };
    },
  }),
];
