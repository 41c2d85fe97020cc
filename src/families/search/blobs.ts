// ProjectSearchResults#blobs: the lines of the repository's files at a ref (the default branch
// unless given) that hold the query, as Gitaly's SearchFilesByContent finds them (`git grep
// --ignore-case --fixed-strings -I` with three lines of context either side, overlapping chunks
// joined), each chunk an Entities::Blob.
import { listFiles } from '../../git/tree.js';
import type { Project } from '../../store/state.js';
import { canReadCode, defaultBranchName, repoView, resolveCommit } from '../repositories/index.js';
import type { Context } from '../define.js';

const CONTEXT = 3;

export interface FoundBlob {
  basename: string;
  data: string;
  path: string;
  filename: string;
  id: null;
  ref: string;
  startline: number;
  project_id: number;
}

export async function findBlobs(ctx: Context<unknown>, project: Project, query: string, ref: string | undefined): Promise<FoundBlob[]> {
  const q = query.toLowerCase();
  if (q.trim() === '' || !canReadCode(ctx.state, ctx.user, project, ctx.now())) return [];
  const repo = ctx.env.git.repository(project.id);
  const view = repoView(ctx.state, project);
  const name = ref ?? defaultBranchName(project);
  const commit = await resolveCommit(repo, view, name);
  if (!commit) return [];
  const files = await listFiles(repo, (await repo.readCommit(commit)).tree);
  const out: FoundBlob[] = [];
  const decoder = new TextDecoder();
  for (const [path, entry] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (entry.type !== 'blob') continue;
    const bytes = await repo.readBlob(entry.oid);
    if (bytes.includes(0)) continue; // -I: binary files are not searched
    const lines = decoder.decode(bytes).split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const hits = lines.map((l, i) => (l.toLowerCase().includes(q) ? i : -1)).filter((i) => i >= 0);
    let chunk: [number, number] | null = null;
    const flush = () => {
      if (!chunk) return;
      const base = path.replace(/\.[^./]*$/, '');
      out.push({ basename: base, data: lines.slice(chunk[0], chunk[1] + 1).join('\n') + '\n', path, filename: path, id: null, ref: name, startline: chunk[0] + 1, project_id: project.id });
      chunk = null;
    };
    for (const i of hits) {
      const from = Math.max(0, i - CONTEXT);
      const to = Math.min(lines.length - 1, i + CONTEXT);
      if (chunk && from <= chunk[1] + 1) chunk[1] = to;
      else {
        flush();
        chunk = [from, to];
      }
    }
    flush();
  }
  return out;
}
