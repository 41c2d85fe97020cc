// Entities::Event (lib/api/entities/event.rb) and Entities::PushEventPayload: a row of the
// events API, its author, and its target's title and iid as they are now (a target that is gone
// leaves them null, as GitLab's `target.try(:title)`).
import { iso } from '../../render/time.js';

import { findNote, noteKey } from '../../store/notes.js';
import { pget, tget } from '../../store/table.js';
import { issueById } from '../issues/index.js';
import { noteEntity } from '../notes/index.js';
import { snippetById } from '../snippets/index.js';
import { findMilestone } from '../milestones/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { NoteableType, State } from '../world.js';
import type { PushPayload } from './push.js';
import { actionName, type EventRow } from './rows.js';

/** The target's id, iid and title; a target that is gone has its id for iid and no title (`target.respond_to?(:iid) ? target.iid : target_id`). */
function targetOf(state: State, row: EventRow): { id: number | null; iid: number | null; title: string | null } {
  const t = row.target;
  if (t === null) return { id: null, iid: null, title: null };
  switch (t.type) {
    case 'Issue': {
      const issue = issueById(state, t.id);
      return { id: t.id, iid: issue?.iid ?? t.id, title: issue?.title ?? null };
    }
    case 'MergeRequest': {
      const mr = pget(state.mergeRequests, row.projectId, t.iid);
      return { id: t.id, iid: mr && mr.id === t.id ? mr.iid : t.id, title: mr && mr.id === t.id ? mr.title : null };
    }
    case 'Note':
      // Note#title is its noteable's (a commit's would need its message: left null).
      return { id: t.id, iid: t.id, title: noteableTitle(state, row.projectId, t) };
    case 'Milestone': {
      const m = findMilestone(state, { projectId: t.projectId }, t.milestoneId);
      return { id: t.milestoneId, iid: m?.iid ?? t.milestoneId, title: m?.title ?? null };
    }
    case 'WikiPage::Meta':
      return { id: t.metaId, iid: t.metaId, title: t.title };
  }
}

function noteableTitle(state: State, projectId: number, t: Extract<EventRow['target'], { type: 'Note' }>): string | null {
  if (t.noteableType === 'Issue') return issueById(state, Number(t.noteableId))?.title ?? null;
  if (t.noteableType === 'MergeRequest') return (t.noteableIid !== null ? pget(state.mergeRequests, projectId, t.noteableIid)?.title : null) ?? null;
  if (t.noteableType === 'Snippet') return snippetById(state, Number(t.noteableId))?.title ?? null;
  return null;
}

export function eventEntity(state: State, row: EventRow, payload: PushPayload | undefined, u: UrlBase) {
  const e = row.event;
  const author = row.authorId === null ? undefined : tget(state.users, row.authorId);
  const target = targetOf(state, row);
  const push = e.kind === 'push' ? e : null;
  const t = row.target;
  const note = t?.type === 'Note' ? findNote(state, noteKey(t.noteableType as NoteableType, t.noteableId), t.id) : undefined;
  return {
    id: e.id,
    project_id: row.projectId,
    action_name: actionName(row, push),
    target_id: target.id,
    target_iid: target.iid,
    target_type: row.target?.type ?? null,
    author_id: row.authorId,
    target_title: target.title,
    created_at: iso(e.at),
    ...(note ? { note: noteEntity({ ...u, state }, note, row.target?.type === 'Note' ? row.target.noteableIid : null) } : {}),
    ...(author ? { author: userBasic(author, u) } : {}),
    ...(row.target?.type === 'WikiPage::Meta' ? { wiki_page: { format: row.target.format, slug: row.target.slug, title: row.target.title } } : {}),
    ...(push
      ? {
          push_data: {
            commit_count: payload?.commitCount ?? 0,
            action: push.before === null ? 'created' : push.after === null ? 'removed' : 'pushed',
            ref_type: push.refType,
            commit_from: push.before,
            commit_to: push.after,
            ref: push.ref,
            commit_title: payload?.commitTitle ?? null,
            ref_count: null,
          },
        }
      : {}),
    author_username: author?.username ?? null,
    imported: false,
    imported_from: 'none',
  };
}

