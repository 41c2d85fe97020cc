// A milestone of a project or of a group (app/models/milestone.rb).

/** A milestone of a project (`projectId`) or of a group (`groupId`); `iid` counts per owner. */
export interface Milestone {
  id: number;
  iid: number;
  projectId: number | null;
  groupId: number | null;
  title: string;
  description: string;
  state: 'active' | 'closed';
  createdAt: number;
  updatedAt: number;
  /** Dates, `YYYY-MM-DD`. */
  dueDate: string | null;
  startDate: string | null;
}
