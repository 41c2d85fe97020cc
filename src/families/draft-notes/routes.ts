// lib/api/draft_notes.rb: a merge request's draft notes, each seen by its author only (another
// user's draft is not found), and their publication, one or all. Every route needs a signed-in caller.
import { forbidden, recordNotFound } from '../../core/errors.js';
import { bool, hash, int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';
import { readableMergeRequest, type MergeRequest } from '../merge-requests/index.js';
import { canCreateNote, type PositionInput } from '../notes/index.js';
import { objectsOf } from '../repositories/index.js';
import { draftNoteEntity } from './entity.js';
import { nothingToModify } from './errors.js';
import type { DraftNote } from './records.js';
import { createDraft, deleteDraft, draftsOf, findDraft, noteableOf, publishDrafts, updateDraft } from './rules.js';

const BASE = '/projects/:id/merge_requests/:merge_request_iid/draft_notes';
const MR = { merge_request_iid: int().required() };
const ONE = { ...MR, draft_note_id: int().required() };
/** `params :positional`. */
const POSITION = {
  position: hash({
    base_sha: str().required(), start_sha: str().required(), head_sha: str().required(), position_type: str().values(['text', 'image', 'file'] as const).required(),
    new_path: str(), new_line: int(), old_path: str(), old_line: int(), width: int(), height: int(), x: int(), y: int(), line_range: hash(),
  }),
};

/** `find_project_merge_request`: among those the caller may read, else `404 Not found`. */
function mergeRequestOf(ctx: Context<{ merge_request_iid: number }>): MergeRequest {
  const mr = readableMergeRequest(ctx.state, ctx.user, ctx.project, ctx.params.merge_request_iid, ctx.now());
  if (!mr) throw recordNotFound();
  return mr;
}

/** `load_draft_notes.find(id)`: one of the caller's drafts, else `404 Not found`. */
function draftOf(ctx: Context<{ merge_request_iid: number; draft_note_id: number }>): { mr: MergeRequest; draft: DraftNote } {
  const mr = mergeRequestOf(ctx);
  const draft = findDraft(ctx.state, mr, ctx.user!, ctx.params.draft_note_id);
  if (!draft) throw recordNotFound();
  return { mr, draft };
}

export const draftNoteRoutes = [
  route({
    method: 'GET', path: BASE, auth: 'user', scope: project(), params: MR,
    handler: (ctx): Reply => json(draftsOf(ctx.state, mergeRequestOf(ctx), ctx.user!).map(draftNoteEntity)),
  }),
  route({
    method: 'GET', path: `${BASE}/:draft_note_id`, auth: 'user', scope: project(), params: ONE,
    handler: (ctx): Reply => json(draftNoteEntity(draftOf(ctx).draft)),
  }),
  route({
    method: 'POST', path: BASE, auth: 'user', scope: project(),
    params: { ...MR, note: str().required(), in_reply_to_discussion_id: str(), commit_id: str(), resolve_discussion: bool(), ...POSITION },
    handler: async (ctx): Promise<Reply> => {
      const mr = mergeRequestOf(ctx);
      const user = ctx.user!;
      const n = noteableOf(ctx.state, user, ctx.project, mr, ctx.now());
      if (!canCreateNote(ctx.state, user, n, ctx.now())) throw forbidden();
      const p = ctx.params;
      const commitId = p.commit_id === undefined || p.commit_id === 'undefined' ? null : p.commit_id;
      const change = await createDraft(ctx.state, n, mr, user, objectsOf(ctx, ctx.project), {
        note: p.note, commitId, inReplyTo: p.in_reply_to_discussion_id, resolveDiscussion: p.resolve_discussion ?? false, position: p.position as PositionInput | undefined,
      }, ctx.now());
      return created(draftNoteEntity(ctx.update(change)));
    },
  }),
  route({
    method: 'PUT', path: `${BASE}/:draft_note_id`, auth: 'user', scope: project(), params: { ...ONE, note: str().notBlank(), ...POSITION },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (p.note === undefined || p.note.trim() === '') throw nothingToModify();
      const { draft } = draftOf(ctx);
      const change = await updateDraft(objectsOf(ctx, ctx.project), draft, { note: p.note, position: p.position as PositionInput | undefined });
      return json(draftNoteEntity(ctx.update(change)));
    },
  }),
  route({
    method: 'DELETE', path: `${BASE}/:draft_note_id`, auth: 'user', scope: project(), params: ONE,
    handler: (ctx): Reply => {
      ctx.update(deleteDraft(draftOf(ctx).draft));
      return noContent();
    },
  }),
  route({
    method: 'PUT', path: `${BASE}/:draft_note_id/publish`, auth: 'user', scope: project(), params: ONE,
    handler: async (ctx): Promise<Reply> => {
      const { mr, draft } = draftOf(ctx);
      await publishDrafts(ctx, ctx.project, mr, objectsOf(ctx, ctx.project), draft);
      return noContent();
    },
  }),
  route({
    method: 'POST', path: `${BASE}/bulk_publish`, auth: 'user', scope: project(), params: MR,
    handler: async (ctx): Promise<Reply> => {
      const mr = mergeRequestOf(ctx);
      await publishDrafts(ctx, ctx.project, mr, objectsOf(ctx, ctx.project));
      return noContent();
    },
  }),
];

