// Labels of projects and groups (app/models/label.rb, project_label.rb, group_label.rb,
// app/finders/labels_finder.rb, Labels::FindOrCreateService, Gitlab::Color). A project sees its
// own labels and those of its group and the group's ancestors.
import type { Draft } from 'immer';
import { ancestry } from '../../policy/access.js';
import type { Namespace, Project } from '../../store/state.js';
import { emptyTable, tget, tset, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import type { Label } from './records.js';
import { ids, ownerKey, type LabelOwner } from './store.js';

/** Label::DEFAULT_COLOR, for labels an issue names that do not exist yet. */
export const DEFAULT_LABEL_COLOR = '#6699cc';

const NAMED_COLORS: Record<string, string> = Object.assign(Object.create(null), {
  white: '#ffffff', black: '#000000', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00', orange: '#ffa500',
  purple: '#800080', gray: '#808080', grey: '#808080', pink: '#ffc0cb', brown: '#a52a2a', cyan: '#00ffff', magenta: '#ff00ff',
});

/** Gitlab::Color.of: a hex colour (3 or 6 digits) or a CSS colour name; null when it is neither. */
export function normalizeColor(raw: string): string | null {
  const t = raw.trim();
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(t)) return t;
  return NAMED_COLORS[t.toLowerCase()] ?? null;
}

/** Gitlab::Color#contrast: dark text on light colours (channels summing over 500), white on the rest. */
export function textColor(color: string): string {
  let hex = color.slice(1);
  if (hex.length === 3) hex = hex.split('').map((c) => c + c).join('');
  const sum = [0, 2, 4].reduce((n, i) => n + parseInt(hex.slice(i, i + 2), 16), 0);
  return sum > 500 ? '#1F1E24' : '#FFFFFF';
}

export function ownLabels(state: State, owner: LabelOwner): Label[] {
  const t = tget(state.labelTitles, ownerKey(owner));
  if (!t) return [];
  const out: Label[] = [];
  for (const id of tvalues(t)) {
    const l = tget(state.labels, id);
    if (l) out.push(l);
  }
  return out;
}

export function labelByTitle(state: State, owner: LabelOwner, title: string): Label | undefined {
  const t = tget(state.labelTitles, ownerKey(owner));
  const found = t ? tget(t, title) : undefined;
  return found === undefined ? undefined : tget(state.labels, found);
}

export function labelById(state: State, id: number): Label | undefined {
  return tget(state.labels, id);
}

/** The owners whose labels a project may use: itself, its group and the group's ancestors (nearest first). */
export function projectLabelOwners(state: State, project: Project): LabelOwner[] {
  const ns = tget(state.namespaces, project.namespaceId);
  const out: LabelOwner[] = [{ projectId: project.id }];
  if (ns && ns.kind === 'group') for (const g of ancestry(state, ns.id)) out.push({ groupId: g.id });
  return out;
}

export function groupLabelOwners(state: State, group: Namespace): LabelOwner[] {
  return ancestry(state, group.id).map((g) => ({ groupId: g.id }));
}

/** The labels with this title a project can use (its own, its groups'). */
export function projectLabelsTitled(state: State, project: Project, title: string): Label[] {
  const out: Label[] = [];
  for (const o of projectLabelOwners(state, project)) {
    const l = labelByTitle(state, o, title);
    if (l) out.push(l);
  }
  return out;
}

/** The label a project's issue gets for a title: the project's own, else the nearest group's. */
export function availableLabel(state: State, project: Project, title: string): Label | undefined {
  return projectLabelsTitled(state, project, title)[0];
}

/** Labels::FindOrCreateService by titles: each title (trimmed, once) the label the project sees, made in the project when there is none (on the draft). */
export function findOrCreateLabels(draft: Draft<State>, project: Project, titles: readonly string[], now: number): number[] {
  return [...new Set(titles.map((t) => t.trim()).filter((t) => t !== ''))].map(
    (t) => (availableLabel(draft as State, project, t) ?? createLabel(draft, { projectId: project.id }, { title: t, color: DEFAULT_LABEL_COLOR }, now)).id,
  );
}

export interface LabelInput {
  title: string;
  color: string;
  description?: string;
  priority?: number | null;
}

export function createLabel(draft: Draft<State>, owner: LabelOwner, input: LabelInput, now: number): Label {
  const label: Label = {
    id: ids.next(draft as State, 'label'),
    projectId: owner.projectId ?? null,
    groupId: owner.groupId ?? null,
    title: input.title,
    color: input.color,
    description: input.description ?? '',
    priority: input.priority ?? null,
    createdAt: now,
  };
  tset(draft.labels, label.id, label);
  const key = ownerKey(owner);
  if (!tget(draft.labelTitles, key)) tset(draft.labelTitles, key, emptyTable<number>());
  tset(tget(draft.labelTitles, key)!, label.title, label.id);
  return label;
}

/**
 * Label validations: a title without commas or leading/trailing blanks, unique for its owner,
 * a valid colour. `{ title: [...], color: [...] }` as render_validation_error! renders them.
 */
export function validateLabel(state: State, owner: LabelOwner, title: string, color: string | null, except?: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (color === null) add('color', 'must be a valid color code');
  if (title.trim() === '') add('title', "can't be blank");
  else if (/[,]/.test(title)) add('title', 'is invalid');
  else if (title.length > 255) add('title', 'is too long (maximum is 255 characters)');
  const same = labelByTitle(state, owner, title);
  if (same && same.id !== except) add('title', 'has already been taken');
  return errors;
}
