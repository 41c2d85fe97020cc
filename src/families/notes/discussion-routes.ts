// lib/api/discussions.rb: the notes of issues, merge requests, project snippets and (higher tier)
// epics as threads. A note standing alone is a discussion of its own (`individual_note`); a
// thread is started with POST …/discussions and replied to; a reply to a note alone on an issue
// or merge request makes it a thread. Merge request threads are resolvable. Every route needs a
// signed-in caller; unlike notes, starting a discussion is not rate limited (GitLab's is not).
import { forbidden } from '../../core/errors.js';
import { bool, hash, int, parseDateTime, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { discussionIdOf, discussionList, findDiscussion, type Discussion, type Note } from '../../store/notes.js';
import { route, type Context } from '../define.js';
import { objectsOf } from '../repositories/index.js';
import { checkDiffPosition, type PositionInput } from './diff-position.js';
import { bodyBlank, cannotReply, discussionNotFound } from './errors.js';
import { discussionEntity } from './entity.js';
import { canBackdateNote, canCreateNote, canResolve, noteReadable, repliesToNotesAlone, type Noteable, type NoteableKind } from './noteables.js';
import { interpret, NOTEABLE_PATHS, noteableAccess, noteableIdParam, oneNoteRoutes, render } from './routes.js';
import { createNote, resolveNotes, type NoteInput } from './rules.js';

const DISCUSSION = { noteable_id: int().required(), discussion_id: str().required() };
const discussionOf = (kind: NoteableKind) => ({ ...DISCUSSION, noteable_id: noteableIdParam(kind) });
const CREATE = { body: str().required(), created_at: str() };
/** A merge request thread's `position` (lib/api/discussions.rb) and the `commit_id` it is on. */
const POSITIONED = {
  position: hash({
    base_sha: str().required(), start_sha: str().required(), head_sha: str().required(), position_type: str().values(['text', 'image', 'file'] as const).required(),
    new_path: str(), new_line: int(), old_path: str(), old_line: int(), width: int(), height: int(), x: int(), y: int(), line_range: hash(),
  }),
  commit_id: str(),
};

/** The notes of a discussion the caller may read (`readable_discussion_notes`). */
function readable(ctx: Context<unknown>, n: Noteable, d: Discussion): readonly Note[] {
  return d.notes.filter((note) => noteReadable(ctx.state, ctx.user, n, note, ctx.now()));
}

/** A discussion with notes the caller may read, or `404 <what> Not Found`. */
function found(ctx: Context<{ discussion_id: string }>, n: Noteable, what: 'Discussion' | 'Notes' = 'Discussion'): { d: Discussion; notes: readonly Note[] } {
  const d = findDiscussion(ctx.state, n.key, ctx.params.discussion_id);
  const notes = d ? readable(ctx, n, d) : [];
  if (!d || notes.length === 0) throw discussionNotFound(what);
  return { d, notes };
}

const entity = (ctx: Context<unknown>, n: Noteable, d: Discussion, notes: readonly Note[]) =>
  discussionEntity({ state: ctx.state, webBase: ctx.webBase }, d, notes, n.iid);

/**
 * Notes::CreateService for a thread's note: the caller may comment; `created_at` as for notes;
 * quick actions run, but a body of commands alone leaves a blank note, which GitLab refuses.
 */
async function threadNote(ctx: Context<{ body: string; created_at?: string }>, n: Noteable, thread: NonNullable<NoteInput['thread']>): Promise<Note> {
  const user = ctx.user!;
  if (!canCreateNote(ctx.state, user, n, ctx.now())) throw forbidden();
  const p = ctx.params;
  const at = p.created_at === undefined || n.type === 'Epic' || !canBackdateNote(ctx.state, user, n, ctx.now()) ? undefined : parseDateTime(p.created_at);
  const commands = await interpret(ctx, n, user, p.body, undefined);
  if (commands !== null && commands.content === '') throw bodyBlank();
  const input: NoteInput = { body: p.body, internal: false, createdAt: typeof at === 'number' && at > 0 ? at : undefined, thread };
  return ctx.update(createNote(ctx.state, n, user, input, commands, ctx.now())).note!;
}

function routesFor(kind: NoteableKind, base: string) {
  const { scope, tier, noteable } = noteableAccess(kind);
  const path = `${base}/discussions`;
  return [
    route({
      method: 'GET', path, auth: 'user', tier, scope, paginated: true, cacheable: true, params: { noteable_id: noteableIdParam(kind) },
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        // Discussions are paged, then what the caller may not read leaves them (and an empty one the page).
        const page = ctx.paginate(discussionList(ctx.state, n.key));
        return json(page.flatMap((d) => {
          const notes = readable(ctx, n, d);
          return notes.length ? [entity(ctx, n, d, notes)] : [];
        }));
      },
    }),
    route({
      method: 'GET', path: `${path}/:discussion_id`, auth: 'user', tier, scope, cacheable: true, params: discussionOf(kind),
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        const { d, notes } = found(ctx, n);
        return json(entity(ctx, n, d, notes));
      },
    }),
    route({
      method: 'POST', path, auth: 'user', tier, scope, params: { noteable_id: noteableIdParam(kind), ...CREATE, ...(kind === 'merge_requests' ? POSITIONED : {}) },
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        // A merge request thread with a `position` is on a line of its diff (DiffNote).
        const p = ctx.params as { position?: PositionInput; commit_id?: string };
        const diff = p.position && n.project
          ? { position: await checkDiffPosition(objectsOf(ctx, n.project), p.position), commitId: p.commit_id ?? null }
          : undefined;
        const note = await threadNote(ctx, n, { start: true, diff });
        const d = findDiscussion(ctx.state, n.key, discussionIdOf(note))!;
        return created(entity(ctx, n, d, d.notes));
      },
    }),
    route({
      method: 'GET', path: `${path}/:discussion_id/notes`, auth: 'user', tier, scope, cacheable: true, params: discussionOf(kind),
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        return json(found(ctx, n, 'Notes').notes.map((note) => render(ctx, n, note)));
      },
    }),
    route({
      method: 'POST', path: `${path}/:discussion_id/notes`, auth: 'user', tier, scope, params: { ...discussionOf(kind), ...CREATE },
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        const { d } = found(ctx, n);
        // Discussion#can_convert_to_discussion?: a system note, or a note alone where notes alone take no replies, cannot be replied to.
        if (d.individual && (d.notes[0]!.system || !repliesToNotesAlone(n))) throw cannotReply();
        const note = await threadNote(ctx, n, { reply: d });
        return created(render(ctx, n, note));
      },
    }),
    ...oneNoteRoutes(kind, `${path}/:discussion_id/notes`, true),
    ...(kind === 'merge_requests'
      ? [route({
        method: 'PUT', path: `${path}/:discussion_id`, auth: 'user', tier, scope, params: { ...discussionOf(kind), resolved: bool().required() },
        handler: async (ctx): Promise<Reply> => {
          const n = await noteable(ctx);
          const { d } = found(ctx, n);
          if (!canResolve(ctx.state, ctx.user!, n, ctx.now()) || d.individual) throw forbidden();
          ctx.update(resolveNotes(n, d.notes, ctx.user!, ctx.params.resolved, ctx.now()));
          const now = findDiscussion(ctx.state, n.key, d.id)!;
          return json(entity(ctx, n, now, readable(ctx, n, now)));
        },
      })]
      : []),
  ];
}

/** A commit's discussions too (lib/api/discussions.rb's `Commit`); its notes are its comments. */
const DISCUSSION_PATHS: readonly [NoteableKind, string][] = [...NOTEABLE_PATHS, ['commits', '/projects/:id/repository/commits/:noteable_id']];

export const discussionRoutes = DISCUSSION_PATHS.flatMap(([kind, base]) => routesFor(kind, base));
