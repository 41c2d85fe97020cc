// Labels as GitLab renders them (lib/api/entities/label_basic.rb, label.rb, project_label.rb).
import { tget } from '../../store/table.js';
import type { User } from '../../store/state.js';
import type { State } from '../world.js';
import type { Label } from './records.js';
import { textColor } from './rules.js';
import { labelCounts } from './uses.js';

/** A plain HTML paragraph of the description (Banzai's markdown stands behind it in GitLab). */
export function descriptionHtml(text: string): string {
  if (text === '') return '';
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<p dir="auto">${esc}</p>`;
}

/** Entities::LabelBasic. */
export function labelBasic(l: Label) {
  return {
    id: l.id,
    name: l.title,
    color: l.color,
    description: l.description === '' ? null : l.description,
    description_html: descriptionHtml(l.description),
    text_color: textColor(l.color),
    remove_on_close: false,
  };
}

/** Entities::ProjectLabel (a project's own label or one of its groups'), Entities::GroupLabel in group routes. */
export function labelEntity(state: State, l: Label, withCounts: boolean, asProject: boolean, viewer: User | null = null) {
  return {
    ...labelBasic(l),
    ...(withCounts ? labelCounts(state, l) : {}),
    subscribed: viewer !== null && tget(state.labelSubscriptions, `${l.id}:${viewer.id}`) === true,
    ...(asProject ? { priority: l.priority, is_project_label: l.projectId !== null } : {}),
  };
}
