// The records issues and merge requests share (app/models/todo.rb, award_emoji.rb; Awardable,
// Subscribable).

/**
 * What award emoji, subscriptions and to-dos hang on (Awardable, Subscribable, a to-do's target):
 * an issue or a merge request. Their ids come from separate sequences, so the type is part of
 * every key; the iid finds a merge request, which has no index by id.
 */
export type SocialType = 'Issue' | 'MergeRequest';
export interface SocialTarget {
  type: SocialType;
  id: number;
  iid: number;
  projectId: number;
}

/** What a to-do can be on: an issue or a merge request of a project, or an epic of a group. */
export type TodoType = SocialType | 'Epic';
export interface TodoTarget {
  type: TodoType;
  id: number;
  iid: number;
  /** The project of an issue or a merge request; null for an epic. */
  projectId: number | null;
  /** The group of an epic. */
  groupId?: number;
}

export interface Todo {
  id: number;
  userId: number;
  authorId: number;
  /** The target's project; null for an epic's, which has its group. */
  projectId: number | null;
  groupId?: number;
  targetType: TodoType;
  targetId: number;
  targetIid: number;
  actionName: 'marked' | 'assigned' | 'review_requested' | 'mentioned' | 'directly_addressed';
  /** The note whose mention made it (Todo#note): its text is the to-do's body. */
  noteId?: number;
  state: 'pending' | 'done';
  createdAt: number;
  updatedAt: number;
}

/** What award emoji hang on: an issue, a merge request, a project snippet, or a note of one. */
export type AwardableType = SocialType | 'Snippet' | 'Note';

export interface AwardEmoji {
  id: number;
  awardableType: AwardableType;
  awardableId: number;
  userId: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}
