// Entities::DraftNote (lib/api/entities/draft_note.rb).
import type { DraftNote } from './records.js';

/** Gitlab::Diff::Position.new.to_h: what a draft without a position shows (its column loads as an empty text position). */
const NO_POSITION = {
  base_sha: null, start_sha: null, head_sha: null, old_path: null, new_path: null, position_type: 'text', old_line: null, new_line: null, line_range: null,
};

export function draftNoteEntity(d: DraftNote) {
  return {
    id: d.id,
    author_id: d.authorId,
    merge_request_id: d.mergeRequestId,
    resolve_discussion: d.resolveDiscussion,
    discussion_id: d.discussionId,
    note: d.note,
    commit_id: d.commitId,
    line_code: d.lineCode,
    position: d.position ?? NO_POSITION,
  };
}
