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

export interface Todo {
  id: number;
  userId: number;
  authorId: number;
  projectId: number;
  targetType: SocialType;
  targetId: number;
  targetIid: number;
  actionName: 'marked' | 'assigned' | 'mentioned';
  state: 'pending' | 'done';
  createdAt: number;
  updatedAt: number;
}

/** What award emoji hang on: an issue, a merge request, or a note of one. */
export type AwardableType = SocialType | 'Note';

export interface AwardEmoji {
  id: number;
  awardableType: AwardableType;
  awardableId: number;
  userId: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}
