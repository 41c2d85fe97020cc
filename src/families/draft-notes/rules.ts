// DraftNotes::CreateService, DestroyService and PublishService, with DraftNote's validations:
// each decides against the world first. A draft is seen by its author only; publishing makes
// each draft a note through the notes family's own service (so the note's events, webhooks and
// todos follow as for any note), then the drafts are gone.
import { ApiError } from '../../core/errors.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { findDiscussion, isResolvable, type Discussion, type Note } from '../../store/notes.js';
import { sequences, type Project, type User } from '../../store/state.js';
import { pdel, pset, pvalues, tdel } from '../../store/table.js';
import type { Change, Context } from '../define.js';
import { recordReview, type MergeRequest } from '../merge-requests/index.js';
import {
  canCreateNote, canResolve, checkDiffPosition, createNote, diffPositionOf, findNoteable, interpretNoteBody, lineCode, resolveNotes,
  type Noteable, type PositionInput,
} from '../notes/index.js';
import type { State } from '../world.js';
import { cannotResolveThread, commitMismatch, publishRefused, replyDrafted, replyToSystemNote, threadNotFound } from './errors.js';
import type { DraftNote } from './records.js';

const ids = sequences(['draft_note']);

/** The merge request as the notes family addresses it (what its services take). */
export function noteableOf(state: State, user: User, project: Project, mr: MergeRequest, now: number): Noteable {
  return findNoteable(state, user, 'merge_requests', { project }, mr.iid, now);
}

/** `merge_request.draft_notes.authored_by(current_user)`, oldest first. */
export function draftsOf(state: State, mr: MergeRequest, user: User): DraftNote[] {
  const all = [...pvalues(state.draftNotes, mr.projectId)];
  return all.filter((d) => d.mergeRequestId === mr.id && d.authorId === user.id).sort((a, b) => a.id - b.id);
}

/** One of the caller's drafts on the merge request, or undefined (another user's is not found either). */
export function findDraft(state: State, mr: MergeRequest, user: User, id: number): DraftNote | undefined {
  return draftsOf(state, mr, user).find((d) => d.id === id);
}

/** Discussion#can_resolve?: a thread with a resolvable note, and a caller who may resolve it. */
function canResolveThread(state: State, user: User, n: Noteable, d: Discussion, now: number): boolean {
  return d.notes.some(isResolvable) && canResolve(state, user, n, now);
}

/**
 * A draft's position with its line's code. DraftNote does not check it against the diff (a
 * position off the diff is kept, with no line code): publishing it makes no note, as
 * Notes::CreateService saves none there.
 */
async function positioned(repo: RepositoryObjects, input: PositionInput): Promise<Pick<DraftNote, 'position' | 'lineCode'>> {
  const position = diffPositionOf(input);
  const path = position.new_path || position.old_path || '';
  return { position, lineCode: position.position_type === 'text' && path ? await lineCode(repo, input, path) : null };
}

/** A kept position as it was sent (its nulls are the fields that were not). */
function asSent(p: NonNullable<DraftNote['position']>): PositionInput {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null)) as unknown as PositionInput;
}

/** Commit#diff_refs: the commit against its first parent. */
async function commitDiffRefs(repo: RepositoryObjects, sha: string): Promise<{ base: string; head: string } | null> {
  if (!/^[0-9a-f]{40}$/.test(sha)) return null;
  const commit = await repo.readCommit(sha).catch(() => null);
  return commit && commit.parents[0] ? { base: commit.parents[0], head: sha } : null;
}

export interface DraftInput {
  note: string;
  commitId: string | null;
  inReplyTo?: string;
  resolveDiscussion: boolean;
  position?: PositionInput;
}

/** DraftNotes::CreateService (the caller may create notes on the merge request: the route checked). */
export async function createDraft(state: State, n: Noteable, mr: MergeRequest, user: User, repo: RepositoryObjects, input: DraftInput, now: number): Promise<Change<DraftNote>> {
  let discussionId: string | null = null;
  let thread: Discussion | undefined;
  if (input.inReplyTo !== undefined && input.inReplyTo !== '') {
    thread = findDiscussion(state, n.key, input.inReplyTo);
    if (!thread) throw threadNotFound();
    if (thread.notes[0]!.system) throw replyToSystemNote();
    discussionId = thread.id;
  }
  if (input.resolveDiscussion && !(thread && canResolveThread(state, user, n, thread, now))) throw cannotResolveThread();
  if (discussionId !== null && draftsOf(state, mr, user).some((d) => d.discussionId === discussionId)) throw replyDrafted();
  const at = input.position ? await positioned(repo, input.position) : { position: null, lineCode: null };
  if (input.commitId !== null) {
    const refs = await commitDiffRefs(repo, input.commitId);
    const p = at.position;
    if (!refs || !p || p.base_sha !== refs.base || p.start_sha !== refs.base || p.head_sha !== refs.head) throw commitMismatch();
  }
  return (draft) => {
    const made: DraftNote = {
      id: ids.next(draft as State, 'draft_note'), projectId: mr.projectId, mergeRequestId: mr.id, mergeRequestIid: mr.iid, authorId: user.id,
      note: input.note, discussionId, resolveDiscussion: input.resolveDiscussion, commitId: input.commitId, ...at,
    };
    pset((draft as State).draftNotes, made.projectId, made.id, made);
    return made;
  };
}

/** `draft_note.update!(note:, position:)`: a new note, and the position given (none given clears it). */
export async function updateDraft(repo: RepositoryObjects, d: DraftNote, input: { note: string; position?: PositionInput }): Promise<Change<DraftNote>> {
  const at = input.position ? await positioned(repo, input.position) : { position: null, lineCode: d.lineCode };
  return (draft) => {
    const next: DraftNote = { ...d, note: input.note, ...at };
    pset((draft as State).draftNotes, d.projectId, d.id, next);
    return next;
  };
}

/** DraftNotes::DestroyService for one draft. */
export function deleteDraft(d: DraftNote): Change {
  return (draft) => void pdel((draft as State).draftNotes, d.projectId, d.id);
}

/**
 * PublishService#create_note_from_draft: Notes::CreateService with the draft's note, as a reply
 * in its thread or a thread of its own (on the diff when it has a position), then the thread's
 * resolution as the draft asks. A note GitLab's service would not save (a blank one, commands
 * alone that do nothing, a thread gone) is not made; the draft goes all the same.
 */
async function publishOne(ctx: Context<unknown>, n: Noteable, user: User, repo: RepositoryObjects, d: DraftNote): Promise<Note | null> {
  let reply: Discussion | undefined;
  if (d.discussionId !== null) {
    reply = findDiscussion(ctx.state, n.key, d.discussionId);
    if (!reply || (reply.individual && reply.notes[0]!.system)) return null;
  }
  const thread = reply ? { reply } : { start: true as const, diff: d.position ? { position: d.position, commitId: d.commitId } : undefined };
  let note: Note | null;
  try {
    if (d.position) await checkDiffPosition(repo, asSent(d.position));
    const commands = await interpretNoteBody(ctx, n, user, d.note, undefined);
    note = ctx.update(createNote(ctx.state, n, user, { body: d.note, internal: false, thread }, commands, ctx.now())).note;
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return null;
    throw e;
  }
  if (note && d.discussionId !== null) {
    const now = findDiscussion(ctx.state, n.key, d.discussionId);
    if (now) {
      const resolve = d.resolveDiscussion && canResolveThread(ctx.state, user, n, now, ctx.now());
      ctx.update(resolveNotes(n, now.notes, user, resolve, ctx.now()));
    }
  }
  return note;
}

/**
 * DraftNotes::PublishService: one draft, or (none named) all the caller's drafts on the merge
 * request, oldest first, as one review. The caller must still be allowed to create notes.
 */
export async function publishDrafts(ctx: Context<unknown>, project: Project, mr: MergeRequest, repo: RepositoryObjects, which?: DraftNote): Promise<void> {
  const user = ctx.user!;
  const n = noteableOf(ctx.state, user, project, mr, ctx.now());
  if (!canCreateNote(ctx.state, user, n, ctx.now())) throw publishRefused();
  const drafts = which ? [which] : draftsOf(ctx.state, mr, user);
  for (const d of drafts) {
    await publishOne(ctx, n, user, repo, d);
    ctx.update(deleteDraft(d));
  }
  // A review (all the drafts at once, when there are some): its author reviewed the merge request.
  if (!which && drafts.length > 0) ctx.update(recordReview(ctx.state, project, mr, user, ctx.now()));
}

/** A deleted project's drafts. */
export function forgetProjectDrafts(draft: State, projectId: number): void {
  tdel(draft.draftNotes, projectId);
}
