// Diff notes follow a merge request's later pushes (Discussions::UpdateDiffPositionService with
// Gitlab::Diff::PositionTracer): a note on a line of the new file the push leaves alone moves to
// that line's number in the new version and to the new diff's commits; a note on a line the
// push changed or removed keeps its position, outdated. Notes on an old line only, on an image
// or on a file keep theirs.
import { splitLines, matchLines } from '../../git/diff.js';
import { mergeBase } from '../../git/merge-base.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { entryAt } from '../../git/tree.js';
import { noteKey, noteList, putNote, type Note } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';
import { openMergeRequestsOn } from '../merge-requests/index.js';
import { branchTip, objectsOf, refsOf } from '../repositories/index.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';

async function linesAt(repo: RepositoryObjects, commit: string, path: string): Promise<string[] | null> {
  const entry = await entryAt(repo, (await repo.readCommit(commit)).tree, path);
  if (!entry || entry.type !== 'blob') return null;
  return splitLines(await repo.readBlob(entry.oid));
}

export async function traceDiffNotes(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  if (push.refType !== 'branch' || push.after === null) return;
  const project = tget(ctx.state.projects, push.projectId);
  if (!project) return;
  const head = push.after;
  const mrs = openMergeRequestsOn(ctx.state, project.id, 'source', push.ref);
  if (mrs.length === 0) return;
  const repo = objectsOf(ctx, project);
  const refs = refsOf(ctx.state, project.id);
  const moves: { key: string; note: Note }[] = [];
  for (const mr of mrs) {
    const key = noteKey('MergeRequest', mr.id);
    const notes = noteList(ctx.state, key).filter((n) => n.diff?.position.position_type === 'text' && typeof n.diff.position.new_line === 'number' && n.diff.position.head_sha !== head);
    if (notes.length === 0) continue;
    const start = branchTip(refs, mr.targetBranch);
    if (!start) continue;
    const base = (await mergeBase(repo, head, [start])) ?? start;
    for (const note of notes) {
      const p = note.diff!.position;
      const path = p.new_path ?? p.old_path;
      if (!path) continue;
      const before = await linesAt(repo, p.head_sha, path);
      const after = await linesAt(repo, head, path);
      if (!before || !after) continue;
      // The new file's line that is the old one unchanged, if the push left it alone.
      const map = matchLines(before, after);
      const line = p.new_line! - 1;
      const to = map.indexOf(line);
      if (to < 0) continue;
      const position = { ...p, base_sha: base, start_sha: start, head_sha: head, new_line: to + 1 };
      moves.push({ key, note: { ...note, diff: { ...note.diff!, position } } });
    }
  }
  if (moves.length === 0) return;
  ctx.update((draft) => {
    for (const m of moves) putNote(draft as State, m.key, m.note);
  });
}
