// An issue board (app/models/board.rb) of a project or a group, and its lists (app/models/list.rb):
// the backlog and closed lists every board has, and the label lists (higher tiers: assignee,
// milestone and iteration lists) placed between them.
export interface Board {
  id: number;
  projectId: number | null;
  groupId: number | null;
  name: string;
  hideBacklogList: boolean;
  hideClosedList: boolean;
  /** The board's scope (higher tiers). */
  milestoneId: number | null;
  assigneeId: number | null;
  labelIds: number[];
  weight: number | null;
  createdAt: number;
}

export type ListType = 'backlog' | 'label' | 'closed' | 'assignee' | 'milestone' | 'iteration';

export interface BoardList {
  id: number;
  boardId: number;
  listType: ListType;
  labelId: number | null;
  userId: number | null;
  milestoneId: number | null;
  /** Position among the movable lists; null for backlog and closed. */
  position: number | null;
}
