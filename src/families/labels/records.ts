// The record of the labels family (app/models/label.rb, project_label.rb, group_label.rb).

/** A label of a project (`projectId`) or of a group (`groupId`). */
export interface Label {
  id: number;
  projectId: number | null;
  groupId: number | null;
  title: string;
  /** `#rrggbb`, as given (GitLab keeps the case it was given). */
  color: string;
  description: string;
  /** A project's priority for the label; null when it has none. */
  priority: number | null;
  createdAt: number;
}
