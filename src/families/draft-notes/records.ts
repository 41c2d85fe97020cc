// DraftNote (app/models/draft_note.rb): a comment on a merge request that only its author sees
// until it is published as a note, alone or with the author's other drafts (a review).
import type { DiffPosition } from '../../store/notes.js';

export interface DraftNote {
  id: number;
  /** The merge request's target project: a deleted project's drafts go with it. */
  projectId: number;
  mergeRequestId: number;
  mergeRequestIid: number;
  authorId: number;
  note: string;
  /** The thread it will reply to (`in_reply_to_discussion_id`); null for a new thread. */
  discussionId: string | null;
  /** Resolve the thread it replies to when published. */
  resolveDiscussion: boolean;
  /** The commit whose diff the position is on (`commit_id`); null for the merge request's diff. */
  commitId: string | null;
  /** Where on the diff (Gitlab::Diff::Position#to_h), as the diff note rules accepted it; null when none. */
  position: DiffPosition | null;
  /** The code of the line a text position names (`line_code`). */
  lineCode: string | null;
}
