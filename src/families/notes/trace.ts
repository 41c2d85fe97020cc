// Diff notes follow a merge request's later pushes (Discussions::UpdateDiffPositionService with
// Gitlab::Diff::PositionTracer), for the threads on the diff the push replaced (Discussion#active?):
// a thread on a line of the new file the push leaves alone moves to that line's number in the new
// version and to the new diff's commits; a thread on a line the push changed or removed keeps its
// position, outdated, and the pusher's system note in it says so
// (SystemNotes::MergeRequestsService#diff_discussion_outdated: `changed this line in [version N of
// the diff](…)`, the link to the new version against the old head, at the line's code in the
// push's diff); where the project resolves outdated threads, it is resolved. Notes on an old line
// only, on an image or on a file keep theirs.
import { splitLines, matchLines } from '../../git/diff.js';
import { mergeBase } from '../../git/merge-base.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { entryAt } from '../../git/tree.js';
import { projectFullPath } from '../../policy/paths.js';
import { addNote, discussionIdOf, isResolvable, noteKey, noteList, putNote, type Note } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';
import { openMergeRequestsOn } from '../merge-requests/index.js';
import { branchTip, objectsOf, refsOf } from '../repositories/index.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { lineCode } from './diff-position.js';

async function linesAt(repo: RepositoryObjects, commit: string, path: string): Promise<string[] | null> {
  const entry = await entryAt(repo, (await repo.readCommit(commit)).tree, path);
  if (!entry || entry.type !== 'blob') return null;
  return splitLines(await repo.readBlob(entry.oid));
}

export async function traceDiffNotes(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  if (push.refType !== 'branch' || push.after === null || push.before === null) return;
  const project = tget(ctx.state.projects, push.projectId);
  if (!project) return;
  const head = push.after;
  const previous = push.before;
  const mrs = openMergeRequestsOn(ctx.state, project.id, 'source', push.ref);
  if (mrs.length === 0) return;
  const repo = objectsOf(ctx, project);
  const refs = refsOf(ctx.state, project.id);
  const moves: { key: string; note: Note }[] = [];
  const outdated: { key: string; notes: Note[]; body: string }[] = [];
  const user = ctx.user;
  const path = projectFullPath(ctx.state, project);
  for (const mr of mrs) {
    const key = noteKey('MergeRequest', mr.id);
    // The threads on the diff this push replaced: their notes share the first one's position.
    const notes = noteList(ctx.state, key).filter((n) => n.diff?.position.position_type === 'text' && typeof n.diff.position.new_line === 'number' && n.diff.position.head_sha === previous);
    if (notes.length === 0) continue;
    const start = branchTip(refs, mr.targetBranch);
    if (!start) continue;
    const base = (await mergeBase(repo, head, [start])) ?? start;
    const threads = new Map<string, Note[]>();
    for (const note of notes) {
      const id = discussionIdOf(note);
      threads.set(id, [...(threads.get(id) ?? []), note]);
    }
    for (const thread of threads.values()) {
      const p = thread[0]!.diff!.position;
      const file = p.new_path ?? p.old_path;
      if (!file) continue;
      const before = await linesAt(repo, p.head_sha, file);
      const after = await linesAt(repo, head, file);
      if (!before || !after) continue;
      // The new file's line that is the old one unchanged, if the push left it alone.
      const to = matchLines(before, after).indexOf(p.new_line! - 1);
      if (to >= 0) {
        const position = { ...p, base_sha: base, start_sha: start, head_sha: head, new_line: to + 1 };
        for (const note of thread) moves.push({ key, note: { ...note, diff: { ...note.diff!, position } } });
        continue;
      }
      // Outdated: the line as the push's diff removed it (the tracer's change position).
      if (!user) continue;
      const code = await lineCode(repo, { base_sha: previous, head_sha: head, old_line: p.new_line!, new_line: undefined }, file);
      const version = mr.diffVersion;
      const body = version
        ? `changed this line in [version ${version.count} of the diff](/${path}/-/merge_requests/${mr.iid}/diffs?diff_id=${version.id}&start_sha=${previous}${code ? `#${code}` : ''})`
        : 'changed this line in version 1 of the diff';
      outdated.push({ key, notes: thread, body });
    }
  }
  if (moves.length === 0 && outdated.length === 0) return;
  const now = ctx.now();
  const resolve = project.settings['resolve_outdated_diff_discussions'] === true;
  ctx.update((draft) => {
    for (const m of moves) putNote(draft as State, m.key, m.note);
    for (const o of outdated) {
      const first = o.notes[0]!;
      if (resolve) {
        for (const note of o.notes) if (isResolvable(note) && !note.resolvedAt) putNote(draft as State, o.key, { ...note, resolvedAt: now, resolvedById: user!.id });
      }
      // Discussion#reply_attributes: the thread's type, noteable, discussion and position.
      addNote(draft as State, o.key, {
        noteableType: first.noteableType, noteableId: first.noteableId, commitId: null, projectId: first.projectId, authorId: user!.id, body: o.body,
        system: true, internal: false, createdAt: now, updatedAt: now, type: 'DiffNote', discussionId: discussionIdOf(first), diff: first.diff!,
      });
    }
  });
}
