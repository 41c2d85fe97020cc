// lib/api/entities/basic_badge_details.rb and badge.rb: the URLs as written and as rendered for
// the project they are shown on (a group's page renders none).
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import type { Badge } from './records.js';
import { renderUrl } from './rules.js';

export function basicBadgeDetails(state: State, b: Badge, project: Project | undefined, host: string) {
  return {
    name: b.name,
    link_url: b.linkUrl,
    image_url: b.imageUrl,
    rendered_link_url: renderUrl(state, b.linkUrl, project, host),
    rendered_image_url: renderUrl(state, b.imageUrl, project, host),
  };
}

export const badgeEntity = (state: State, b: Badge, project: Project | undefined, host: string) => ({
  ...basicBadgeDetails(state, b, project, host),
  id: b.id,
  kind: b.kind,
});
