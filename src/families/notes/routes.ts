// lib/api/notes.rb: the notes of issues, merge requests, project snippets and (higher tier)
// epics, each with list, get, create, update and delete. Every route needs a signed-in caller,
// even to read (`before { authenticate! }`).
import { forbidden, notFound, recordNotFound } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { bool, int, parseDateTime, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { findNote, isResolvable, noteList, type Note } from '../../store/notes.js';
import type { User } from '../../store/state.js';
import { group, project, route, type Context } from '../define.js';
import { noteNotReadable, notResolvable } from './errors.js';
import { noteCommandsEntity, noteEntity } from './entity.js';
import { canAdminNote, canBackdateNote, canCreateNote, canResolve, commitNoteable, findNoteable, noteReadable, type Noteable, type NoteableKind } from './noteables.js';
import { canReadCode, repositoryEnabled, repoView, resolveCommit } from '../repositories/index.js';
import { awardEmojiEntity, interpretNoteCommands, type NoteCommands } from '../issuables/index.js';
import { createNote, destroyNote, emojiReaction, resolveNotes, updateNote, type NoteOutcome } from './rules.js';

const FILTERS = { all_notes: 'all', only_comments: 'comments', only_activity: 'activity' } as const;

const LIST_PARAMS = {
  noteable_id: int().required(),
  order_by: str().values(['created_at', 'updated_at'] as const).default('created_at'),
  sort: str().values(['asc', 'desc'] as const).default('desc'),
  activity_filter: str().values(['all_notes', 'only_comments', 'only_activity'] as const).default('all_notes'),
};
const ONE = { noteable_id: int().required(), note_id: int().required() };
/** A commit is named by its sha (or any revision), the others by an id or iid. */
export const noteableIdParam = (kind: NoteableKind) => (kind === 'commits' ? str().required() : int().required());
const CREATE_PARAMS = {
  noteable_id: int().required(), body: str().required(), confidential: bool(), internal: bool(), created_at: str(), merge_request_diff_head_sha: str(),
};
/** An issue note's edit may leave the body out (to change nothing of it); the others' must carry one, as the spec has it. */
const updateParams = (kind: NoteableKind) => ({ ...ONE, body: kind === 'issues' ? str().notBlank() : str().notBlank().required(), confidential: bool() });

/** The notes in the order asked: `created_at` is id order (GitLab's tie-breaker makes it so); `updated_at` then id. */
function ordered(ctx: Context<unknown>, n: Noteable, p: { order_by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc'; activity_filter: keyof typeof FILTERS }): readonly Note[] {
  return noteList(ctx.state, n.key, FILTERS[p.activity_filter], p.sort, p.order_by === 'created_at' ? 'id' : 'updated_at');
}

export function render(ctx: Context<unknown>, n: Noteable, note: Note, changes?: Record<string, unknown>) {
  return noteEntity({ state: ctx.state, webBase: ctx.webBase }, note, n.iid, changes);
}

/** `process_note_creation_result`: 202 for commands only that ran (those that did not were refused by the rules). */
export function outcome(ctx: Context<unknown>, n: Noteable, made: NoteOutcome, status: 200 | 201): Reply {
  if (made.note === null) return json(noteCommandsEntity(made.commands.changes, made.commands.messages), 202);
  const body = render(ctx, n, made.note, made.commands?.changes);
  return status === 201 ? created(body) : json(body);
}

/**
 * The quick actions of a body, on what takes them (issues, merge requests, epics; a snippet's
 * note is text only), with the git work of `/merge` done before the change is made.
 */
export async function interpret(ctx: Context<unknown>, n: Noteable, user: User, body: string, diffHeadSha: string | undefined): Promise<NoteCommands | null> {
  if (!n.issuable || body.trim() === '') return null;
  const commands = interpretNoteCommands(ctx.state, n.issuable, user, body, { mergeRequestDiffHeadSha: diffHeadSha, webBase: ctx.webBase }, ctx.now());
  await commands.prepare?.(ctx);
  return commands;
}

/** How the routes of a kind of noteable reach it: their scope and tier, and the noteable of a request (or its 404). */
export function noteableAccess(kind: NoteableKind) {
  const parent = (ctx: Context<unknown>) => (kind === 'epics' ? { group: ctx.group } : { project: ctx.project });
  return {
    scope: kind === 'epics' ? group() : kind === 'commits' ? project(repositoryEnabled, canReadCode) : project(),
    tier: kind === 'epics' ? ('premium' as const) : undefined,
    noteable: async (ctx: Context<{ noteable_id: number | string }>): Promise<Noteable> => {
      if (kind !== 'commits') return findNoteable(ctx.state, ctx.user, kind, parent(ctx), ctx.params.noteable_id as number, ctx.now());
      const sha = await resolveCommit(ctx.env.git.repository(ctx.project.id), repoView(ctx.state, ctx.project), String(ctx.params.noteable_id));
      if (!sha) throw notFound('Commit');
      return commitNoteable(ctx.project, sha);
    },
  };
}

function existing(ctx: Context<{ note_id: number }>, n: Noteable): Note {
  const note = findNote(ctx.state, n.key, ctx.params.note_id);
  if (!note) throw recordNotFound();
  return note;
}

/**
 * `get_note`, `update_note` and `delete_note` at `<prefix>/:note_id`: the notes routes' and the
 * discussions' (which find the note by its id alone, as GitLab's do). Under discussions, `PUT`
 * takes `resolved` instead of `body` (`resolve_note`).
 */
export function oneNoteRoutes(kind: NoteableKind, prefix: string, inDiscussion = false) {
  const { scope, tier, noteable } = noteableAccess(kind);
  // The discussion's id is in the path only: GitLab finds the note by its own id.
  const one = { ...ONE, noteable_id: noteableIdParam(kind), ...(inDiscussion ? { discussion_id: str().required() } : {}) };
  return [
    route({
      method: 'GET', path: `${prefix}/:note_id`, auth: 'user', tier, scope, cacheable: true, params: one,
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        const note = existing(ctx, n);
        if (!noteReadable(ctx.state, ctx.user, n, note, ctx.now())) throw noteNotReadable();
        return json(render(ctx, n, note));
      },
    }),
    route({
      method: 'PUT', path: `${prefix}/:note_id`, auth: 'user', tier, scope,
      params: inDiscussion ? { ...one, body: str(), resolved: bool() } : updateParams(kind),
      constraints: inDiscussion ? [{ kind: 'exactly_one_of', names: ['body', 'resolved'] }] : undefined,
      handler: async (ctx): Promise<Reply> => {
        const user = ctx.user!;
        const n = await noteable(ctx);
        const note = existing(ctx, n);
        const p = ctx.params as { body?: string; confidential?: boolean; resolved?: boolean };
        if (p.resolved !== undefined) {
          // NotePolicy's resolve_note: the note's author too.
          if (note.authorId !== user.id && !canResolve(ctx.state, user, n, ctx.now())) throw forbidden();
          if (!isResolvable(note)) throw notResolvable();
          ctx.update(resolveNotes(n, [note], user, p.resolved, ctx.now()));
          return json(render(ctx, n, findNote(ctx.state, n.key, note.id)!));
        }
        if (!canAdminNote(ctx.state, user, n, note, ctx.now())) throw forbidden();
        const commands = p.body === undefined ? null : await interpret(ctx, n, user, p.body, undefined);
        return outcome(ctx, n, ctx.update(updateNote(ctx.state, n, note, user, { body: p.body, confidential: p.confidential }, commands, ctx.now())), 200);
      },
    }),
    route({
      method: 'DELETE', path: `${prefix}/:note_id`, auth: 'user', tier, scope, params: one,
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        const note = existing(ctx, n);
        if (!canAdminNote(ctx.state, ctx.user!, n, note, ctx.now())) throw forbidden();
        checkUnmodifiedSince(ctx, note.updatedAt);
        ctx.update(destroyNote(n, note));
        return noContent();
      },
    }),
  ];
}

function routesFor(kind: NoteableKind, base: string) {
  const { scope, tier, noteable } = noteableAccess(kind);
  return [
    route({
      method: 'GET', path: `${base}/notes`, auth: 'user', tier, scope, paginated: true, cacheable: true, params: LIST_PARAMS,
      handler: async (ctx): Promise<Reply> => {
        const n = await noteable(ctx);
        // Unreadable notes leave the page after paging, as GitLab's do: a page may be short.
        const page = ctx.paginate(ordered(ctx, n, ctx.params)).filter((note) => noteReadable(ctx.state, ctx.user, n, note, ctx.now()));
        return json(page.map((note) => render(ctx, n, note)));
      },
    }),
    route({
      method: 'POST', path: `${base}/notes`, auth: 'user', tier, scope, rateLimit: 'notes_create', params: CREATE_PARAMS,
      handler: async (ctx): Promise<Reply> => {
        const user = ctx.user!;
        const n = await noteable(ctx);
        if (!canCreateNote(ctx.state, user, n, ctx.now())) throw forbidden();
        const p = ctx.params;
        const at = p.created_at === undefined || kind === 'epics' || !canBackdateNote(ctx.state, user, n, ctx.now()) ? undefined : parseDateTime(p.created_at);
        // `internal` overrides `confidential` (the spec), an explicit false too.
        const input = { body: p.body, internal: (p.internal ?? p.confidential) === true, createdAt: typeof at === 'number' && at > 0 ? at : undefined };
        const reaction = emojiReaction(ctx.state, n, user, p.body, ctx.now());
        if (reaction) return created(awardEmojiEntity({ state: ctx.state, webBase: ctx.webBase }, ctx.update(reaction)));
        const commands = await interpret(ctx, n, user, p.body, p.merge_request_diff_head_sha);
        return outcome(ctx, n, ctx.update(createNote(ctx.state, n, user, input, commands, ctx.now())), 201);
      },
    }),
    ...oneNoteRoutes(kind, `${base}/notes`),
  ];
}

/** The kinds of noteables the notes and discussions routes serve, at their paths. */
export const NOTEABLE_PATHS: readonly [NoteableKind, string][] = [
  ['issues', '/projects/:id/issues/:noteable_id'],
  ['merge_requests', '/projects/:id/merge_requests/:noteable_id'],
  ['snippets', '/projects/:id/snippets/:noteable_id'],
  ['epics', '/groups/:id/epics/:noteable_id'],
];

export const noteRoutes = NOTEABLE_PATHS.flatMap(([kind, base]) => routesFor(kind, base));
