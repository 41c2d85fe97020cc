// The records of the epics family (ee/app/models/epic.rb, iteration.rb).

/** An epic of a group (premium). */
export interface Epic {
  id: number;
  iid: number;
  groupId: number;
  parentId: number | null;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  confidential: boolean;
  authorId: number;
  color: string;
  labelIds: number[];
  startDate: string | null;
  dueDate: string | null;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}

/** An iteration of a group (premium): its state follows its dates and the clock. */
export interface Iteration {
  id: number;
  iid: number;
  sequence: number;
  groupId: number;
  title: string | null;
  description: string;
  startDate: string;
  dueDate: string;
  createdAt: number;
  updatedAt: number;
}
