// A badge (app/models/badge.rb, ProjectBadge and GroupBadge): a linked image shown on a project
// or group page; a group's badges show on its projects too.
export interface Badge {
  id: number;
  kind: 'project' | 'group';
  /** The project or group it belongs to. */
  ownerId: number;
  name: string | null;
  linkUrl: string;
  imageUrl: string;
  createdAt: number;
}
